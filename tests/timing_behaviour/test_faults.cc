// Kernel faults in timing mode: an out-of-bounds global access by one thread
// gives the same KernelFault as run_functional, message and site (kernel,
// PC, thread, address) alike, on one SM and on several.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "behaviour_support.h"
#include "common/systemc_child.h"
#include "exec/functional_executor.h"

namespace warptlm::behaviour {
namespace {

using testing::in_child_process;

// Thread `bad` (global index) loads (oob_load) or stores (oob_store) element
// `where` of a 128-element buffer; every other thread its own element.
const char* const kOob = R"(
.visible .entry oob_load(.param .u64 data, .param .u32 bad, .param .u32 where)
{
  .reg .pred %p<1>;
  .reg .b32 %r<9>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd0, [data];
  ld.param.u32 %r0, [bad];
  ld.param.u32 %r8, [where];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  setp.eq.u32 %p0, %r4, %r0;
  selp.u32 %r5, %r8, %r4, %p0;
  mul.wide.u32 %rd1, %r5, 4;
  add.s64 %rd2, %rd0, %rd1;
  ld.global.u32 %r6, [%rd2];
  add.u32 %r7, %r6, 1;
  exit;
}

.visible .entry oob_store(.param .u64 data, .param .u32 bad, .param .u32 where)
{
  .reg .pred %p<1>;
  .reg .b32 %r<9>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd0, [data];
  ld.param.u32 %r0, [bad];
  ld.param.u32 %r8, [where];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  setp.eq.u32 %p0, %r4, %r0;
  selp.u32 %r5, %r8, %r4, %p0;
  mul.wide.u32 %rd1, %r5, 4;
  add.s64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r4;
  exit;
}
)";

LaunchSpec oob_launch(uint32_t bad, uint32_t where) {
  LaunchSpec l = launch_of(2, 64);
  l.buffers = {u32_buffer("data", std::vector<uint32_t>(128, 0))};
  l.args = {KernelArg::buffer_arg(0), KernelArg::scalar(Type::U32, bad),
            KernelArg::scalar(Type::U32, where)};
  return l;
}

enum class Compare { SiteOnly, SiteAndMessage };

// Runs `entry` functionally (here) and timed (in a child) and compares the
// faults. The functional fault must name the bad thread: CTA bad / 64, tid
// bad % 64.
void expect_same_fault(const std::string& entry, uint32_t bad, uint32_t where,
                       const PlatformConfig& config, Compare compare) {
  const Program program = finalize(parse_ptx(kPtxHeader + kOob, "oob.ptx"));
  KernelFault expected("no fault");
  bool faulted = false;
  try {
    LaunchSpec l = oob_launch(bad, where);
    run_functional(program, entry, l, config.exec_config());
  } catch (const KernelFault& f) {
    expected = f;
    faulted = true;
  }
  ASSERT_TRUE(faulted) << "run_functional did not fault";
  ASSERT_TRUE(expected.site.has_thread);
  EXPECT_EQ(expected.site.ctaid.x, bad / 64);
  EXPECT_EQ(expected.site.tid.x, bad % 64);
  ASSERT_TRUE(expected.site.has_address);
  in_child_process([&] {
    try {
      LaunchSpec l = oob_launch(bad, where);
      run_timing(program, entry, l, config);
      ADD_FAILURE() << "run_timing did not fault; run_functional said: " << expected.what();
    } catch (const KernelFault& f) {
      if (compare == Compare::SiteAndMessage) {
        EXPECT_EQ(std::string(f.what()), std::string(expected.what()));
      }
      EXPECT_EQ(f.site.kernel, entry);
      EXPECT_EQ(f.site.pc, expected.site.pc);
      EXPECT_TRUE(f.site.has_thread);
      EXPECT_EQ(f.site.ctaid.x, expected.site.ctaid.x);
      EXPECT_EQ(f.site.tid.x, expected.site.tid.x);
      EXPECT_EQ(f.site.warp, expected.site.warp);
      EXPECT_EQ(f.site.lane, expected.site.lane);
      EXPECT_TRUE(f.site.has_address);
      EXPECT_EQ(f.site.space, Space::Global);
      EXPECT_EQ(f.site.address, expected.site.address);
    }
  });
}

// Element 128 is the first byte past the 512-byte buffer.
constexpr uint32_t kJustPast = 128;
// Element 100000: far past every allocation of the run.
constexpr uint32_t kFarPast = 100000;
// Element 192 = byte 768: past the buffer's 512 bytes rounded to the
// 256-byte allocation alignment plus the 256-byte guard gap, i.e. where the
// next allocation of device memory would start.
constexpr uint32_t kNextAllocation = 192;

TEST(Faults, LoadJustPastTheBufferMatchesTheFunctionalFault) {
  // Thread 77: CTA 1, tid 13 (warp 0 of its CTA, lane 13).
  expect_same_fault("oob_load", 77, kJustPast, quiet_config(), Compare::SiteAndMessage);
}

TEST(Faults, StoreJustPastTheBufferMatchesTheFunctionalFault) {
  expect_same_fault("oob_store", 77, kJustPast, quiet_config(), Compare::SiteAndMessage);
}

TEST(Faults, FaultOnAnotherSmMatchesTheFunctionalFault) {
  // Two SMs: CTA 1 runs on SM 1; thread 100 is CTA 1, tid 36 (warp 1, lane 4).
  expect_same_fault("oob_load", 100, kJustPast, preset("small"), Compare::SiteAndMessage);
}

TEST(Faults, FarOutOfBoundsNamesTheSameSite) {
  expect_same_fault("oob_load", 77, kFarPast, quiet_config(), Compare::SiteOnly);
  expect_same_fault("oob_store", 77, kFarPast, quiet_config(), Compare::SiteOnly);
}

TEST(Faults, FarOutOfBoundsGivesTheFunctionalMessage) {
  expect_same_fault("oob_load", 77, kFarPast, quiet_config(), Compare::SiteAndMessage);
  expect_same_fault("oob_store", 77, kFarPast, quiet_config(), Compare::SiteAndMessage);
}

TEST(Faults, AnAccessWhereTheParametersLiveFaultsToo) {
  expect_same_fault("oob_load", 77, kNextAllocation, quiet_config(), Compare::SiteAndMessage);
  expect_same_fault("oob_store", 77, kNextAllocation, quiet_config(), Compare::SiteAndMessage);
}

// Ten instructions per warp, one warp per CTA.
const char* const kTen = R"(
.visible .entry ten()
{
  .reg .b32 %r<10>;
  mov.u32 %r0, %tid.x;
  add.u32 %r1, %r0, 1;
  add.u32 %r2, %r1, 1;
  add.u32 %r3, %r2, 1;
  add.u32 %r4, %r3, 1;
  add.u32 %r5, %r4, 1;
  add.u32 %r6, %r5, 1;
  add.u32 %r7, %r6, 1;
  add.u32 %r8, %r7, 1;
  exit;
}
)";

// The instruction budget is the launch's: two CTAs on two SMs issue 10 warp
// instructions each, so a budget of 15 ends the run although neither SM
// alone exceeds it (as functional mode, which counts the launch, does); a
// budget of 20 lets it finish.
TEST(Faults, TheInstructionBudgetCountsEverySm) {
  in_child_process([] {
    PlatformConfig c = quiet_config();
    c.num_sms = 2;
    c.instruction_budget = 15;
    try {
      run(kTen, "ten", launch_of(2, 32), c);
      ADD_FAILURE() << "no runaway-kernel fault with a budget of 15 for 20 instructions";
    } catch (const KernelFault& f) {
      EXPECT_NE(std::string(f.what()).find("runaway kernel: more than 15 warp instructions"),
                std::string::npos)
          << f.what();
    }
  });
  in_child_process([] {
    PlatformConfig c = quiet_config();
    c.num_sms = 2;
    c.instruction_budget = 20;
    EXPECT_EQ(stat(run(kTen, "ten", launch_of(2, 32), c), "warp_instructions"), 20u);
  });
}

}  // namespace
}  // namespace warptlm::behaviour
