// Scoreboard stalls seen end to end: one warp, one scheduler. A chain where
// each instruction reads the previous result issues once per SP latency and
// spends the cycles in between in the scoreboard bin; the same number of
// instructions reading an old value issues back to back.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "behaviour_support.h"
#include "common/systemc_child.h"

namespace warptlm::behaviour {
namespace {

using testing::in_child_process;

// mov r0; six adds, each reading the previous add's result; exit.
const char* const kDependent = R"(
.visible .entry dependent()
{
  .reg .b32 %r<7>;
  mov.u32 %r0, 7;
  add.u32 %r1, %r0, 1;
  add.u32 %r2, %r1, 1;
  add.u32 %r3, %r2, 1;
  add.u32 %r4, %r3, 1;
  add.u32 %r5, %r4, 1;
  add.u32 %r6, %r5, 1;
  exit;
}
)";

// mov r0; six adds that all read r0 only; exit.
const char* const kIndependent = R"(
.visible .entry independent()
{
  .reg .b32 %r<7>;
  mov.u32 %r0, 7;
  add.u32 %r1, %r0, 1;
  add.u32 %r2, %r0, 2;
  add.u32 %r3, %r0, 3;
  add.u32 %r4, %r0, 4;
  add.u32 %r5, %r0, 5;
  add.u32 %r6, %r0, 6;
  exit;
}
)";

class Scoreboard : public ::testing::TestWithParam<unsigned> {};

TEST_P(Scoreboard, ADependentChainIssuesOncePerLatency) {
  const unsigned L = GetParam();
  in_child_process([&] {
    PlatformConfig c = quiet_config();
    c.sm.sp.latency = L;
    Result r = run(kDependent, "dependent", launch_of(1, 32), c);
    // Instruction k (k = 0 the mov) issues at k*L, when instruction k-1 writes
    // back; exit reads nothing and follows the last add (6L) at 6L + 1.
    std::vector<uint64_t> expected;
    for (uint64_t k = 0; k <= 6; ++k) expected.push_back(k * L);
    expected.push_back(6 * L + 1);
    EXPECT_EQ(relative_issue_cycles(r, 0), expected);
    // Between two adds L - 1 cycles wait on the scoreboard: 6 (L - 1).
    EXPECT_EQ(stat(r, "sm.slot_scoreboard"), 6u * (L - 1));
    EXPECT_EQ(stat(r, "sm.slot_issued"), 8u);
    // The SM holds the CTA from its arrival: the fetch miss (kFetchMiss
    // cycles), issue from 0 to the last add's writeback at 7L, that cycle
    // included (the warp finishes and the CTA retires at its end).
    EXPECT_EQ(stat(r, "sm.cycles"), kFetchMiss + 7u * L + 1);
    // The rest is idle: the fetch miss and exit + 1 .. 7L.
    EXPECT_EQ(stat(r, "sm.slot_idle"), kFetchMiss + L - 1);
  });
}

TEST_P(Scoreboard, AnIndependentChainDoesNotStall) {
  const unsigned L = GetParam();
  in_child_process([&] {
    PlatformConfig c = quiet_config();
    c.sm.sp.latency = L;
    Result r = run(kIndependent, "independent", launch_of(1, 32), c);
    // Only the first add waits for r0 (L - 1 cycles); the others read the
    // same, already written r0 and follow at once: L, L+1, ..., L+5, exit L+6.
    std::vector<uint64_t> expected = {0};
    for (uint64_t k = 0; k <= 6; ++k) expected.push_back(L + k);
    EXPECT_EQ(relative_issue_cycles(r, 0), expected);
    EXPECT_EQ(stat(r, "sm.slot_scoreboard"), L - 1);
    // The last add (L + 5) writes back at 2L + 5.
    EXPECT_EQ(stat(r, "sm.cycles"), kFetchMiss + 2u * L + 6);
    EXPECT_EQ(stat(r, "sm.register_bank_conflicts"), 0u);
  });
}

INSTANTIATE_TEST_SUITE_P(SpLatency, Scoreboard, ::testing::Values(4u, 9u),
                         [](const ::testing::TestParamInfo<unsigned>& info) {
                           return "latency" + std::to_string(info.param);
                         });

}  // namespace
}  // namespace warptlm::behaviour
