// The warp schedulers seen end to end: one SM, one scheduler, four warps of
// one CTA. The trace's warp sequence is exactly what each policy says.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "behaviour_support.h"
#include "common/systemc_child.h"

namespace warptlm::behaviour {
namespace {

using testing::in_child_process;

// Four independent moves (no register reads, distinct destinations) and an
// exit: nothing ever stalls, so one instruction issues every cycle and only
// the policy decides which warp's.
const char* const kAlu = R"(
.visible .entry alu()
{
  .reg .b32 %r<4>;
  mov.u32 %r0, 1;
  mov.u32 %r1, 2;
  mov.u32 %r2, 3;
  mov.u32 %r3, 4;
  exit;
}
)";

Result run_alu(const std::string& scheduler, unsigned active_set = 8) {
  PlatformConfig c = quiet_config();
  c.scheduler = scheduler;
  c.sm.two_level_active = active_set;
  return run(kAlu, "alu", launch_of(1, 128), c);
}

TEST(IssueOrder, LooseRoundRobinRotatesEveryCycle) {
  in_child_process([] {
    Result r = run_alu("lrr");
    // After the shared fetch miss every warp is ready; lrr starts at slot 0
    // and moves one past the last issuer each cycle: 0 1 2 3 0 1 2 3 ...
    std::vector<uint32_t> expected;
    for (int i = 0; i < 5; ++i) expected.insert(expected.end(), {0, 1, 2, 3});
    EXPECT_EQ(warp_sequence(r), expected);
    // One issue per cycle: warp w issues at w, w + 4, ..., w + 16.
    for (uint32_t w = 0; w < 4; ++w)
      EXPECT_EQ(relative_issue_cycles(r, w),
                (std::vector<uint64_t>{w, w + 4, w + 8, w + 12, w + 16}));
    EXPECT_EQ(stat(r, "sm.slot_issued"), 20u);
  });
}

TEST(IssueOrder, GreedyThenOldestRunsOneWarpToTheEnd) {
  in_child_process([] {
    Result r = run_alu("gto");
    // The greedy warp (0, the oldest) keeps issuing until it exits; then the
    // oldest remaining warp becomes greedy: 0x5 1x5 2x5 3x5.
    std::vector<uint32_t> expected;
    for (uint32_t w = 0; w < 4; ++w) expected.insert(expected.end(), 5, w);
    EXPECT_EQ(warp_sequence(r), expected);
    EXPECT_EQ(relative_issue_cycles(r, 2), (std::vector<uint64_t>{10, 11, 12, 13, 14}));
  });
}

TEST(IssueOrder, TwoLevelIssuesOnlyFromTheActiveSet) {
  in_child_process([] {
    Result r = run_alu("two_level", 2);
    // Active set {0, 1}, pending [2, 3]. Warps 0 and 1 alternate at cycles
    // 0..9 (warp 0 even, warp 1 odd). Warp 0's last move (cycle 6) writes
    // back at 6 + 4 = 10: at the end of cycle 10 it finishes and warp 2
    // takes its place; nothing issues at 10 (both active warps have exited).
    // Warp 1's last move (7) writes back at 11: warp 2 issues at 11, warp 1
    // finishes, warp 3 comes in and issues at 12; then they alternate.
    EXPECT_EQ(relative_issue_cycles(r, 0), (std::vector<uint64_t>{0, 2, 4, 6, 8}));
    EXPECT_EQ(relative_issue_cycles(r, 1), (std::vector<uint64_t>{1, 3, 5, 7, 9}));
    EXPECT_EQ(relative_issue_cycles(r, 2), (std::vector<uint64_t>{11, 13, 15, 17, 19}));
    EXPECT_EQ(relative_issue_cycles(r, 3), (std::vector<uint64_t>{12, 14, 16, 18, 20}));
  });
}

// A move and an add that reads it (4 cycles later at SP latency 4), then exit.
const char* const kStall = R"(
.visible .entry stall()
{
  .reg .b32 %r<2>;
  mov.u32 %r0, 1;
  add.u32 %r1, %r0, 1;
  exit;
}
)";

TEST(IssueOrder, GreedyThenOldestFallsBackToTheOldestReadyWarp) {
  in_child_process([] {
    PlatformConfig c = quiet_config();
    c.scheduler = "gto";
    Result r = run(kStall, "stall", launch_of(1, 128), c);
    // Cycle 0: warp 0 moves; 1: its add waits (r0 at 4), the oldest other
    // warp, 1, moves and becomes greedy; 2: warp 2, 3: warp 3 likewise.
    // 4: warp 0's r0 is written, greedy 3 waits, the oldest (0) adds and is
    // greedy again: it exits at 5. 6-7: warp 1 adds (r0 at 5) and exits;
    // 8-9 warp 2; 10-11 warp 3.
    EXPECT_EQ(warp_sequence(r), (std::vector<uint32_t>{0, 1, 2, 3, 0, 0, 1, 1, 2, 2, 3, 3}));
    EXPECT_EQ(r.trace.back().step - r.trace.front().step, 11u);
  });
}

TEST(IssueOrder, LooseRoundRobinInterleavesTheSameKernel) {
  in_child_process([] {
    PlatformConfig c = quiet_config();
    c.scheduler = "lrr";
    Result r = run(kStall, "stall", launch_of(1, 128), c);
    // Moves at 0..3; at 4 the rotation is back at warp 0, whose r0 is just
    // written: adds at 4..7, exits at 8..11.
    EXPECT_EQ(warp_sequence(r), (std::vector<uint32_t>{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}));
    EXPECT_EQ(r.trace.back().step - r.trace.front().step, 11u);
  });
}

// A global load every warp makes (all lanes one word of a module global),
// an add that needs it, exit.
const char* const kLoad = R"(
.global .align 4 .u32 g[32];

.visible .entry load()
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<1>;
  mov.u64 %rd0, g;
  ld.global.u32 %r0, [%rd0];
  add.u32 %r1, %r0, 1;
  exit;
}
)";

TEST(IssueOrder, TwoLevelDemotesAWarpThatWaitsOnGlobalMemory) {
  in_child_process([] {
    PlatformConfig c = quiet_config();
    c.scheduler = "two_level";
    c.sm.two_level_active = 2;
    Result r = run(kLoad, "load", launch_of(1, 128), c);
    // Active {0, 1}: moves at 0, 1; loads at 4, 5 (rd0 at 4, 5). Each load
    // sends its warp to the back of the pending FIFO: after warp 0's load
    // active {1, 2}, after warp 1's {2, 3}. Warps 2 and 3 move at 6, 7 and
    // load at 10, 11, which brings 0 and 1 back. The four loads share one
    // line (one miss, three merges) and write back together at cycle R:
    // 0 and 1 add at R, R+1 and exit at R+2, R+3 while 2 and 3, ready too,
    // wait in the FIFO. Warp 0 finishes when its add writes back (R+4) and
    // warp 2 takes its place: add at R+5; warp 1 finishes at R+5, warp 3
    // adds at R+6; exits at R+7, R+8.
    EXPECT_EQ(warp_sequence(r),
              (std::vector<uint32_t>{0, 1, 0, 1, 2, 3, 2, 3, 0, 1, 0, 1, 2, 3, 2, 3}));
    ASSERT_EQ(r.trace.size(), 16u);
    const uint64_t t0 = r.trace[0].step;
    std::vector<uint64_t> before;
    for (size_t i = 0; i < 8; ++i) before.push_back(r.trace[i].step - t0);
    EXPECT_EQ(before, (std::vector<uint64_t>{0, 1, 4, 5, 6, 7, 10, 11}));
    const uint64_t R = r.trace[8].step;
    std::vector<uint64_t> after;
    for (size_t i = 8; i < 16; ++i) after.push_back(r.trace[i].step - R);
    EXPECT_EQ(after, (std::vector<uint64_t>{0, 1, 2, 3, 5, 6, 7, 8}));
    EXPECT_EQ(stat(r, "sm.l1_misses"), 4u);
    EXPECT_EQ(stat(r, "sm.l1_mshr_merges"), 3u);
  });
}

// Four warps of one CTA meet at a barrier with room for two in the active set.
const char* const kBarrier = R"(
.visible .entry meet()
{
  .reg .b32 %r<2>;
  mov.u32 %r0, 1;
  bar.sync 0;
  mov.u32 %r1, 2;
  exit;
}
)";

// Warps 0 and 1 wait at the barrier for warps 2 and 3, which are pending: a
// waiting warp leaves the active set as at a long-latency stall, or the
// barrier would never complete (the deadlock the sensitivity study found on
// sobel and convsep under two_level).
TEST(IssueOrder, TwoLevelDemotesAWarpWaitingAtABarrier) {
  in_child_process([] {
    PlatformConfig c = quiet_config();
    c.scheduler = "two_level";
    c.sm.two_level_active = 2;
    Result r = run(kBarrier, "meet", launch_of(1, 128), c);
    const std::vector<uint32_t> seq = warp_sequence(r);
    // 0 and 1 move and arrive; 2 and 3 come in, move and arrive (3 releases).
    EXPECT_EQ(std::vector<uint32_t>(seq.begin(), seq.begin() + 8),
              (std::vector<uint32_t>{0, 1, 0, 1, 2, 3, 2, 3}));
    EXPECT_EQ(seq.size(), 16u);
    for (uint32_t w = 0; w < 4; ++w) EXPECT_EQ(std::count(seq.begin(), seq.end(), w), 4) << w;
  });
}

// Three warps wait at barrier 0 and the fourth at barrier 1: neither can
// complete. Under two_level the waiting warps take turns in the active set,
// and once every warp has had one the SM reports the deadlock (not a hang).
const char* const kTwoBarriers = R"(
.visible .entry stuck()
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  mov.u32 %r0, %tid.x;
  setp.lt.u32 %p0, %r0, 96;
  @%p0 bra FIRST;
  bar.sync 1;
  exit;
FIRST:
  bar.sync 0;
  exit;
}
)";

TEST(IssueOrder, TwoLevelStillReportsABarrierDeadlock) {
  in_child_process([] {
    PlatformConfig c = quiet_config();
    c.scheduler = "two_level";
    c.sm.two_level_active = 2;
    try {
      run(kTwoBarriers, "stuck", launch_of(1, 128), c);
      ADD_FAILURE() << "no fault";
    } catch (const KernelFault& f) {
      EXPECT_NE(std::string(f.what()).find("barrier deadlock"), std::string::npos) << f.what();
    }
  });
}

TEST(IssueOrder, LooseRoundRobinKeepsEveryWarpInTheRotation) {
  in_child_process([] {
    PlatformConfig c = quiet_config();
    c.scheduler = "lrr";
    Result r = run(kLoad, "load", launch_of(1, 128), c);
    // Moves at 0..3, loads at 4..7 (each rd0 written 4 after its move),
    // then, all loads answered together, adds and exits in slot order.
    EXPECT_EQ(warp_sequence(r),
              (std::vector<uint32_t>{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}));
    std::vector<uint64_t> before;
    for (size_t i = 0; i < 8; ++i) before.push_back(r.trace[i].step - r.trace[0].step);
    EXPECT_EQ(before, (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  });
}

}  // namespace
}  // namespace warptlm::behaviour
