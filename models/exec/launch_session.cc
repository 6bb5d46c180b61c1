#include "exec/launch_session.h"

#include <stdexcept>

#include "exec/prepared_program.h"
#include "memory/address_map.h"

namespace warptlm {
namespace {

std::string range_text(uint64_t address, uint64_t bytes) {
  return std::to_string(bytes) + " bytes at " + std::to_string(address);
}

}  // namespace

nlohmann::json all_statistics(const RunStats& run, nlohmann::json timing) {
  if (!timing.is_object()) return run.to_json();
  // The timing object is the large one (about 1,500 entries on fermi): the
  // run's few are added to it, and a name in both keeps the timing value.
  const nlohmann::json counts = run.to_json();
  for (auto it = counts.begin(); it != counts.end(); ++it) timing.emplace(it.key(), it.value());
  return timing;
}

const Program& LaunchSession::program(uint32_t handle) const {
  const Program* p = find_program(handle);
  if (!p)
    throw std::invalid_argument("session: " + std::to_string(handle) +
                                " is not a program handle of this session");
  return *p;
}

uint64_t LaunchSession::allocate(uint64_t bytes, const std::string& name) {
  return memory().allocate(bytes, name);
}

void LaunchSession::release(uint64_t address) {
  if (!memory().release(address))
    throw std::invalid_argument("session: no device allocation starts at " +
                                std::to_string(address));
}

void LaunchSession::write(uint64_t address, const void* data, uint64_t bytes) {
  if (!memory().write(address, data, bytes))
    throw std::invalid_argument("session: writing " + range_text(address, bytes) +
                                ", which is not inside one device allocation (" +
                                memory().describe(address) + ")");
}

void LaunchSession::read(uint64_t address, void* data, uint64_t bytes) const {
  if (!memory().read(address, data, bytes))
    throw std::invalid_argument("session: reading " + range_text(address, bytes) +
                                ", which is not inside one device allocation (" +
                                memory().describe(address) + ")");
}

void LaunchSession::launch(uint32_t handle, const std::string& entry, LaunchSpec& spec,
                           const std::vector<uint64_t>& buffers, TraceSink* trace) {
  if (!fault_.empty())
    throw std::invalid_argument(
        "launch: the session's device is unusable after the kernel "
        "fault of an earlier launch (" +
        fault_ + "); start a new session");
  program(handle);  // throws for a bad handle
  if (buffers.size() != spec.buffers.size())
    throw std::invalid_argument("launch: " + std::to_string(spec.buffers.size()) +
                                " buffers named but " + std::to_string(buffers.size()) +
                                " device addresses given");
  std::vector<uint64_t> sizes;
  sizes.reserve(buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i) {
    // A pointer into an allocation (CUDA's d_ptr + offset) is a buffer up to its end.
    const DeviceMemory::Allocation* a = memory().find(buffers[i], 0);
    if (!a || buffers[i] == a->base + a->bytes.size())
      throw std::invalid_argument("launch: buffer '" + spec.buffers[i].name + "' at " +
                                  std::to_string(buffers[i]) +
                                  " is not inside a device allocation of this session");
    sizes.push_back(a->base + a->bytes.size() - buffers[i]);
  }
  struct FreePlaced {  // whatever the launch's end
    LaunchSession& session;
    ~FreePlaced() {
      for (uint64_t a : session.placed_) session.memory().release(a);
      session.placed_.clear();
    }
  } free_placed{*this};
  try {
    run(handle, entry, spec, buffers, sizes, trace);
  } catch (const KernelFault& f) {
    ++launches_;
    fault_ = f.what();
    throw;
  }
  ++launches_;
}

uint64_t LaunchSession::place(const uint8_t* data, uint64_t bytes, const char* what) {
  const uint64_t address = memory().allocate(bytes, what);
  memory().write(address, data, bytes);
  placed_.push_back(address);
  return address;
}

FunctionalSession::FunctionalSession(const ExecConfig& config) : config_(config) {
  config_.validate();
}

uint32_t FunctionalSession::load(const Program& program) {
  check_program_form(program, config_.reconvergence);
  auto loaded = std::make_unique<Loaded>();
  loaded->program = program;
  KernelMemory& mem = loaded->memory;
  mem.global = &global_;
  const Module& module = loaded->program.module;
  if (module.global_data_size)
    mem.globals_base = global_.allocate(module.global_data_size, "module .global variables");
  init_module_memory(module, mem);
  programs_.push_back(std::move(loaded));
  return static_cast<uint32_t>(programs_.size());
}

const Program* FunctionalSession::find_program(uint32_t handle) const {
  return handle >= 1 && handle <= programs_.size() ? &programs_[handle - 1]->program : nullptr;
}

void FunctionalSession::run(uint32_t handle, const std::string& entry, LaunchSpec& spec,
                            const std::vector<uint64_t>& buffers,
                            const std::vector<uint64_t>& sizes, TraceSink* trace) {
  Loaded& loaded = *programs_[handle - 1];
  const Function& kernel =
      check_functional_launch(loaded.program, entry, spec, config_, false, &sizes);
  const RunStats stats = run_grid(
      loaded.program, kernel, spec, loaded.memory, buffers,
      [this](const uint8_t* data, uint64_t n, const char* what) { return place(data, n, what); },
      config_, trace, nullptr);
  total_.add(stats);
}

}  // namespace warptlm
