// Shared-memory bank conflicts seen end to end: one warp loads word
// tid * stride of a shared array. With 32 four-byte banks a stride of s words
// puts gcd(s, 32) distinct words on the busiest bank, so the access takes
// gcd(s, 32) cycles: gcd - 1 conflict cycles on top of sm.shared_latency.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "behaviour_support.h"
#include "common/systemc_child.h"

namespace warptlm::behaviour {
namespace {

using testing::in_child_process;

const char* const kStride = R"(
.visible .entry stride(.param .u32 stride)
{
  .shared .align 4 .b8 buf[4096];
  .reg .b32 %r<8>;
  ld.param.u32 %r0, [stride];
  mov.u32 %r1, %tid.x;
  mul.lo.u32 %r2, %r1, %r0;
  shl.b32 %r3, %r2, 2;
  mov.u32 %r4, buf;
  add.u32 %r5, %r4, %r3;
  ld.shared.u32 %r6, [%r5];
  add.u32 %r7, %r6, 1;
  exit;
}
)";

using StrideParam = std::tuple<unsigned, unsigned>;  // stride in words, cycles of the access

class SharedBanks : public ::testing::TestWithParam<StrideParam> {};

TEST_P(SharedBanks, StrideSetsTheConflicts) {
  const unsigned stride = std::get<0>(GetParam());
  const unsigned g = std::get<1>(GetParam());
  in_child_process([&] {
    PlatformConfig c = quiet_config();
    c.sm.shared_banks = 32;
    c.sm.shared_latency = 24;
    c.memory.l1.latency = 20;  // what a parameter load costs
    LaunchSpec l = launch_of(1, 32);
    l.args = {KernelArg::scalar(Type::U32, stride)};
    Result r = run(kStride, "stride", l, c);
    EXPECT_EQ(stat(r, "sm.shared_accesses"), 1u);
    EXPECT_EQ(stat(r, "sm.shared_bank_conflicts"), g - 1);
    // ld.param at 0 writes back after an L1 hit (20); mov tid at 1; mul at 20
    // (needs r0); shl at 24; mov buf at 25; add at 29 (needs r4, written
    // 25 + 4); ld.shared at 33 writes back at 33 + 24 + (g - 1); the add that
    // reads it issues then, exit the cycle after.
    EXPECT_EQ(relative_issue_cycles(r, 0),
              (std::vector<uint64_t>{0, 1, 20, 24, 25, 29, 33, 56 + g, 57 + g}));
  });
}

// gcd(s, 32): stride 1 -> 1, 2 -> 2, 4 -> 4, 32 -> 32 (every lane in bank 0),
// odd strides -> 1, stride 0 -> 1 (one word, broadcast).
INSTANTIATE_TEST_SUITE_P(Strides, SharedBanks,
                         ::testing::Values(StrideParam{1, 1}, StrideParam{2, 2}, StrideParam{4, 4},
                                           StrideParam{32, 32}, StrideParam{3, 1},
                                           StrideParam{0, 1}),
                         [](const ::testing::TestParamInfo<StrideParam>& info) {
                           return "stride" + std::to_string(std::get<0>(info.param));
                         });

TEST(SharedBanksCount, SixteenBanksDoubleTheUnitStrideCost) {
  in_child_process([] {
    PlatformConfig c = quiet_config();
    c.sm.shared_banks = 16;
    LaunchSpec l = launch_of(1, 32);
    l.args = {KernelArg::scalar(Type::U32, 1)};
    Result r = run(kStride, "stride", l, c);
    // 32 consecutive words on 16 banks: two words per bank, one conflict.
    EXPECT_EQ(stat(r, "sm.shared_bank_conflicts"), 1u);
  });
}

}  // namespace
}  // namespace warptlm::behaviour
