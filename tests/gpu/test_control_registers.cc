// The control register map and its decode: reset values, access types, bad
// accesses, the CYCLE latch, IRQ enable/acknowledge, the doorbell, commands,
// the reset register and the error text window.
#include <gtest/gtest.h>

#include <stdexcept>

#include "gpu/control_registers.h"

namespace warptlm {
namespace {

struct Bench {
  uint64_t now = 0;
  int doorbells = 0, resets = 0;
  std::vector<uint32_t> commands;
  std::vector<bool> irq_edges;
  ControlRegisters regs{ControlRegisters::Hooks{[this] { return now; }, [this] { ++doorbells; },
                                                [this](bool level) { irq_edges.push_back(level); },
                                                [this](uint32_t c) { commands.push_back(c); },
                                                [this] { ++resets; }}};

  uint32_t read(uint32_t offset) {
    uint32_t v = 0xDEADBEEF;
    EXPECT_EQ(regs.read(offset, v), tlm::TLM_OK_RESPONSE) << "offset " << offset;
    return v;
  }
  void write(uint32_t offset, uint32_t v) {
    EXPECT_EQ(regs.write(offset, v), tlm::TLM_OK_RESPONSE) << "offset " << offset;
  }
};

// One access through the socket decode; returns the response status.
tlm::tlm_response_status transport(ControlRegisters& regs, tlm::tlm_command cmd, uint64_t address,
                                   uint8_t* data, unsigned length, unsigned width = 4,
                                   uint8_t* byte_enables = nullptr) {
  tlm::tlm_generic_payload p;
  p.set_command(cmd);
  p.set_address(address);
  p.set_data_ptr(data);
  p.set_data_length(length);
  p.set_streaming_width(width);
  p.set_byte_enable_ptr(byte_enables);
  if (byte_enables) p.set_byte_enable_length(length);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  regs.transport(p);
  return p.get_response_status();
}

TEST(ControlRegisters, ResetValuesMatchTheMap) {
  Bench b;
  EXPECT_EQ(b.read(reg::kId), 0x57544C4Du);
  EXPECT_EQ(b.read(reg::kVersion), 0x00010002u);
  EXPECT_EQ(b.read(reg::kStatus), 0u);  // idle
  EXPECT_EQ(b.read(reg::kError), 0u);
  for (uint32_t r :
       {reg::kGridX, reg::kGridY, reg::kGridZ, reg::kBlockX, reg::kBlockY, reg::kBlockZ})
    EXPECT_EQ(b.read(r), 1u);
  for (uint32_t r : {reg::kProgram, reg::kKernel, reg::kParamAddrLo, reg::kParamAddrHi,
                     reg::kDynShared, reg::kGridWorkspaceLo, reg::kGridWorkspaceHi, reg::kIrqEnable,
                     reg::kIrqStatus, reg::kLaunch})
    EXPECT_EQ(b.read(r), 0u);
  for (const RegisterInfo& r : control_register_map()) {
    if (r.offset != reg::kCycleLo && r.offset != reg::kCycleHi) {
      EXPECT_EQ(b.read(r.offset), r.reset) << r.name;
    }
  }
  EXPECT_EQ(control_register_map().size(), 38u);
  EXPECT_EQ(control_register("DYN_SHARED").offset, 0x68u);
  EXPECT_EQ(control_register("IRQ_STATUS").access, RegAccess::W1C);
  try {
    control_register("GRID_W");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("name: no control register 'GRID_W'"), std::string::npos);
  }
}

TEST(ControlRegisters, LaunchRegistersReadBackWhatWasWritten) {
  Bench b;
  b.write(reg::kProgram, 2);
  b.write(reg::kKernel, 0x40);
  b.write(reg::kGridX, 7);
  b.write(reg::kGridY, 3);
  b.write(reg::kBlockZ, 4);
  b.write(reg::kParamAddrLo, 0x100);
  b.write(reg::kParamAddrHi, 0x1);
  b.write(reg::kDynShared, 512);
  EXPECT_EQ(b.regs.program(), 2u);
  EXPECT_EQ(b.regs.kernel(), 0x40u);
  EXPECT_EQ(b.regs.grid().count(), 7u * 3u * 1u);
  EXPECT_EQ(b.regs.block().z, 4u);
  EXPECT_EQ(b.regs.param_address(), 0x1'0000'0100ull);
  EXPECT_EQ(b.regs.dynamic_shared(), 512u);
  EXPECT_EQ(b.read(reg::kGridY), 3u);
  EXPECT_EQ(b.doorbells, 0);
}

TEST(ControlRegisters, ReadOnlyRegistersRefuseWrites) {
  Bench b;
  for (uint32_t r : {reg::kId, reg::kVersion, reg::kStatus, reg::kError, reg::kCycleLo,
                     reg::kCycleHi, reg::kLaunchCyclesLo, reg::kLaunchCyclesHi})
    EXPECT_EQ(b.regs.write(r, 5), tlm::TLM_COMMAND_ERROR_RESPONSE) << r;
  EXPECT_EQ(b.read(reg::kId), kGpuId);
  EXPECT_EQ(b.read(reg::kStatus), 0u);
}

TEST(ControlRegisters, BadAccessesGetErrorResponsesNotCrashes) {
  Bench b;
  uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  uint8_t enables[4] = {0xFF, 0xFF, 0, 0};
  using tlm::TLM_READ_COMMAND;
  using tlm::TLM_WRITE_COMMAND;
  // Unmapped words inside the window, a misaligned address, past the window.
  EXPECT_EQ(transport(b.regs, TLM_READ_COMMAND, 0x2C, data, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(transport(b.regs, TLM_WRITE_COMMAND, 0x8C, data, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(transport(b.regs, TLM_READ_COMMAND, 0x4A, data, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(transport(b.regs, TLM_READ_COMMAND, 0x100, data, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(transport(b.regs, TLM_READ_COMMAND, 0x7FC, data, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(transport(b.regs, TLM_READ_COMMAND, 0x1000, data, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(transport(b.regs, TLM_READ_COMMAND, 0x802, data, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(transport(b.regs, TLM_READ_COMMAND, ~0ull - 3, data, 4),
            tlm::TLM_ADDRESS_ERROR_RESPONSE);
  // Anything but one whole word: 8-byte, 2-byte, streamed.
  EXPECT_EQ(transport(b.regs, TLM_WRITE_COMMAND, reg::kGridX, data, 8),
            tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(transport(b.regs, TLM_READ_COMMAND, reg::kGridX, data, 2, 2),
            tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(transport(b.regs, TLM_WRITE_COMMAND, reg::kGridX, data, 4, 2),
            tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(transport(b.regs, TLM_WRITE_COMMAND, reg::kGridX, nullptr, 4),
            tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(transport(b.regs, TLM_WRITE_COMMAND, reg::kGridX, data, 4, 4, enables),
            tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
  EXPECT_EQ(b.read(reg::kGridX), 1u);  // none of the writes landed
}

TEST(ControlRegisters, SocketAccessesAreLittleEndianWords) {
  Bench b;
  uint8_t w[4] = {0x78, 0x56, 0x34, 0x12};
  EXPECT_EQ(transport(b.regs, tlm::TLM_WRITE_COMMAND, reg::kGridX, w, 4), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(b.regs.grid().x, 0x12345678u);
  uint8_t r[4] = {};
  EXPECT_EQ(transport(b.regs, tlm::TLM_READ_COMMAND, reg::kId, r, 4), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(r[0], 0x4D);  // 'M': 0x57544C4D little endian
  EXPECT_EQ(r[3], 0x57);  // 'W'
  // The launch doorbell is write-only and reads as 0.
  EXPECT_EQ(transport(b.regs, tlm::TLM_READ_COMMAND, reg::kLaunch, r, 4), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(r[0] | r[1] | r[2] | r[3], 0);
}

TEST(ControlRegisters, CycleLoLatchesTheHighHalf) {
  Bench b;
  b.now = 0x1'0000'0005ull;
  EXPECT_EQ(b.read(reg::kCycleLo), 5u);
  b.now = 0x2'FFFF'FFFFull;              // the counter carries between the two reads
  EXPECT_EQ(b.read(reg::kCycleHi), 1u);  // still the half latched with LO
  EXPECT_EQ(b.read(reg::kCycleLo), 0xFFFFFFFFu);
  EXPECT_EQ(b.read(reg::kCycleHi), 2u);
}

TEST(ControlRegisters, DoorbellOnlyOnOneAndNotWhileRunning) {
  Bench b;
  b.write(reg::kLaunch, 2);  // reserved values are ignored
  EXPECT_EQ(b.doorbells, 0);
  b.write(reg::kLaunch, 1);
  EXPECT_EQ(b.doorbells, 1);
  b.regs.begin_launch();
  EXPECT_EQ(b.read(reg::kStatus), 1u);
  // While running: launch registers and the doorbell refuse writes, IRQ ones accept.
  EXPECT_EQ(b.regs.write(reg::kLaunch, 1), tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(b.regs.write(reg::kGridX, 9), tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(b.regs.write(reg::kParamAddrLo, 9), tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(b.doorbells, 1);
  EXPECT_EQ(b.read(reg::kGridX), 1u);
  b.write(reg::kIrqEnable, kIrqDone);
  b.regs.end_launch(GpuStatus::Done, GpuError::None, 0x1'0000'0010ull);
  EXPECT_EQ(b.read(reg::kStatus), 2u);
  EXPECT_EQ(b.read(reg::kLaunchCyclesLo), 0x10u);
  EXPECT_EQ(b.read(reg::kLaunchCyclesHi), 1u);
  b.write(reg::kGridX, 9);  // accepted again once the launch ended
  EXPECT_EQ(b.regs.grid().x, 9u);
}

TEST(ControlRegisters, IrqIsStatusAndEnableWithWriteOneToClear) {
  Bench b;
  b.regs.end_launch(GpuStatus::Done, GpuError::None, 100);
  EXPECT_EQ(b.read(reg::kIrqStatus), kIrqDone);
  EXPECT_FALSE(b.regs.irq());  // not enabled
  EXPECT_TRUE(b.irq_edges.empty());
  b.write(reg::kIrqEnable, 0xFFFFFFFF);  // only the defined bits stick
  EXPECT_EQ(b.read(reg::kIrqEnable), kIrqMask);
  EXPECT_TRUE(b.regs.irq());
  b.write(reg::kIrqStatus, kIrqError);  // clearing a bit that is not set changes nothing
  EXPECT_TRUE(b.regs.irq());
  b.write(reg::kIrqStatus, kIrqDone);  // acknowledge
  EXPECT_FALSE(b.regs.irq());
  EXPECT_EQ(b.read(reg::kIrqStatus), 0u);

  b.write(reg::kIrqEnable, kIrqDone);
  b.regs.end_launch(GpuStatus::Fault, GpuError::KernelFault, 7);
  EXPECT_EQ(b.read(reg::kIrqStatus), kIrqError);
  EXPECT_EQ(b.read(reg::kError), 10u);
  EXPECT_FALSE(b.regs.irq());  // the error bit is masked
  b.write(reg::kIrqEnable, kIrqDone | kIrqError);
  EXPECT_TRUE(b.regs.irq());
  b.write(reg::kIrqEnable, 0);  // masking lowers the line without acknowledging
  EXPECT_FALSE(b.regs.irq());
  EXPECT_EQ(b.read(reg::kIrqStatus), kIrqError);
  EXPECT_EQ(b.irq_edges, (std::vector<bool>{true, false, true, false}));
}

TEST(ControlRegisters, HooksMustBeSet) {
  ControlRegisters::Hooks h{[] { return uint64_t(0); }, [] {}, nullptr, [](uint32_t) {}, [] {}};
  try {
    ControlRegisters r(h);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "hooks.irq: must be set");
  }
  h.irq = [](bool) {};
  h.reset = nullptr;
  try {
    ControlRegisters r(h);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "hooks.reset: must be set");
  }
}

// A debugger's access (transport_dbg): `length` bytes at `address`; returns
// what the registers return (bytes transferred).
unsigned debug(ControlRegisters& regs, tlm::tlm_command cmd, uint64_t address, uint8_t* data,
               unsigned length) {
  tlm::tlm_generic_payload p;
  p.set_command(cmd);
  p.set_address(address);
  p.set_data_ptr(data);
  p.set_data_length(length);
  uint8_t enables[4] = {0, 0, 0, 0};  // ignored by debug transport
  p.set_byte_enable_ptr(enables);
  p.set_byte_enable_length(4);
  return regs.debug_transport(p);
}

TEST(ControlRegisters, DebugReadsSeeEverythingAndChangeNothing) {
  Bench b;
  b.now = (uint64_t(7) << 32) | 5;
  b.write(reg::kIrqEnable, kIrqMask);
  b.regs.end_launch(GpuStatus::Done, GpuError::None, 9);  // IRQ_STATUS done: irq high
  ASSERT_EQ(b.irq_edges, (std::vector<bool>{true}));
  uint8_t window[reg::kWindowBytes];
  EXPECT_EQ(debug(b.regs, tlm::TLM_READ_COMMAND, 0, window, sizeof window), reg::kWindowBytes);
  auto word_at = [&](uint32_t offset) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t(window[offset + i]) << (8 * i);
    return v;
  };
  EXPECT_EQ(word_at(reg::kId), kGpuId);
  EXPECT_EQ(word_at(reg::kStatus), static_cast<uint32_t>(GpuStatus::Done));
  EXPECT_EQ(word_at(reg::kIrqStatus), kIrqDone);
  EXPECT_EQ(word_at(reg::kGridX), 1u);
  EXPECT_EQ(word_at(reg::kCycleLo), 5u);  // live, both halves
  EXPECT_EQ(word_at(reg::kCycleHi), 7u);
  EXPECT_EQ(word_at(0x30), 0u);  // a hole
  // The CYCLE latch did not move: a normal CYCLE_HI read still gives 0.
  EXPECT_EQ(b.read(reg::kCycleHi), 0u);
  // Unaligned and partial reads, and reads past the window's end.
  uint8_t two[2];
  EXPECT_EQ(debug(b.regs, tlm::TLM_READ_COMMAND, reg::kId + 1, two, 2), 2u);
  EXPECT_EQ(two[0], static_cast<uint8_t>(kGpuId >> 8));
  uint8_t tail[8];
  EXPECT_EQ(debug(b.regs, tlm::TLM_READ_COMMAND, reg::kWindowBytes - 4, tail, 8), 4u);
  EXPECT_EQ(debug(b.regs, tlm::TLM_READ_COMMAND, reg::kWindowBytes, tail, 8), 0u);
  EXPECT_EQ(b.irq_edges, (std::vector<bool>{true}));  // the irq line never moved
}

TEST(ControlRegisters, DebugWritesSetLaunchRegistersOnlyWithoutSideEffects) {
  Bench b;
  b.write(reg::kIrqEnable, kIrqMask);
  b.regs.end_launch(GpuStatus::Done, GpuError::None, 9);
  // A word of 1s over LAUNCH, IRQ_STATUS, IRQ_ENABLE and ID: nothing written,
  // no doorbell, the pending interrupt stays.
  uint8_t ones[4] = {1, 0, 0, 0};
  for (uint32_t offset : {reg::kLaunch, reg::kCommand, reg::kReset, reg::kIrqStatus,
                          reg::kIrqEnable, reg::kId, reg::kKernelCount, reg::kErrorText})
    EXPECT_EQ(debug(b.regs, tlm::TLM_WRITE_COMMAND, offset, ones, 4), 0u) << offset;
  EXPECT_EQ(b.doorbells, 0);
  EXPECT_EQ(b.resets, 0);
  EXPECT_TRUE(b.commands.empty());
  EXPECT_EQ(debug(b.regs, tlm::TLM_WRITE_COMMAND, reg::kImageSize, ones, 4), 4u);
  EXPECT_EQ(b.regs.image_size(), 1u);
  EXPECT_EQ(b.read(reg::kIrqStatus), kIrqDone);
  EXPECT_EQ(b.read(reg::kIrqEnable), kIrqMask);
  EXPECT_EQ(b.read(reg::kId), kGpuId);
  // GRID_X and GRID_Y in one access (byte enables ignored).
  uint8_t grid[8] = {0x10, 0, 0, 0, 0x20, 0, 0, 0};
  EXPECT_EQ(debug(b.regs, tlm::TLM_WRITE_COMMAND, reg::kGridX, grid, 8), 8u);
  EXPECT_EQ(b.regs.grid().x, 0x10u);
  EXPECT_EQ(b.regs.grid().y, 0x20u);
  // Refused while a launch runs, as bus writes are.
  b.regs.begin_launch();
  EXPECT_EQ(debug(b.regs, tlm::TLM_WRITE_COMMAND, reg::kGridX, grid, 4), 0u);
  EXPECT_EQ(b.irq_edges, (std::vector<bool>{true}));
}

TEST(ControlRegisters, CommandsGoToTheHookAndEndWithStatusAndError) {
  Bench b;
  b.write(reg::kIrqEnable, kIrqMask);
  b.write(reg::kCommand, 7);  // any value reaches the owner, which judges it
  b.write(reg::kCommand, 1);
  EXPECT_EQ(b.commands, (std::vector<uint32_t>{7, 1}));
  EXPECT_EQ(b.read(reg::kCommand), 0u);  // write-only
  b.regs.set_selection(3, 0x40, 2);
  b.regs.end_command(GpuError::None);
  EXPECT_EQ(b.read(reg::kStatus), uint32_t(GpuStatus::Done));
  EXPECT_EQ(b.read(reg::kProgram), 3u);
  EXPECT_EQ(b.read(reg::kKernel), 0x40u);
  EXPECT_EQ(b.read(reg::kKernelCount), 2u);
  EXPECT_EQ(b.read(reg::kIrqStatus), 0u);  // a command that succeeded raises nothing
  EXPECT_EQ(b.regs.write(reg::kKernelCount, 1), tlm::TLM_COMMAND_ERROR_RESPONSE);
  b.regs.end_command(GpuError::BadImage);
  EXPECT_EQ(b.read(reg::kStatus), uint32_t(GpuStatus::LaunchError));
  EXPECT_EQ(b.read(reg::kError), uint32_t(GpuError::BadImage));
  EXPECT_EQ(b.read(reg::kIrqStatus), kIrqError);
  EXPECT_EQ(b.irq_edges, (std::vector<bool>{true}));
  // While a launch runs, COMMAND and the command registers refuse writes.
  b.regs.begin_launch();
  EXPECT_EQ(b.regs.write(reg::kCommand, 1), tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(b.regs.write(reg::kImageAddrLo, 1), tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(b.commands.size(), 2u);
}

TEST(ControlRegisters, ResetIsAcceptedAlwaysAndRestoresEveryRegister) {
  Bench b;
  b.write(reg::kIrqEnable, kIrqMask);
  b.write(reg::kGridX, 9);
  b.write(reg::kImageSize, 100);
  b.regs.set_error_text("boom");
  b.now = uint64_t(3) << 32;
  b.read(reg::kCycleLo);  // latches 3
  b.regs.begin_launch();
  b.write(reg::kReset, 2);  // other values are ignored
  EXPECT_EQ(b.resets, 0);
  b.write(reg::kReset, 1);  // accepted while a launch runs
  EXPECT_EQ(b.resets, 1);
  b.regs.end_launch(GpuStatus::Done, GpuError::None, 5);  // irq high
  b.regs.reset();                                         // what the owner's reset hook does
  for (const RegisterInfo& r : control_register_map()) {
    if (r.offset != reg::kCycleLo) {
      EXPECT_EQ(b.read(r.offset), r.reset) << r.name;
    }
  }
  EXPECT_EQ(b.read(reg::kErrorTextLen), 0u);
  EXPECT_EQ(b.irq_edges, (std::vector<bool>{true, false}));
  b.regs.reset();  // a second reset changes nothing and moves no line
  EXPECT_EQ(b.irq_edges, (std::vector<bool>{true, false}));
}

TEST(ControlRegisters, ErrorTextWindowHoldsTheMessageNulTerminated) {
  Bench b;
  b.regs.set_error_text("load: image@0x10000:3:7: unknown opcode");
  const std::string expected = "load: image@0x10000:3:7: unknown opcode";
  EXPECT_EQ(b.read(reg::kErrorTextLen), expected.size());
  std::string text;
  for (uint32_t offset = reg::kErrorText; offset < reg::kWindowBytes; offset += 4) {
    const uint32_t w = b.read(offset);
    for (int i = 0; i < 4; ++i) text += static_cast<char>(w >> (8 * i));
  }
  EXPECT_EQ(text.substr(0, text.find('\0')), expected);
  EXPECT_EQ(b.regs.write(reg::kErrorText, 0), tlm::TLM_COMMAND_ERROR_RESPONSE);
  // A longer text is cut so that the window keeps its NUL.
  b.regs.set_error_text(std::string(5000, 'x'));
  EXPECT_EQ(b.read(reg::kErrorTextLen), reg::kErrorTextBytes - 1);
  EXPECT_EQ(b.read(reg::kWindowBytes - 4), 0x00787878u);
  // Debug reads see the text too.
  uint8_t bytes[4];
  EXPECT_EQ(debug(b.regs, tlm::TLM_READ_COMMAND, reg::kErrorText + 1, bytes, 4), 4u);
  EXPECT_EQ(bytes[0], 'x');
}

}  // namespace
}  // namespace warptlm
