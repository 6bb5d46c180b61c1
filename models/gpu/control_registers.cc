#include "gpu/control_registers.h"

#include <algorithm>
#include <stdexcept>

namespace warptlm {

const char* gpu_status_name(GpuStatus status) {
  switch (status) {
    case GpuStatus::Idle:
      return "idle";
    case GpuStatus::Running:
      return "running";
    case GpuStatus::Done:
      return "done";
    case GpuStatus::LaunchError:
      return "launch_error";
    case GpuStatus::Fault:
      return "fault";
  }
  return "unknown";
}

const char* gpu_error_name(GpuError error) {
  switch (error) {
    case GpuError::None:
      return "none";
    case GpuError::BadProgram:
      return "bad_program";
    case GpuError::BadKernel:
      return "bad_kernel";
    case GpuError::BadGrid:
      return "bad_grid";
    case GpuError::BadBlock:
      return "bad_block";
    case GpuError::BadParams:
      return "bad_params";
    case GpuError::CtaWarps:
      return "cta_warps";
    case GpuError::CtaRegisters:
      return "cta_registers";
    case GpuError::CtaShared:
      return "cta_shared";
    case GpuError::Faulted:
      return "faulted";
    case GpuError::KernelFault:
      return "kernel_fault";
    case GpuError::ThreadLocal:
      return "thread_local";
    case GpuError::BadImage:
      return "bad_image";
    case GpuError::BadCommand:
      return "bad_command";
    case GpuError::Cooperative:
      return "cooperative";
  }
  return "unknown";
}

const char* reg_access_name(RegAccess access) {
  switch (access) {
    case RegAccess::RO:
      return "RO";
    case RegAccess::RW:
      return "RW";
    case RegAccess::W1C:
      return "W1C";
    case RegAccess::WO:
      return "WO";
  }
  return "?";
}

const std::vector<RegisterInfo>& control_register_map() {
  using A = RegAccess;
  static const std::vector<RegisterInfo> map = {
      {"ID", reg::kId, A::RO, kGpuId, "identifies a warptlm GPU: 0x57544C4D (\"WTLM\")"},
      {"VERSION", reg::kVersion, A::RO, kGpuVersion, "register map version, major << 16 | minor"},
      {"STATUS", reg::kStatus, A::RO, 0,
       "0 idle, 1 running, 2 done, 3 launch or command refused, 4 kernel fault"},
      {"ERROR", reg::kError, A::RO, 0, "code of the last refusal or fault, 0 after a success"},
      {"CYCLE_LO", reg::kCycleLo, A::RO, 0,
       "core cycles since reset, low half; reading it latches the high half into CYCLE_HI"},
      {"CYCLE_HI", reg::kCycleHi, A::RO, 0,
       "core cycles since reset, high half latched by CYCLE_LO"},
      {"LAUNCH_CYCLES_LO", reg::kLaunchCyclesLo, A::RO, 0,
       "core cycles of the last launch, doorbell to completion, low half"},
      {"LAUNCH_CYCLES_HI", reg::kLaunchCyclesHi, A::RO, 0, "core cycles of the last launch, high"},
      {"IRQ_ENABLE", reg::kIrqEnable, A::RW, 0,
       "bit 0 done, bit 1 error: which IRQ_STATUS bits drive the irq output"},
      {"IRQ_STATUS", reg::kIrqStatus, A::W1C, 0,
       "bit 0: a launch completed; bit 1: a launch or command was refused, or a launch faulted; "
       "write 1 to clear"},
      {"ERROR_TEXT_LEN", reg::kErrorTextLen, A::RO, 0,
       "bytes of text in the ERROR_TEXT window (the last error's message), 0 after a success"},
      {"PROGRAM", reg::kProgram, A::RW, 0,
       "program handle from the LOAD command or Gpu::load_program"},
      {"KERNEL", reg::kKernel, A::RW, 0, "entry PC of a .entry kernel of PROGRAM"},
      {"GRID_X", reg::kGridX, A::RW, 1, "grid dimension x in CTAs (1..2^31-1)"},
      {"GRID_Y", reg::kGridY, A::RW, 1, "grid dimension y in CTAs (1..65535)"},
      {"GRID_Z", reg::kGridZ, A::RW, 1, "grid dimension z in CTAs (1..65535)"},
      {"BLOCK_X", reg::kBlockX, A::RW, 1, "CTA dimension x in threads (1..1024)"},
      {"BLOCK_Y", reg::kBlockY, A::RW, 1, "CTA dimension y in threads (1..1024)"},
      {"BLOCK_Z", reg::kBlockZ, A::RW, 1, "CTA dimension z in threads (1..64); x*y*z <= 1024"},
      {"PARAM_ADDR_LO", reg::kParamAddrLo, A::RW, 0,
       "device address of the kernel parameter buffer, low half"},
      {"PARAM_ADDR_HI", reg::kParamAddrHi, A::RW, 0,
       "device address of the parameter buffer, high"},
      {"DYN_SHARED", reg::kDynShared, A::RW, 0, "dynamic shared memory per CTA, bytes"},
      {"GRID_WORKSPACE_LO", reg::kGridWorkspaceLo, A::RW, 0,
       "cooperative launch: device address of 8 zeroed bytes for grid.sync(), low half; "
       "0 = an ordinary launch"},
      {"GRID_WORKSPACE_HI", reg::kGridWorkspaceHi, A::RW, 0,
       "cooperative launch grid workspace, high half"},
      {"LAUNCH", reg::kLaunch, A::WO, 0, "doorbell: write 1 to launch; other values are ignored"},
      {"COMMAND", reg::kCommand, A::WO, 0,
       "1 LOAD the image, 2 KERNEL = kernel KERNEL_INDEX, 3 KERNEL = kernel named at NAME_ADDR"},
      {"RESET", reg::kReset, A::WO, 0,
       "write 1 to reset the GPU (also during a launch); other values are ignored"},
      {"IMAGE_ADDR_LO", reg::kImageAddrLo, A::RW, 0,
       "device address of the PTX text LOAD reads, low half"},
      {"IMAGE_ADDR_HI", reg::kImageAddrHi, A::RW, 0, "device address of the PTX text, high"},
      {"IMAGE_SIZE", reg::kImageSize, A::RW, 0, "bytes of PTX text LOAD reads (1..64 MiB)"},
      {"GLOBALS_ADDR_LO", reg::kGlobalsAddrLo, A::RW, 0,
       "device address where LOAD places the program's .global variables in a bound memory, low"},
      {"GLOBALS_ADDR_HI", reg::kGlobalsAddrHi, A::RW, 0,
       "device address of the .global variables, high"},
      {"NAME_ADDR_LO", reg::kNameAddrLo, A::RW, 0,
       "device address of a kernel name for command 3, low half"},
      {"NAME_ADDR_HI", reg::kNameAddrHi, A::RW, 0, "device address of the kernel name, high"},
      {"NAME_SIZE", reg::kNameSize, A::RW, 0, "bytes of the kernel name (1..1024)"},
      {"KERNEL_INDEX", reg::kKernelIndex, A::RW, 0,
       "index of a kernel of PROGRAM for command 2 (0 .. KERNEL_COUNT - 1)"},
      {"KERNEL_COUNT", reg::kKernelCount, A::RO, 0,
       "kernels of the program the last command loaded or searched"},
      {"ERROR_TEXT", reg::kErrorText, A::RO, 0,
       "2048-byte window: the last error's message, NUL-terminated"},
  };
  return map;
}

const RegisterInfo& control_register(const std::string& name) {
  std::string known;
  for (const RegisterInfo& r : control_register_map()) {
    if (name == r.name) return r;
    known += (known.empty() ? "" : ", ") + std::string(r.name);
  }
  throw std::invalid_argument("name: no control register '" + name + "' (registers: " + known +
                              ")");
}

ControlRegisters::ControlRegisters(Hooks hooks) : hooks_(std::move(hooks)) {
  if (!hooks_.cycles) throw std::invalid_argument("hooks.cycles: must be set");
  if (!hooks_.doorbell) throw std::invalid_argument("hooks.doorbell: must be set");
  if (!hooks_.irq) throw std::invalid_argument("hooks.irq: must be set");
  if (!hooks_.command) throw std::invalid_argument("hooks.command: must be set");
  if (!hooks_.reset) throw std::invalid_argument("hooks.reset: must be set");
  info_.fill(-1);
  const auto& map = control_register_map();
  for (size_t i = 0; i < map.size(); ++i)
    if (map[i].offset < reg::kErrorText) info_[map[i].offset / 4] = static_cast<int16_t>(i);
  reset_words();
}

void ControlRegisters::reset_words() {
  for (const RegisterInfo& r : control_register_map())
    if (r.offset < reg::kErrorText) words_[r.offset / 4] = r.reset;
  cycle_hi_latch_ = 0;
  error_text_.clear();
}

void ControlRegisters::reset() {
  const bool before = irq();
  reset_words();
  if (before) hooks_.irq(false);
}

int ControlRegisters::register_at(uint64_t offset) const {
  if (offset >= reg::kWindowBytes) return -1;
  if (offset >= reg::kErrorText) {
    static const int text = [] {
      const auto& map = control_register_map();
      for (size_t i = 0; i < map.size(); ++i)
        if (map[i].offset == reg::kErrorText) return static_cast<int>(i);
      return -1;
    }();
    return text;
  }
  return info_[offset / 4];
}

uint32_t ControlRegisters::text_word(uint32_t offset) const {
  uint32_t v = 0;
  for (uint32_t i = 0; i < 4; ++i) {
    const uint32_t at = offset - reg::kErrorText + i;
    if (at < error_text_.size()) v |= uint32_t(static_cast<uint8_t>(error_text_[at])) << (8 * i);
  }
  return v;
}

void ControlRegisters::set_error_text(const std::string& text) {
  error_text_ = text.substr(0, reg::kErrorTextBytes - 1);
  words_[reg::kErrorTextLen / 4] = static_cast<uint32_t>(error_text_.size());
}

Dim3 ControlRegisters::grid() const {
  return {word(reg::kGridX), word(reg::kGridY), word(reg::kGridZ)};
}

Dim3 ControlRegisters::block() const {
  return {word(reg::kBlockX), word(reg::kBlockY), word(reg::kBlockZ)};
}

uint64_t ControlRegisters::param_address() const {
  return uint64_t(word(reg::kParamAddrHi)) << 32 | word(reg::kParamAddrLo);
}

void ControlRegisters::transport(tlm::tlm_generic_payload& p) {
  const tlm::tlm_command cmd = p.get_command();
  if (p.get_byte_enable_ptr() != nullptr) {
    p.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  // One whole register per transaction: no bursts, no partial or streamed words.
  if (p.get_data_length() != 4 || p.get_streaming_width() < 4 || p.get_data_ptr() == nullptr) {
    p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  const uint64_t offset = p.get_address();
  if (offset % 4 != 0 || register_at(offset) < 0) {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  uint8_t* data = p.get_data_ptr();
  tlm::tlm_response_status rs = tlm::TLM_OK_RESPONSE;
  if (cmd == tlm::TLM_READ_COMMAND) {
    uint32_t v = 0;
    rs = read(offset, v);
    for (int i = 0; i < 4; ++i) data[i] = static_cast<uint8_t>(v >> (8 * i));  // little endian
  } else if (cmd == tlm::TLM_WRITE_COMMAND) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t(data[i]) << (8 * i);
    rs = write(offset, v);
  }
  p.set_response_status(rs);  // TLM_IGNORE_COMMAND: a valid address, nothing done
}

unsigned ControlRegisters::debug_transport(tlm::tlm_generic_payload& p) {
  const uint64_t address = p.get_address();
  uint8_t* data = p.get_data_ptr();
  if (address >= reg::kWindowBytes || data == nullptr) return 0;
  const unsigned length =
      static_cast<unsigned>(std::min<uint64_t>(p.get_data_length(), reg::kWindowBytes - address));
  const bool writing = p.get_command() == tlm::TLM_WRITE_COMMAND;
  if (!writing && p.get_command() != tlm::TLM_READ_COMMAND) return 0;
  const auto& map = control_register_map();
  unsigned written = 0;
  for (unsigned i = 0; i < length; ++i) {
    const uint64_t at = address + i;
    const uint32_t word_offset = static_cast<uint32_t>(at & ~uint64_t(3));
    const unsigned shift = 8 * static_cast<unsigned>(at & 3);
    const int index = register_at(word_offset);
    if (!writing) {
      uint32_t v = 0;
      if (word_offset >= reg::kErrorText)
        v = text_word(word_offset);
      else if (word_offset == reg::kCycleLo || word_offset == reg::kCycleHi)
        v = static_cast<uint32_t>(hooks_.cycles() >> (word_offset == reg::kCycleHi ? 32 : 0));
      else if (index >= 0 && map[index].access != RegAccess::WO)
        v = words_[word_offset / 4];
      data[i] = static_cast<uint8_t>(v >> shift);
      continue;
    }
    // Only the plain RW registers, and never IRQ_ENABLE (which moves the
    // irq line) or anything while a launch runs.
    const bool plain =
        index >= 0 && map[index].access == RegAccess::RW && word_offset != reg::kIrqEnable;
    if (!plain || status() == GpuStatus::Running) continue;
    uint32_t& w = words_[word_offset / 4];
    w = (w & ~(0xFFu << shift)) | uint32_t(data[i]) << shift;
    ++written;
  }
  return writing ? written : length;
}

tlm::tlm_response_status ControlRegisters::read(uint64_t offset, uint32_t& value) {
  const int index = offset % 4 == 0 ? register_at(offset) : -1;
  if (index < 0) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  if (offset >= reg::kErrorText) {
    value = text_word(static_cast<uint32_t>(offset));
    return tlm::TLM_OK_RESPONSE;
  }
  if (control_register_map()[index].access == RegAccess::WO) {
    value = 0;  // write-only registers read as 0
    return tlm::TLM_OK_RESPONSE;
  }
  switch (offset) {
    case reg::kCycleLo: {
      uint64_t c = hooks_.cycles();
      cycle_hi_latch_ = static_cast<uint32_t>(c >> 32);
      value = static_cast<uint32_t>(c);
      return tlm::TLM_OK_RESPONSE;
    }
    case reg::kCycleHi:
      value = cycle_hi_latch_;
      return tlm::TLM_OK_RESPONSE;
    default:
      value = words_[offset / 4];
      return tlm::TLM_OK_RESPONSE;
  }
}

tlm::tlm_response_status ControlRegisters::write(uint64_t offset, uint32_t value) {
  const int index = offset % 4 == 0 ? register_at(offset) : -1;
  if (index < 0) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  const RegisterInfo& r = control_register_map()[index];
  if (r.access == RegAccess::RO) return tlm::TLM_COMMAND_ERROR_RESPONSE;
  switch (offset) {
    case reg::kReset:
      if (value == 1) hooks_.reset();
      return tlm::TLM_OK_RESPONSE;
    case reg::kIrqEnable: {
      bool before = irq();
      words_[offset / 4] = value & kIrqMask;
      if (irq() != before) hooks_.irq(irq());
      return tlm::TLM_OK_RESPONSE;
    }
    case reg::kIrqStatus:
      set_irq_status(word(reg::kIrqStatus) & ~value);
      return tlm::TLM_OK_RESPONSE;
    default:
      break;
  }
  // The launch registers describe the running launch: refused until it ends.
  if (status() == GpuStatus::Running) return tlm::TLM_COMMAND_ERROR_RESPONSE;
  if (offset == reg::kLaunch) {
    if (value == 1) hooks_.doorbell();
    return tlm::TLM_OK_RESPONSE;
  }
  if (offset == reg::kCommand) {
    hooks_.command(value);
    return tlm::TLM_OK_RESPONSE;
  }
  words_[offset / 4] = value;
  return tlm::TLM_OK_RESPONSE;
}

void ControlRegisters::set_irq_status(uint32_t value) {
  bool before = irq();
  words_[reg::kIrqStatus / 4] = value & kIrqMask;
  if (irq() != before) hooks_.irq(irq());
}

void ControlRegisters::begin_launch() {
  words_[reg::kStatus / 4] = static_cast<uint32_t>(GpuStatus::Running);
  words_[reg::kError / 4] = static_cast<uint32_t>(GpuError::None);
}

void ControlRegisters::end_launch(GpuStatus status, GpuError error, uint64_t launch_cycles) {
  words_[reg::kStatus / 4] = static_cast<uint32_t>(status);
  words_[reg::kError / 4] = static_cast<uint32_t>(error);
  words_[reg::kLaunchCyclesLo / 4] = static_cast<uint32_t>(launch_cycles);
  words_[reg::kLaunchCyclesHi / 4] = static_cast<uint32_t>(launch_cycles >> 32);
  set_irq_status(word(reg::kIrqStatus) | (status == GpuStatus::Done ? kIrqDone : kIrqError));
}

void ControlRegisters::end_command(GpuError error) {
  const bool refused = error != GpuError::None;
  words_[reg::kStatus / 4] =
      static_cast<uint32_t>(refused ? GpuStatus::LaunchError : GpuStatus::Done);
  words_[reg::kError / 4] = static_cast<uint32_t>(error);
  if (refused) set_irq_status(word(reg::kIrqStatus) | kIrqError);
}

void ControlRegisters::set_selection(uint32_t program, uint32_t kernel, uint32_t kernel_count) {
  words_[reg::kProgram / 4] = program;
  words_[reg::kKernel / 4] = kernel;
  words_[reg::kKernelCount / 4] = kernel_count;
}

}  // namespace warptlm
