// The COMMAND register of the Gpu top: loading a program image (PTX text)
// from device memory, as a driver's module load does, and finding a kernel's
// entry PC by index or by name. Commands are synchronous: they finish inside
// the register write, reading memory through the GPU's functional view of it.
#include <exception>

#include "exec/prepared_program.h"
#include "exec/warp_issuer.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"
#include "gpu/gpu.h"
#include "simt/reconvergence_unit.h"

namespace warptlm {
namespace {

constexpr uint32_t kMaxImageBytes = 64u << 20;  // IMAGE_SIZE limit
constexpr uint32_t kMaxNameBytes = 1024;        // NAME_SIZE limit

// The .entry kernels of `m`, in module order.
std::vector<const Function*> entries(const Module& m) {
  std::vector<const Function*> out;
  for (const Function& f : m.functions)
    if (f.is_entry) out.push_back(&f);
  return out;
}

std::string kernel_list(const std::vector<const Function*>& kernels) {
  std::string s;
  for (size_t i = 0; i < kernels.size(); ++i)
    s += (i ? ", " : "") + std::to_string(i) + " " + kernels[i]->name;
  return s.empty() ? "none" : s;
}

}  // namespace

void Gpu::refuse_command(GpuError error, const std::string& message) {
  set_error(message);
  warn(message);
  regs_.end_command(error);
  outputs_changed_.notify(sc_core::SC_ZERO_TIME);
}

void Gpu::command(uint32_t value) {
  // Busy until the command ends: its memory reads may wait (b_transport), and
  // a launch or a second command must not start meanwhile.
  regs_.begin_command();
  switch (static_cast<GpuCommand>(value)) {
    case GpuCommand::Load:
      return load_image();
    case GpuCommand::KernelByIndex:
      return select_kernel_by_index();
    case GpuCommand::KernelByName:
      return select_kernel_by_name();
  }
  refuse_command(GpuError::BadCommand, "command: COMMAND = " + std::to_string(value) +
                                           " is not a command (1 load, 2 kernel by index, "
                                           "3 kernel by name)");
}

void Gpu::load_image() {
  const uint64_t address = regs_.image_address();
  const uint32_t size = regs_.image_size();
  if (size == 0 || size > kMaxImageBytes)
    return refuse_command(GpuError::BadImage, "load: IMAGE_SIZE = " + std::to_string(size) +
                                                  ": must be 1.." + std::to_string(kMaxImageBytes) +
                                                  " bytes");
  std::string text(size, '\0');
  GlobalMemory& global = functional_memory();
  const uint64_t resets = resets_;
  const bool read = global.read(address, text.data(), size);
  if (resets_ != resets) return;  // reset while the read waited: the command is abandoned
  if (!read) {
    const std::string near = global.describe(address);
    return refuse_command(GpuError::BadImage, "load: the image (" + std::to_string(size) +
                                                  " bytes at IMAGE_ADDR " + hex_string(address) +
                                                  ") cannot be read from device memory" +
                                                  (near.empty() ? "" : " (" + near + ")"));
  }
  // A C string's terminator is not part of the text.
  while (!text.empty() && text.back() == '\0') text.pop_back();
  Program program;
  try {
    program =
        prepare_program(parse_ptx(text, "image@" + hex_string(address)), config_.reconvergence);
  } catch (const std::exception& e) {
    return refuse_command(GpuError::BadImage, std::string("load: ") + e.what());
  }
  uint32_t handle = 0;
  try {
    handle = load_program(program, regs_.globals_address());
  } catch (const std::invalid_argument& e) {
    std::string why = e.what();
    if (why.rfind("load_program: ", 0) == 0) why = why.substr(14);
    return refuse_command(GpuError::BadImage, "load: " + why + " (GLOBALS_ADDR = " +
                                                  hex_string(regs_.globals_address()) + ")");
  }
  const std::vector<const Function*> kernels = entries(this->program(handle)->module);
  regs_.set_selection(handle, kernels.empty() ? 0 : static_cast<uint32_t>(kernels[0]->begin),
                      static_cast<uint32_t>(kernels.size()));
  set_error("");
  regs_.end_command(GpuError::None);
}

void Gpu::select_kernel_by_index() {
  const uint32_t handle = regs_.program();
  const Program* p = program(handle);
  if (!p) return refuse_command(GpuError::BadProgram, not_a_handle("kernel by index", handle));
  const std::vector<const Function*> kernels = entries(p->module);
  const uint32_t index = regs_.kernel_index();
  if (index >= kernels.size())
    return refuse_command(GpuError::BadKernel,
                          "kernel by index: KERNEL_INDEX = " + std::to_string(index) +
                              ": program " + std::to_string(handle) + " has " +
                              std::to_string(kernels.size()) + " kernels (" + kernel_list(kernels) +
                              ")");
  regs_.set_selection(handle, static_cast<uint32_t>(kernels[index]->begin),
                      static_cast<uint32_t>(kernels.size()));
  set_error("");
  regs_.end_command(GpuError::None);
}

void Gpu::select_kernel_by_name() {
  const uint32_t handle = regs_.program();
  const Program* p = program(handle);
  if (!p) return refuse_command(GpuError::BadProgram, not_a_handle("kernel by name", handle));
  const uint32_t size = regs_.name_size();
  const uint64_t address = regs_.name_address();
  if (size == 0 || size > kMaxNameBytes)
    return refuse_command(GpuError::BadKernel,
                          "kernel by name: NAME_SIZE = " + std::to_string(size) + ": must be 1.." +
                              std::to_string(kMaxNameBytes) + " bytes");
  std::string name(size, '\0');
  GlobalMemory& global = functional_memory();
  const uint64_t resets = resets_;
  const bool read = global.read(address, name.data(), size);
  if (resets_ != resets) return;  // reset while the read waited: the command is abandoned
  if (!read)
    return refuse_command(GpuError::BadKernel, "kernel by name: the name (" + std::to_string(size) +
                                                   " bytes at NAME_ADDR " + hex_string(address) +
                                                   ") cannot be read from device memory");
  while (!name.empty() && name.back() == '\0') name.pop_back();
  const std::vector<const Function*> kernels = entries(p->module);
  for (const Function* f : kernels)
    if (f->name == name) {
      regs_.set_selection(handle, static_cast<uint32_t>(f->begin),
                          static_cast<uint32_t>(kernels.size()));
      set_error("");
      regs_.end_command(GpuError::None);
      return;
    }
  refuse_command(GpuError::BadKernel, "kernel by name: program " + std::to_string(handle) +
                                          " has no kernel '" + name +
                                          "' (kernels: " + kernel_list(kernels) + ")");
}

}  // namespace warptlm
