// The SMs of one GPU share the launch's operand table: the first SM that
// starts a CTA of a program builds it in the KernelLaunch, the others reuse
// it, and a launch of another program gets a new one.
#include <gtest/gtest.h>

#include <string>

#include "config/platform_config.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"
#include "memory/device_memory.h"
#include "sm/sm_core.h"

namespace warptlm {
namespace {

Program program(const std::string& body) {
  return finalize(
      parse_ptx(".version 7.0\n.target sm_70\n.address_size 64\n"
                ".visible .entry k()\n{\n.reg .b32 %r<4>;\n" +
                body + "\nexit;\n}\n"));
}

void prepare(KernelLaunch& launch, const Program& p, KernelMemory& memory, unsigned warp_size) {
  ++launch.id;
  launch.layouts = RegisterLayouts(p.module, warp_size);
  launch.program = &p;
  launch.kernel = &p.module.functions.front();
  launch.grid = Dim3{2, 1, 1};
  launch.block = Dim3{32, 1, 1};
  launch.memory = &memory;
  launch.per_cta.threads = 32;
  launch.per_cta.warps = 1;
  launch.instruction_budget = 1000;
}

// The small preset and an empty global memory, for the launches below.
class SmCoreOperands : public ::testing::Test {
 protected:
  SmCoreOperands() { memory.global = &dev; }
  const PlatformConfig config = preset("small");
  DeviceMemory dev;
  KernelMemory memory;
};

TEST_F(SmCoreOperands, TheSmsOfALaunchShareOneTable) {
  const Program first = program("add.s32 %r1, %r2, %r3;");
  KernelLaunch launch;
  prepare(launch, first, memory, config.warp_size);
  SmCore a(0, config), b(1, config);
  a.start_cta(launch, Dim3{0, 0, 0}, 0, 0);
  ASSERT_NE(launch.operands, nullptr);
  EXPECT_EQ(launch.operands_program, &first);
  const OperandTable* table = launch.operands.get();
  EXPECT_EQ(table->size(), first.module.code.size());
  b.start_cta(launch, Dim3{1, 0, 0}, 1, 0);
  EXPECT_EQ(launch.operands.get(), table);  // reused, not rebuilt
  EXPECT_EQ(launch.operands.use_count(), 3);

  // The GPU reuses its KernelLaunch: a launch of another program gets its own table.
  const Program second = program("add.s32 %r1, %r2, %r3;\nmov.u32 %r0, 1;");
  prepare(launch, second, memory, config.warp_size);
  SmCore c(2, config);
  c.start_cta(launch, Dim3{0, 0, 0}, 0, 0);
  EXPECT_EQ(launch.operands_program, &second);
  EXPECT_EQ(launch.operands->size(), second.module.code.size());
  EXPECT_NE(launch.operands->size(), table->size());
}

// A KernelLaunch filled by hand without its register layouts is a clear
// error, not an out-of-range read at the first operand.
TEST_F(SmCoreOperands, ALaunchWithoutRegisterLayoutsIsAnError) {
  const Program p = program("add.s32 %r1, %r2, %r3;");
  KernelLaunch launch;
  prepare(launch, p, memory, config.warp_size);
  launch.layouts = RegisterLayouts{};
  SmCore sm(0, config);
  try {
    sm.start_cta(launch, Dim3{0, 0, 0}, 0, 0);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("register layouts are for warp size 0"), std::string::npos)
        << e.what();
  }
  launch.layouts = RegisterLayouts(program("mov.u32 %r0, 1;").module, config.warp_size);
  launch.layouts.functions.push_back({});  // two functions, the program has one
  try {
    sm.start_cta(launch, Dim3{0, 0, 0}, 0, 0);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("cover 2 functions"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace warptlm
