// Simty's sorted path list on hand-made control events: the traversal of
// Collange & Brunie's `if (A && B) C; else D; E;` (Fig. 1), the direction
// rule for divergent branches, the HCT/CCT insert/extract/sort moves, exits,
// device-function calls, and the spin lock it cannot finish.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "control_events.h"
#include "simt/sorted_path_list.h"

namespace warptlm {
namespace {
using warptlm::testing::call;
using warptlm::testing::plain;

// The scheme never looks at the reconvergence pc.
ControlEvent branch(LaneMask active, LaneMask taken, Pc pc, Pc target) {
  return warptlm::testing::branch(active, taken, pc, target, 0xdead);
}

Path head(const SortedPathList& s) {
  std::vector<Path> p;
  s.issuable(p);
  EXPECT_EQ(p.size(), 1u);
  return p.empty() ? Path{} : p[0];
}

// Issues the head, feeding it the event the program gives for (pc, mask).
unsigned step(SortedPathList& s, const std::function<ControlEvent(Pc, LaneMask)>& program) {
  Path p = head(s);
  return s.advance(p.split, program(p.pc, p.mask));
}

using Trace = std::vector<std::pair<Pc, LaneMask>>;

Trace run(SortedPathList& s, const std::function<ControlEvent(Pc, LaneMask)>& program,
          size_t max_steps = 1000) {
  Trace t;
  while (!s.finished() && t.size() < max_steps) {
    Path p = head(s);
    t.push_back({p.pc, p.mask});
    s.advance(p.split, program(p.pc, p.mask));
  }
  return t;
}

// `if (A && B) C; else D; E;` as a compiler lays it out:
//   0x00 A   0x08 @!a bra D   0x10 B   0x18 @!b bra D   0x20 C   0x28 bra E
//   0x30 D   0x38 D           0x40 E   0x48 exit
// Thread 0 runs ABCE, thread 1 ADE, threads 2 and 3 ABDE.
ControlEvent collange(Pc pc, LaneMask m) {
  const LaneMask a = 0b1101, b = 0b0001;
  switch (pc) {
    case 0x08:
      return branch(m, m & ~a, pc, 0x30);
    case 0x18:
      return branch(m, m & ~b, pc, 0x30);
    case 0x28:
      return branch(m, m, pc, 0x40);
    case 0x48:
      return plain(m, pc, Control::Exit);
    default:
      return plain(m, pc);
  }
}

TEST(SortedList, CollangeAndTraversalRunsDOnceForBothGroups) {
  // By hand: A is a forward divergent branch, so B (1101) runs and D (0010)
  // waits in HCT1. B's forward branch gives C (0001) and D (1100); the CCS
  // merges D with HCT1's D: 1110. C jumps forward to E, behind D, so D runs,
  // falls into E and merges with C's E: one path, 1111.
  SortedPathList s(4);
  s.reset(0x00, 0b1111);
  Trace want = {{0x00, 0b1111}, {0x08, 0b1111}, {0x10, 0b1101}, {0x18, 0b1101}, {0x20, 0b0001},
                {0x28, 0b0001}, {0x30, 0b1110}, {0x38, 0b1110}, {0x40, 0b1111}, {0x48, 0b1111}};
  EXPECT_EQ(run(s, collange), want);
  EXPECT_TRUE(s.finished());
  EXPECT_EQ(s.reconvergences(), 2u);  // D at 0x30, E at 0x40
  EXPECT_EQ(s.peak_hct(), 2u);
  EXPECT_EQ(s.peak_cct(), 0u);
  EXPECT_EQ(s.max_depth(), 2u);
}

TEST(SortedList, CollangeAndTablesStepByStep) {
  SortedPathList s(4);
  s.reset(0x00, 0b1111);
  step(s, collange);
  step(s, collange);  // A's branch
  EXPECT_EQ(s.hot(0).pc, 0x10u);
  EXPECT_EQ(s.hot(0).mask, 0b1101u);
  EXPECT_EQ(s.hot(1).pc, 0x30u);
  EXPECT_EQ(s.hot(1).mask, 0b0010u);
  step(s, collange);
  step(s, collange);  // B's branch: C and D, D merged with HCT1
  EXPECT_EQ(s.hot(0).pc, 0x20u);
  EXPECT_EQ(s.hot(0).mask, 0b0001u);
  EXPECT_EQ(s.hot(1).pc, 0x30u);
  EXPECT_EQ(s.hot(1).mask, 0b1110u);
  EXPECT_TRUE(s.cold().empty());
  step(s, collange);
  step(s, collange);  // C's jump to E: D overtakes
  EXPECT_EQ(s.hot(0).pc, 0x30u);
  EXPECT_EQ(s.hot(1).pc, 0x40u);
  EXPECT_EQ(s.hot(1).mask, 0b0001u);
  step(s, collange);
  step(s, collange);  // D reaches E
  EXPECT_EQ(s.hot(0).pc, 0x40u);
  EXPECT_EQ(s.hot(0).mask, 0b1111u);
  EXPECT_EQ(s.hot(1).mask, 0u);
}

TEST(SortedList, ForwardBranchSavesTakenBackwardSavesFallThrough) {
  SortedPathList s(8);
  s.reset(0x40, 0xff);
  s.advance(0, branch(0xff, 0x0f, 0x40, 0x80));  // forward
  EXPECT_EQ(head(s).pc, 0x48u);
  EXPECT_EQ(head(s).mask, 0xf0u);
  EXPECT_EQ(s.hot(1).pc, 0x80u);
  s.advance(0, branch(0xf0, 0x30, 0x48, 0x10));  // backward
  EXPECT_EQ(head(s).pc, 0x10u);
  EXPECT_EQ(head(s).mask, 0x30u);
  EXPECT_EQ(s.hot(1).pc, 0x50u);  // the fall-through, saved
  EXPECT_EQ(s.hot(1).mask, 0xc0u);
  ASSERT_EQ(s.cold().size(), 1u);  // z of the CCS: the old runner-up
  EXPECT_EQ(s.cold()[0].pc, 0x80u);
}

TEST(SortedList, ThreeValidPathsInsertIntoTheCctOneValidExtracts) {
  SortedPathList s(4);
  s.reset(0x00, 0b1111);
  s.advance(0, branch(0b1111, 0b0011, 0x00, 0x40));  // x=0x08 (1100), y=0x40
  s.advance(0, branch(0b1100, 0b0100, 0x08, 0x30));  // a=0x30, b=0x10, c=0x40
  EXPECT_EQ(head(s).pc, 0x10u);
  EXPECT_EQ(s.hot(1).pc, 0x30u);
  ASSERT_EQ(s.cold().size(), 1u);
  EXPECT_EQ(s.cold()[0].pc, 0x40u);
  EXPECT_EQ(s.cct_insertions(), 1u);
  s.advance(0, plain(0b1000, 0x10));
  s.advance(0, plain(0b1000, 0x18));
  s.advance(0, plain(0b1000, 0x20));
  s.advance(0, plain(0b1000, 0x28));  // reaches 0x30: merges, one valid: extract
  EXPECT_EQ(head(s).pc, 0x30u);
  EXPECT_EQ(head(s).mask, 0b1100u);
  EXPECT_EQ(s.hot(1).pc, 0x40u);
  EXPECT_TRUE(s.cold().empty());
  EXPECT_EQ(s.cct_extractions(), 1u);
  s.advance(0, plain(0b1100, 0x30));
  s.advance(0, plain(0b1100, 0x38));
  EXPECT_EQ(head(s).mask, 0b1111u);
  EXPECT_EQ(s.peak_hct(), 2u);
  EXPECT_EQ(s.peak_cct(), 1u);
  EXPECT_EQ(s.max_depth(), 3u);
  EXPECT_EQ(s.cct_capacity(), 2u);
}

TEST(SortedList, RunnerUpThatJumpedPastColdPathsIsSwappedBack) {
  SortedPathList s(4);
  s.reset(0x00, 0b1111);
  s.advance(0, branch(0b1111, 0b0011, 0x00, 0x40));
  s.advance(0, branch(0b1100, 0b0100, 0x08, 0x30));  // HCT 0x10, 0x30; CCT 0x40
  s.advance(0, branch(0b1000, 0b1000, 0x10, 0x50));  // 0x10 jumps to 0x50
  EXPECT_EQ(head(s).pc, 0x30u);
  EXPECT_EQ(s.hot(1).pc, 0x40u);  // not 0x50: the CCT entry moved up
  ASSERT_EQ(s.cold().size(), 1u);
  EXPECT_EQ(s.cold()[0].pc, 0x50u);
}

TEST(SortedList, TwinsInTheCctMergeBeforeEitherIssues) {
  SortedPathList s(8);
  s.reset(0x00, 0xff);
  s.advance(0, branch(0xff, 0x03, 0x00, 0x40));  // 0x08 (fc), 0x40 (03)
  s.advance(0, branch(0xfc, 0x0c, 0x08, 0x60));  // 0x10 (f0), 0x40, CCT 0x60 (0c)
  s.advance(0, branch(0xf0, 0x30, 0x10, 0x60));  // 0x18 (c0), 0x40, CCT 0x60 (30), 0x60 (0c)
  EXPECT_EQ(s.cold().size(), 2u);
  // 0x18 jumps to 0x60 and 0x40 runs there too: all four meet before 0x60 issues.
  s.advance(0, branch(0xc0, 0xc0, 0x18, 0x60));
  EXPECT_EQ(head(s).pc, 0x40u);
  s.advance(0, branch(0x03, 0x03, 0x40, 0x60));
  EXPECT_EQ(head(s).pc, 0x60u);
  EXPECT_EQ(head(s).mask, 0xffu);
  EXPECT_TRUE(s.cold().empty());
  EXPECT_EQ(s.hot(1).mask, 0u);
}

TEST(SortedList, ExitRemovesLanesAndFinishes) {
  SortedPathList s(4);
  s.reset(0x00, 0b1111);
  EXPECT_EQ(s.advance(0, plain(0b1111, 0x00, Control::Exit, 0b0101)), 0u);
  EXPECT_EQ(head(s).pc, 0x08u);
  EXPECT_EQ(head(s).mask, 0b1010u);
  s.advance(0, branch(0b1010, 0b0010, 0x08, 0x20));
  s.advance(0, plain(0b1000, 0x10, Control::Exit));  // the fall-through exits
  EXPECT_EQ(head(s).pc, 0x20u);
  EXPECT_EQ(head(s).mask, 0b0010u);
  s.advance(0, plain(0b0010, 0x20, Control::Exit));
  EXPECT_TRUE(s.finished());
}

TEST(SortedList, DeeperCallLevelRunsFirstAndTheFrameCompletesOnce) {
  SortedPathList s(4);
  s.reset(0x00, 0b1111);
  s.advance(0, branch(0b1111, 0b0011, 0x00, 0x40));  // 0x08 (1100) first, 0x40 waits
  // Lanes 2,3 call a function placed after everything: the callee still
  // runs first, being one call level deeper.
  EXPECT_EQ(s.advance(0, call(0b1100, 0x08, 0x200)), 0u);
  EXPECT_EQ(head(s).pc, 0x200u);
  EXPECT_EQ(s.hot(0).depth, 1u);
  s.advance(0, branch(0b1100, 0b0100, 0x200, 0x220));  // diverges inside the callee
  EXPECT_EQ(head(s).pc, 0x208u);
  EXPECT_EQ(s.advance(0, plain(0b1000, 0x208, Control::Ret)), 0u);  // lane 3 returns
  EXPECT_EQ(head(s).pc, 0x220u);                                    // lane 2 still inside
  EXPECT_EQ(s.advance(0, plain(0b0100, 0x220, Control::Ret)), 1u);  // the frame completes
  EXPECT_EQ(head(s).pc, 0x10u);  // both back after the call, merged
  EXPECT_EQ(head(s).mask, 0b1100u);
  EXPECT_EQ(s.hot(0).depth, 0u);
  EXPECT_EQ(s.hot(1).pc, 0x40u);
}

TEST(SortedList, GuardedCallAndExitInsideNestedCallsCompleteTheirFrames) {
  SortedPathList s(4);
  s.reset(0x00, 0b1111);
  s.advance(0, call(0b1111, 0x00, 0x100, 0b0110));  // lanes 1,2 call; 0,3 go on
  EXPECT_EQ(head(s).pc, 0x100u);
  EXPECT_EQ(head(s).mask, 0b0110u);
  EXPECT_EQ(s.hot(1).pc, 0x08u);
  s.advance(0, call(0b0110, 0x100, 0x200));  // depth 2
  EXPECT_EQ(s.hot(0).depth, 2u);
  EXPECT_EQ(s.advance(0, plain(0b0110, 0x200, Control::Exit)), 2u);  // both frames end
  EXPECT_EQ(head(s).pc, 0x08u);
  EXPECT_EQ(head(s).mask, 0b1001u);
}

// A loop latch laid out before the body (as clang does): 0x00 bar.sync;
// 0x08 exit; 0x10 @skip bra 0x00; 0x18 work; 0x20 bra 0x00. The skipping
// lanes reach the barrier first, at the lower PC; they wait aside (per-thread
// barriers) while the others do the work, then all go on together.
TEST(SortedList, LanesAtABarrierWaitForTheirWarpMates) {
  SortedPathList s(4);
  s.reset(0x10, 0b1111);
  auto program = [](Pc pc, LaneMask m) {
    switch (pc) {
      case 0x00:
        return plain(m, pc, Control::Barrier);
      case 0x08:
        return plain(m, pc, Control::Exit);
      case 0x10:
        return branch(m, m & 0b1100, pc, 0x00);
      case 0x20:
        return branch(m, m, pc, 0x00);
      default:
        return plain(m, pc);
    }
  };
  Trace want = {{0x10, 0b1111}, {0x00, 0b1100}, {0x18, 0b0011},
                {0x20, 0b0011}, {0x00, 0b0011}, {0x08, 0b1111}};
  EXPECT_EQ(run(s, program), want);
  EXPECT_TRUE(s.finished());
}

TEST(SortedList, LanesAtABarrierGoOnWhenTheOthersExit) {
  SortedPathList s(4);
  s.reset(0x00, 0b1111);
  s.advance(0, branch(0b1111, 0b0011, 0x00, 0x40));  // 0x08 (1100) runs, 0x40 (0011) waits
  s.advance(0, plain(0b1100, 0x08, Control::Barrier));
  EXPECT_EQ(head(s).pc, 0x40u);  // the others run meanwhile
  EXPECT_EQ(head(s).mask, 0b0011u);
  s.advance(0, plain(0b0011, 0x40, Control::Exit));
  EXPECT_EQ(head(s).pc, 0x10u);
  EXPECT_EQ(head(s).mask, 0b1100u);
}

// The naive spin lock: 0x00 cas; 0x08 @lost bra 0x00; 0x10 critical. The
// winner waits at the higher PC while the losers spin at the lower one.
TEST(SortedList, NaiveSpinLockStarvesTheWinner) {
  SortedPathList s(4);
  s.reset(0x00, 0b1111);
  bool held = false;
  LaneMask won = 0;
  auto program = [&](Pc pc, LaneMask m) {
    if (pc == 0x00) {
      won = held ? 0 : (m & -m);
      held = true;
      return plain(m, pc);
    }
    if (pc == 0x08) return branch(m, m & ~won, pc, 0x00);
    return plain(m, pc, Control::Exit);  // the critical section releases and leaves
  };
  Trace t = run(s, program, 1000);
  EXPECT_EQ(t.size(), 1000u);
  for (const auto& [pc, mask] : t) EXPECT_LT(pc, 0x10u);
}

}  // namespace
}  // namespace warptlm
