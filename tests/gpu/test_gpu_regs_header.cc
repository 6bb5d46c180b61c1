// The C header for software (models/warptlm/gpu_regs.h) against the model's
// register map: every register, status and error code, by name, so the
// header, the model and docs/gpu-registers.md cannot drift apart; and the
// header compiles as plain C.
#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "common/shell_command.h"
#include "gpu/control_registers.h"
#include "warptlm/gpu_regs.h"

namespace warptlm {
namespace {

#define WARPTLM_HEADER_REG(name) \
  { #name, WARPTLM_REG_##name }
const std::vector<std::pair<std::string, uint32_t>> kHeaderRegisters = {
    WARPTLM_HEADER_REG(ID),
    WARPTLM_HEADER_REG(VERSION),
    WARPTLM_HEADER_REG(STATUS),
    WARPTLM_HEADER_REG(ERROR),
    WARPTLM_HEADER_REG(CYCLE_LO),
    WARPTLM_HEADER_REG(CYCLE_HI),
    WARPTLM_HEADER_REG(LAUNCH_CYCLES_LO),
    WARPTLM_HEADER_REG(LAUNCH_CYCLES_HI),
    WARPTLM_HEADER_REG(IRQ_ENABLE),
    WARPTLM_HEADER_REG(IRQ_STATUS),
    WARPTLM_HEADER_REG(ERROR_TEXT_LEN),
    WARPTLM_HEADER_REG(PROGRAM),
    WARPTLM_HEADER_REG(KERNEL),
    WARPTLM_HEADER_REG(GRID_X),
    WARPTLM_HEADER_REG(GRID_Y),
    WARPTLM_HEADER_REG(GRID_Z),
    WARPTLM_HEADER_REG(BLOCK_X),
    WARPTLM_HEADER_REG(BLOCK_Y),
    WARPTLM_HEADER_REG(BLOCK_Z),
    WARPTLM_HEADER_REG(PARAM_ADDR_LO),
    WARPTLM_HEADER_REG(PARAM_ADDR_HI),
    WARPTLM_HEADER_REG(DYN_SHARED),
    WARPTLM_HEADER_REG(GRID_WORKSPACE_LO),
    WARPTLM_HEADER_REG(GRID_WORKSPACE_HI),
    WARPTLM_HEADER_REG(LAUNCH),
    WARPTLM_HEADER_REG(COMMAND),
    WARPTLM_HEADER_REG(RESET),
    WARPTLM_HEADER_REG(IMAGE_ADDR_LO),
    WARPTLM_HEADER_REG(IMAGE_ADDR_HI),
    WARPTLM_HEADER_REG(IMAGE_SIZE),
    WARPTLM_HEADER_REG(GLOBALS_ADDR_LO),
    WARPTLM_HEADER_REG(GLOBALS_ADDR_HI),
    WARPTLM_HEADER_REG(NAME_ADDR_LO),
    WARPTLM_HEADER_REG(NAME_ADDR_HI),
    WARPTLM_HEADER_REG(NAME_SIZE),
    WARPTLM_HEADER_REG(KERNEL_INDEX),
    WARPTLM_HEADER_REG(KERNEL_COUNT),
    WARPTLM_HEADER_REG(ERROR_TEXT),
};

std::string upper(const std::string& s) {
  std::string u = s;
  for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return u;
}

TEST(GpuRegsHeader, HasEveryRegisterOfTheMapAtItsOffset) {
  const std::vector<RegisterInfo>& map = control_register_map();
  ASSERT_EQ(kHeaderRegisters.size(), map.size());
  for (size_t i = 0; i < map.size(); ++i) {
    EXPECT_EQ(kHeaderRegisters[i].first, map[i].name);
    EXPECT_EQ(kHeaderRegisters[i].second, map[i].offset) << map[i].name;
  }
  EXPECT_EQ(WARPTLM_REG_WINDOW_BYTES, reg::kWindowBytes);
  EXPECT_EQ(WARPTLM_ERROR_TEXT_BYTES, reg::kErrorTextBytes);
  EXPECT_EQ(WARPTLM_COMMAND_LOAD, uint32_t(GpuCommand::Load));
  EXPECT_EQ(WARPTLM_COMMAND_KERNEL_BY_INDEX, uint32_t(GpuCommand::KernelByIndex));
  EXPECT_EQ(WARPTLM_COMMAND_KERNEL_BY_NAME, uint32_t(GpuCommand::KernelByName));
  EXPECT_EQ(WARPTLM_GPU_ID, kGpuId);
  EXPECT_EQ(WARPTLM_GPU_VERSION, kGpuVersion);
  EXPECT_EQ(WARPTLM_IRQ_DONE, kIrqDone);
  EXPECT_EQ(WARPTLM_IRQ_ERROR, kIrqError);
  EXPECT_EQ(control_register("ID").reset, WARPTLM_GPU_ID);
}

TEST(GpuRegsHeader, HasEveryStatusAndErrorCodeByName) {
#define WARPTLM_HEADER_CODE(prefix, name) \
  { #name, WARPTLM_##prefix##_##name }
  const std::vector<std::pair<std::string, uint32_t>> statuses = {
      WARPTLM_HEADER_CODE(STATUS, IDLE), WARPTLM_HEADER_CODE(STATUS, RUNNING),
      WARPTLM_HEADER_CODE(STATUS, DONE), WARPTLM_HEADER_CODE(STATUS, LAUNCH_ERROR),
      WARPTLM_HEADER_CODE(STATUS, FAULT)};
  for (uint32_t v = 0; v < statuses.size(); ++v) {
    EXPECT_EQ(statuses[v].second, v);
    EXPECT_EQ(statuses[v].first, upper(gpu_status_name(static_cast<GpuStatus>(v))));
  }
  const std::vector<std::pair<std::string, uint32_t>> errors = {
      WARPTLM_HEADER_CODE(ERROR, NONE),         WARPTLM_HEADER_CODE(ERROR, BAD_PROGRAM),
      WARPTLM_HEADER_CODE(ERROR, BAD_KERNEL),   WARPTLM_HEADER_CODE(ERROR, BAD_GRID),
      WARPTLM_HEADER_CODE(ERROR, BAD_BLOCK),    WARPTLM_HEADER_CODE(ERROR, BAD_PARAMS),
      WARPTLM_HEADER_CODE(ERROR, CTA_WARPS),    WARPTLM_HEADER_CODE(ERROR, CTA_REGISTERS),
      WARPTLM_HEADER_CODE(ERROR, CTA_SHARED),   WARPTLM_HEADER_CODE(ERROR, FAULTED),
      WARPTLM_HEADER_CODE(ERROR, KERNEL_FAULT), WARPTLM_HEADER_CODE(ERROR, THREAD_LOCAL),
      WARPTLM_HEADER_CODE(ERROR, BAD_IMAGE),    WARPTLM_HEADER_CODE(ERROR, BAD_COMMAND),
      WARPTLM_HEADER_CODE(ERROR, COOPERATIVE)};
  for (uint32_t v = 0; v < errors.size(); ++v) {
    EXPECT_EQ(errors[v].second, v);
    EXPECT_EQ(errors[v].first, upper(gpu_error_name(static_cast<GpuError>(v))));
  }
  // No code beyond the header's: the model's names end there.
  EXPECT_EQ(std::string(gpu_error_name(static_cast<GpuError>(errors.size()))), "unknown");
  EXPECT_EQ(std::string(gpu_status_name(static_cast<GpuStatus>(statuses.size()))), "unknown");
}

TEST(GpuRegsHeader, CompilesAsPlainC) {
  for (const char* standard : {"c89", "c11"}) {
    const testing::CommandResult r = testing::run_shell(
        std::string("echo '#include \"warptlm/gpu_regs.h\"\nunsigned x = WARPTLM_REG_LAUNCH;' | "
                    "cc -x c -std=") +
        standard +
        " -pedantic -Wall -Wextra -Werror -fsyntax-only -I" WARPTLM_SOURCE_DIR "/models -");
    EXPECT_EQ(r.status, 0) << standard << ": " << r.output;
  }
}

}  // namespace
}  // namespace warptlm
