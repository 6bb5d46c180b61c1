// The GPU's memory-mapped control registers: the register map as data (what
// docs/gpu-registers.md documents) and the decode of the host's 32-bit
// accesses arriving on the GPU's control target socket. Plain C++ besides the
// TLM payload type; the Gpu top supplies the cycle counter, the doorbell
// action and the interrupt line through Hooks.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <tlm>
#include <vector>

#include "exec/launch.h"

namespace warptlm {

// Register offsets within the control window (bytes from its base).
namespace reg {
constexpr uint32_t kId = 0x00;
constexpr uint32_t kVersion = 0x04;
constexpr uint32_t kStatus = 0x08;
constexpr uint32_t kError = 0x0C;
constexpr uint32_t kCycleLo = 0x10;
constexpr uint32_t kCycleHi = 0x14;
constexpr uint32_t kLaunchCyclesLo = 0x18;
constexpr uint32_t kLaunchCyclesHi = 0x1C;
constexpr uint32_t kIrqEnable = 0x20;
constexpr uint32_t kIrqStatus = 0x24;
constexpr uint32_t kErrorTextLen = 0x28;
constexpr uint32_t kProgram = 0x40;
constexpr uint32_t kKernel = 0x44;
constexpr uint32_t kGridX = 0x48;
constexpr uint32_t kGridY = 0x4C;
constexpr uint32_t kGridZ = 0x50;
constexpr uint32_t kBlockX = 0x54;
constexpr uint32_t kBlockY = 0x58;
constexpr uint32_t kBlockZ = 0x5C;
constexpr uint32_t kParamAddrLo = 0x60;
constexpr uint32_t kParamAddrHi = 0x64;
constexpr uint32_t kDynShared = 0x68;
constexpr uint32_t kGridWorkspaceLo = 0x70;
constexpr uint32_t kGridWorkspaceHi = 0x74;
constexpr uint32_t kLaunch = 0x80;
constexpr uint32_t kCommand = 0x84;
constexpr uint32_t kReset = 0x88;
constexpr uint32_t kImageAddrLo = 0x90;
constexpr uint32_t kImageAddrHi = 0x94;
constexpr uint32_t kImageSize = 0x98;
constexpr uint32_t kGlobalsAddrLo = 0x9C;
constexpr uint32_t kGlobalsAddrHi = 0xA0;
constexpr uint32_t kNameAddrLo = 0xA4;
constexpr uint32_t kNameAddrHi = 0xA8;
constexpr uint32_t kNameSize = 0xAC;
constexpr uint32_t kKernelIndex = 0xB0;
constexpr uint32_t kKernelCount = 0xB4;
// The text of the last error (Gpu::last_error()), NUL-terminated, cut to
// kErrorTextBytes - 1 bytes; read-only.
constexpr uint32_t kErrorText = 0x800;
constexpr uint32_t kErrorTextBytes = 0x800;
constexpr uint32_t kWindowBytes = 0x1000;  // accesses beyond the window are address errors
}  // namespace reg

constexpr uint32_t kGpuId = 0x57544C4D;       // "WTLM" in ASCII
constexpr uint32_t kGpuVersion = 0x00010002;  // register map 1.2 (major << 16 | minor)

// COMMAND values: synchronous commands, done when the write returns.
enum class GpuCommand : uint32_t {
  Load = 1,           // parse the PTX image at IMAGE_ADDR (IMAGE_SIZE bytes): PROGRAM = its handle
  KernelByIndex = 2,  // KERNEL = entry PC of kernel KERNEL_INDEX of PROGRAM
  KernelByName = 3,   // KERNEL = entry PC of the kernel named by NAME_SIZE bytes at NAME_ADDR
};

// IRQ_STATUS / IRQ_ENABLE bits.
constexpr uint32_t kIrqDone = 1u << 0;   // a launch completed normally
constexpr uint32_t kIrqError = 1u << 1;  // a launch was refused or ended in a kernel fault
constexpr uint32_t kIrqMask = kIrqDone | kIrqError;

enum class GpuStatus : uint32_t { Idle = 0, Running = 1, Done = 2, LaunchError = 3, Fault = 4 };

enum class GpuError : uint32_t {
  None = 0,
  BadProgram = 1,    // PROGRAM is not a handle of a loaded program
  BadKernel = 2,     // KERNEL is not the entry address of a kernel of that program
  BadGrid = 3,       // a grid dimension is 0 or above the PTX limit
  BadBlock = 4,      // a block dimension is 0 or above the PTX limit
  BadParams = 5,     // the parameter buffer at PARAM_ADDR is not readable device memory
  CtaWarps = 6,      // a CTA has more warps (threads) than an SM holds
  CtaRegisters = 7,  // a CTA needs more registers than an SM has
  CtaShared = 8,     // a CTA needs more shared memory (static + dynamic) than an SM has
  Faulted = 9,       // an earlier kernel fault left the GPU unusable (sticky, as CUDA's)
  KernelFault = 10,  // the kernel faulted (Gpu::fault() has the details)
  ThreadLocal = 11,  // a thread needs more local memory than the per-thread limit (512 KiB)
  BadImage = 12,     // LOAD: the image cannot be read, parsed or finalised, or its globals placed
  BadCommand = 13,   // COMMAND was written with a value that is no command
  Cooperative =
      14,  // a cooperative launch cannot run: more CTAs than the SMs hold at once, or compaction on
};

const char* gpu_status_name(GpuStatus status);  // "idle", "running", ...
const char* gpu_error_name(GpuError error);     // "none", "bad_program", ...

enum class RegAccess { RO, RW, W1C, WO };
const char* reg_access_name(RegAccess access);  // "RO", "RW", "W1C", "WO"

struct RegisterInfo {
  const char* name;  // "GRID_X"
  uint32_t offset;
  RegAccess access;
  uint32_t reset;
  const char* meaning;
};

// Every register, by offset.
const std::vector<RegisterInfo>& control_register_map();
// Throws std::invalid_argument naming `name` and listing the registers.
const RegisterInfo& control_register(const std::string& name);

class ControlRegisters {
 public:
  struct Hooks {
    std::function<uint64_t()> cycles;  // core cycles since reset, read live
    std::function<void()> doorbell;    // LAUNCH written with 1 while no launch runs
    std::function<void(bool)> irq;     // the interrupt level (IRQ_STATUS & IRQ_ENABLE != 0) changed
    std::function<void(uint32_t)> command;  // COMMAND written while no launch runs
    std::function<void()> reset;            // RESET written with 1 (at any time)
  };
  // Throws std::invalid_argument naming the hook when one is empty.
  explicit ControlRegisters(Hooks hooks);

  // The b_transport body: aligned 4-byte reads and writes, no byte enables.
  // Sets the payload's response status; never throws for a bad access.
  void transport(tlm::tlm_generic_payload& payload);
  // The transport_dbg body: a debugger's view, without side effects. Reads
  // any bytes of the window (live CYCLE without latching it, holes and the
  // write-only registers as 0); writes change only the plain RW registers
  // (PROGRAM .. DYN_SHARED, the image, globals and name addresses, KERNEL_INDEX)
  // while no launch runs, never LAUNCH, COMMAND or RESET, IRQ_ENABLE or
  // IRQ_STATUS (which would move the irq line) or a read-only register.
  // Returns the bytes transferred: up to the window's end for reads, the RW
  // registers' bytes written for writes. Byte enables and streaming width are ignored,
  // as TLM-2.0 specifies for debug transport.
  unsigned debug_transport(tlm::tlm_generic_payload& payload);
  // One 32-bit access at `offset`; the response transport() would give.
  tlm::tlm_response_status read(uint64_t offset, uint32_t& value);
  tlm::tlm_response_status write(uint64_t offset, uint32_t value);

  // The registers as last written.
  uint32_t program() const { return word(reg::kProgram); }
  uint32_t kernel() const { return word(reg::kKernel); }
  Dim3 grid() const;
  Dim3 block() const;
  uint64_t param_address() const;
  uint32_t dynamic_shared() const { return word(reg::kDynShared); }
  uint64_t grid_workspace() const { return pair(reg::kGridWorkspaceLo); }
  uint64_t image_address() const { return pair(reg::kImageAddrLo); }
  uint32_t image_size() const { return word(reg::kImageSize); }
  uint64_t globals_address() const { return pair(reg::kGlobalsAddrLo); }
  uint64_t name_address() const { return pair(reg::kNameAddrLo); }
  uint32_t name_size() const { return word(reg::kNameSize); }
  uint32_t kernel_index() const { return word(reg::kKernelIndex); }

  GpuStatus status() const { return static_cast<GpuStatus>(word(reg::kStatus)); }
  GpuError error() const { return static_cast<GpuError>(word(reg::kError)); }
  bool irq() const { return (word(reg::kIrqStatus) & word(reg::kIrqEnable)) != 0; }

  // The owner's launch transitions. begin_launch: STATUS running, ERROR none.
  // end_launch: STATUS, ERROR and LAUNCH_CYCLES of the finished (or refused)
  // launch, and the IRQ_STATUS bit it earns (Done: kIrqDone, else kIrqError).
  void begin_launch();
  void end_launch(GpuStatus status, GpuError error, uint64_t launch_cycles);
  // A command starts: STATUS running, ERROR none. Only an initiator that
  // reaches the registers while a command waits for memory (a second host,
  // or one whose memory's b_transport waits) sees it.
  void begin_command() { begin_launch(); }
  // A command's outcome: STATUS done or launch error (refused), ERROR; a
  // refusal sets IRQ_STATUS's error bit, a success no bit (the command was
  // synchronous: its register write returned after it).
  void end_command(GpuError error);
  // A command's results: PROGRAM, KERNEL and KERNEL_COUNT as it found them.
  void set_selection(uint32_t program, uint32_t kernel, uint32_t kernel_count);
  // The ERROR_TEXT window's content (cut to kErrorTextBytes - 1 bytes).
  void set_error_text(const std::string& text);
  // Every register to its reset value, the latched CYCLE_HI and the error
  // text cleared; the irq hook hears of a falling level.
  void reset();

 private:
  static constexpr unsigned kWords = reg::kErrorText / 4;  // the words below the text window
  uint32_t word(uint32_t offset) const { return words_[offset / 4]; }
  uint64_t pair(uint32_t lo) const { return uint64_t(word(lo + 4)) << 32 | word(lo); }
  // The RegisterInfo index at a 4-aligned offset in the window, -1 for a hole.
  int register_at(uint64_t offset) const;
  uint32_t text_word(uint32_t offset) const;  // 4 bytes of the ERROR_TEXT window
  void reset_words();
  void set_irq_status(uint32_t value);

  Hooks hooks_;
  std::array<uint32_t, kWords> words_{};
  std::array<int16_t, kWords> info_{};  // index into control_register_map(), -1: no register
  uint32_t cycle_hi_latch_ = 0;         // CYCLE_HI as of the last CYCLE_LO read
  std::string error_text_;              // ERROR_TEXT's bytes (no NUL)
};

}  // namespace warptlm
