#include "host/host_cpu.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "exec/kernel_args.h"
#include "exec/warp_issuer.h"  // hex_string
#include "frontend/ptx_parser.h"
#include "transaction/blocking_access.h"
#include "warptlm/gpu_driver.h"

namespace warptlm {
namespace {

uint32_t bus_read32(void* host, uint64_t address) {
  return static_cast<HostCpu*>(host)->mmio_read(address);
}
void bus_write32(void* host, uint64_t address, uint32_t value) {
  static_cast<HostCpu*>(host)->mmio_write(address, value);
}
void bus_wait_irq(void* host, unsigned line) { static_cast<HostCpu*>(host)->wait_irq(line); }

constexpr uint64_t kAlign = 256;
constexpr uint64_t kChunk = 64 * 1024;  // bytes per b_transport of a copy

unsigned irq_lines(const HostCpuParams& p) {
  unsigned n = 0;
  for (const HostGpu& g : p.gpus) n = std::max(n, g.irq + 1);
  return n;
}

}  // namespace

HostCpu::HostCpu(sc_core::sc_module_name name, const HostCpuParams& params,
                 std::vector<HostJob> jobs)
    : sc_module(name),
      bus("bus"),
      irq("irq", irq_lines(params)),
      params_(params),
      jobs_(std::move(jobs)) {
  std::vector<bool> busy(params_.gpus.size(), false);
  for (const HostJob& j : jobs_) {
    if (j.gpu >= params_.gpus.size())
      throw std::invalid_argument(std::string(this->name()) + ": a job for GPU " +
                                  std::to_string(j.gpu) + " of " +
                                  std::to_string(params_.gpus.size()));
    if (busy[j.gpu])
      throw std::invalid_argument(std::string(this->name()) + ": two jobs for " +
                                  params_.gpus[j.gpu].name + " (one job per GPU)");
    busy[j.gpu] = true;
  }
  if (!params_.local_memory && params_.memory_size == 0)
    throw std::invalid_argument(std::string(this->name()) +
                                ": no memory to place buffers in (a system memory window, or a "
                                "GPU's own memory)");
  SC_HAS_PROCESS(HostCpu);
  SC_THREAD(run);
}

void HostCpu::transport(tlm::tlm_command command, uint64_t address, void* data, uint64_t bytes) {
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  const tlm::tlm_response_status s =
      blocking_access(bus, command, address, data, static_cast<unsigned>(bytes), delay);
  if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
  if (s != tlm::TLM_OK_RESPONSE && bus_error_.empty())
    bus_error_ = std::string(command == tlm::TLM_READ_COMMAND ? "read of " : "write of ") +
                 std::to_string(bytes) + " bytes at " + hex_string(address) + ": " +
                 response_text(s);
}

uint32_t HostCpu::mmio_read(uint64_t address) {
  ++mmio_reads_;
  uint8_t b[4] = {};
  transport(tlm::TLM_READ_COMMAND, address, b, 4);
  return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
}

void HostCpu::mmio_write(uint64_t address, uint32_t value) {
  ++mmio_writes_;
  uint8_t b[4];
  for (int i = 0; i < 4; ++i) b[i] = static_cast<uint8_t>(value >> (8 * i));
  transport(tlm::TLM_WRITE_COMMAND, address, b, 4);
}

void HostCpu::wait_irq(unsigned line) {
  while (!irq[line].read()) sc_core::wait(irq[line].value_changed_event());
}

uint64_t HostCpu::allocate(uint64_t bytes, const std::string& what) {
  if (params_.local_memory) return params_.local_memory->allocate(bytes, what);
  const uint64_t size = std::max<uint64_t>(bytes, 1);
  const uint64_t at = (next_ + kAlign - 1) / kAlign * kAlign;
  if (at > params_.memory_size || size > params_.memory_size - at)
    throw std::invalid_argument(std::string(name()) + ": system memory (" +
                                std::to_string(params_.memory_size) + " bytes at " +
                                hex_string(params_.memory_base) + ") has no room for " + what +
                                " (" + std::to_string(bytes) + " bytes)");
  next_ = at + size;
  return params_.memory_base + at;
}

void HostCpu::copy_in(uint64_t address, const void* src, uint64_t bytes) {
  bytes_in_ += bytes;
  if (params_.local_memory) {
    params_.local_memory->write(address, src, bytes);
    return;
  }
  auto* p = static_cast<uint8_t*>(const_cast<void*>(src));
  for (uint64_t done = 0; done < bytes; done += kChunk)
    transport(tlm::TLM_WRITE_COMMAND, address + done, p + done, std::min(kChunk, bytes - done));
}

void HostCpu::copy_out(uint64_t address, void* dst, uint64_t bytes) {
  bytes_out_ += bytes;
  if (params_.local_memory) {
    params_.local_memory->read(address, dst, bytes);
    return;
  }
  auto* p = static_cast<uint8_t*>(dst);
  for (uint64_t done = 0; done < bytes; done += kChunk)
    transport(tlm::TLM_READ_COMMAND, address + done, p + done, std::min(kChunk, bytes - done));
}

namespace {

// The failed step's message, with the GPU's ERROR_TEXT.
std::string step_failed(const warptlm_gpu& gpu, const std::string& step, int error) {
  char text[2048];
  warptlm_gpu_error_text(&gpu, text, sizeof text);
  return step + " failed with ERROR " + std::to_string(error) + (text[0] ? ": " : "") + text;
}

}  // namespace

bool HostCpu::start(HostJob& job) {
  const HostGpu& g = params_.gpus[job.gpu];
  const warptlm_bus bus_ops{this, bus_read32, bus_write32, bus_wait_irq};
  const warptlm_gpu gpu{&bus_ops, g.registers, g.irq};
  auto fail = [&](int error, const std::string& message) {
    job.error = error;
    job.message = g.name + ": " + message;
    return false;
  };
  if (const int e = warptlm_gpu_probe(&gpu))
    return fail(e, "no warptlm GPU answers at " + hex_string(g.registers) +
                       (bus_error_.empty() ? "" : " (" + bus_error_ + ")"));
  try {
    // The driver reads the kernel's parameter layout from the module, as a CUDA driver does.
    const Module module = parse_ptx(job.ptx, job.source);
    const Function* kernel = module.find_function(job.entry);
    if (!kernel || !kernel->is_entry)
      return fail(WARPTLM_ERROR_BAD_KERNEL, job.source + " has no kernel '" + job.entry + "'");
    const uint64_t image = allocate(job.ptx.size(), job.source);
    copy_in(image, job.ptx.data(), job.ptx.size());
    const uint64_t name = allocate(job.entry.size(), "the kernel's name");
    copy_in(name, job.entry.data(), job.entry.size());
    const uint64_t globals =
        module.global_data_size && !params_.local_memory
            ? allocate(module.global_data_size, job.source + "'s .global variables")
            : 0;
    uint32_t program = 0, entry = 0;
    if (const int e =
            warptlm_gpu_load(&gpu, image, static_cast<uint32_t>(job.ptx.size()), globals, &program))
      return fail(e, step_failed(gpu, "LOAD", e));
    if (const int e = warptlm_gpu_kernel_by_name(&gpu, program, name,
                                                 static_cast<uint32_t>(job.entry.size()), &entry))
      return fail(e, step_failed(gpu, "KERNEL_BY_NAME", e));
    std::vector<uint64_t>& addresses = buffer_addresses_[&job - jobs_.data()];
    for (const HostBuffer& b : job.launch.buffers) {
      addresses.push_back(allocate(b.bytes.size(), "buffer '" + b.name + "'"));
      copy_in(addresses.back(), b.bytes.data(), b.bytes.size());
    }
    const LaunchExtras extras = place_launch_extras(
        job.launch, addresses, [&](const uint8_t* data, uint64_t n, const char* what) {
          const uint64_t a = allocate(n, what);
          copy_in(a, data, n);
          return a;
        });
    const std::vector<uint8_t> params =
        build_param_buffer(module, *kernel, job.launch, addresses, extras.descriptors);
    const uint64_t param_address = allocate(params.size(), "the parameter buffer");
    copy_in(param_address, params.data(), params.size());
    const uint64_t workspace = extras.workspace;
    if (!bus_error_.empty()) return fail(WARPTLM_ERROR_NONE, "copying in: " + bus_error_);
    const LaunchSpec& l = job.launch;
    const warptlm_launch launch{program,
                                entry,
                                {l.grid.x, l.grid.y, l.grid.z},
                                {l.block.x, l.block.y, l.block.z},
                                param_address,
                                l.shared_bytes,
                                workspace};
    job.launched_ns = sc_core::sc_time_stamp().to_seconds() * 1e9;
    if (const int e = warptlm_gpu_launch(&gpu, &launch))
      return fail(e, step_failed(gpu, "launch", e));
  } catch (const std::exception& e) {  // no room in memory, a PTX or launch error
    return fail(WARPTLM_ERROR_NONE, e.what());
  }
  return true;
}

void HostCpu::finish(HostJob& job) {
  const HostGpu& g = params_.gpus[job.gpu];
  const warptlm_bus bus_ops{this, bus_read32, bus_write32, bus_wait_irq};
  const warptlm_gpu gpu{&bus_ops, g.registers, g.irq};
  job.error = warptlm_gpu_wait(&gpu, &job.status, &job.cycles);
  job.finished_ns = sc_core::sc_time_stamp().to_seconds() * 1e9;
  job.ran = true;
  if (job.error) {
    job.message = g.name + ": " + step_failed(gpu, "the kernel", job.error);
    return;
  }
  const std::vector<uint64_t>& addresses = buffer_addresses_[&job - jobs_.data()];
  for (size_t i = 0; i < job.launch.buffers.size(); ++i)
    copy_out(addresses[i], job.launch.buffers[i].bytes.data(), job.launch.buffers[i].bytes.size());
  if (!bus_error_.empty()) job.message = g.name + ": copying out: " + bus_error_;
}

void HostCpu::run() {
  buffer_addresses_.assign(jobs_.size(), {});
  std::vector<bool> started(jobs_.size(), false);
  for (size_t i = 0; i < jobs_.size(); ++i) started[i] = start(jobs_[i]);
  for (size_t i = 0; i < jobs_.size(); ++i)
    if (started[i]) finish(jobs_[i]);
  finished_ = true;
  if (params_.stop_simulation) sc_core::sc_stop();
}

nlohmann::json HostCpu::stats() const {
  nlohmann::json s = {{"mmio_reads", mmio_reads_},
                      {"mmio_writes", mmio_writes_},
                      {"bytes_copied_in", bytes_in_},
                      {"bytes_copied_out", bytes_out_}};
  for (const HostJob& j : jobs_)
    s["jobs"][params_.gpus[j.gpu].name] = {{"entry", j.entry},
                                           {"error", j.error},
                                           {"status", j.status},
                                           {"launch_cycles", j.cycles},
                                           {"launched_ns", j.launched_ns},
                                           {"finished_ns", j.finished_ns}};
  return s;
}

}  // namespace warptlm
