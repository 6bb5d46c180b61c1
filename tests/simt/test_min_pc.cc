// Per-thread PC arbitration (max call depth, then min PC) on hand-made control
// events: the traversal of Collange & Brunie's `if (A && B) C; else D; E;`,
// the direction of divergent branches, exits, device-function calls with
// per-thread return PCs, and the spin lock it cannot finish.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "control_events.h"
#include "simt/min_pc_arbiter.h"

namespace warptlm {
namespace {
using warptlm::testing::call;
using warptlm::testing::plain;

// The scheme never looks at the reconvergence pc.
ControlEvent branch(LaneMask active, LaneMask taken, Pc pc, Pc target) {
  return warptlm::testing::branch(active, taken, pc, target, 0xdead);
}

Path selected(const MinPcArbiter& s) {
  std::vector<Path> p;
  s.issuable(p);
  EXPECT_EQ(p.size(), 1u);
  return p.empty() ? Path{} : p[0];
}

using Trace = std::vector<std::pair<Pc, LaneMask>>;

Trace run(MinPcArbiter& s, const std::function<ControlEvent(Pc, LaneMask)>& program,
          size_t max_steps = 1000) {
  Trace t;
  while (!s.finished() && t.size() < max_steps) {
    Path p = selected(s);
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

TEST(MinPc, CollangeAndTraversalRunsDOnceForBothGroups) {
  // By hand, the minimal PC each time: after A, thread 1 waits at D (0x30)
  // and B (0x10) is lower; after B, threads 2,3 join thread 1 at D and C
  // (0x20) is lower; C jumps to E (0x40), so D (1110) is the minimum; D falls
  // into E where thread 0 waits: all four together.
  MinPcArbiter s(4);
  s.reset(0x00, 0b1111);
  Trace want = {{0x00, 0b1111}, {0x08, 0b1111}, {0x10, 0b1101}, {0x18, 0b1101}, {0x20, 0b0001},
                {0x28, 0b0001}, {0x30, 0b1110}, {0x38, 0b1110}, {0x40, 0b1111}, {0x48, 0b1111}};
  EXPECT_EQ(run(s, collange), want);
  EXPECT_TRUE(s.finished());
  EXPECT_EQ(s.max_depth(), 2u);  // never more than two distinct PCs
}

TEST(MinPc, PerThreadPcsAfterDivergence) {
  MinPcArbiter s(4);
  s.reset(0x00, 0b1111);
  s.advance(0, branch(0b1111, 0b0010, 0x00, 0x30));
  EXPECT_EQ(s.pc_of(0), 0x08u);
  EXPECT_EQ(s.pc_of(1), 0x30u);
  EXPECT_EQ(s.pc_of(3), 0x08u);
  EXPECT_EQ(selected(s).mask, 0b1101u);
}

TEST(MinPc, ForwardBranchRunsFallThroughBackwardRunsTarget) {
  MinPcArbiter s(8);
  s.reset(0x40, 0xff);
  s.advance(0, branch(0xff, 0x0f, 0x40, 0x80));
  EXPECT_EQ(selected(s).pc, 0x48u);
  EXPECT_EQ(selected(s).mask, 0xf0u);
  s.advance(0, branch(0xf0, 0x30, 0x48, 0x10));
  EXPECT_EQ(selected(s).pc, 0x10u);
  EXPECT_EQ(selected(s).mask, 0x30u);
  EXPECT_EQ(s.max_depth(), 3u);  // 0x10, 0x50, 0x80
}

TEST(MinPc, UniformCodeStaysConverged) {
  MinPcArbiter s(32);
  s.reset(0x00, 0xffffffff);
  s.advance(0, plain(0xffffffff, 0x00));
  s.advance(0, branch(0xffffffff, 0xffffffff, 0x08, 0x40));
  s.advance(0, branch(0xffffffff, 0, 0x40, 0x100));
  EXPECT_EQ(selected(s).pc, 0x48u);
  EXPECT_EQ(selected(s).mask, 0xffffffffu);
  EXPECT_EQ(s.pc_of(17), 0x48u);
  EXPECT_EQ(s.max_depth(), 1u);
}

TEST(MinPc, ExitRemovesLanesAndFinishes) {
  MinPcArbiter s(4);
  s.reset(0x00, 0b1111);
  EXPECT_EQ(s.advance(0, plain(0b1111, 0x00, Control::Exit, 0b0101)), 0u);
  EXPECT_EQ(selected(s).pc, 0x08u);
  EXPECT_EQ(selected(s).mask, 0b1010u);
  s.advance(0, branch(0b1010, 0b0010, 0x08, 0x20));
  s.advance(0, plain(0b1000, 0x10, Control::Exit));
  EXPECT_EQ(selected(s).pc, 0x20u);
  EXPECT_EQ(selected(s).mask, 0b0010u);
  s.advance(0, plain(0b0010, 0x20, Control::Exit));
  EXPECT_TRUE(s.finished());
}

TEST(MinPc, DeeperCallLevelFirstAndEachThreadReturnsToItsOwnPc) {
  MinPcArbiter s(4);
  s.reset(0x00, 0b1111);
  s.advance(0, branch(0b1111, 0b0011, 0x00, 0x40));  // 0x08 (1100) runs, 0x40 (0011) waits
  EXPECT_EQ(s.advance(0, call(0b1100, 0x08, 0x200)), 0u);
  EXPECT_EQ(selected(s).pc, 0x200u);  // deeper, though its PC is higher
  EXPECT_EQ(s.depth_of(2), 1u);
  s.advance(0, branch(0b1100, 0b0100, 0x200, 0x220));
  EXPECT_EQ(s.advance(0, plain(0b1000, 0x208, Control::Ret)), 0u);
  EXPECT_EQ(s.pc_of(3), 0x10u);  // lane 3 back after its call
  EXPECT_EQ(s.depth_of(3), 0u);
  EXPECT_EQ(selected(s).pc, 0x220u);  // lane 2 still inside: deeper first
  EXPECT_EQ(s.advance(0, plain(0b0100, 0x220, Control::Ret)), 1u);
  EXPECT_EQ(selected(s).pc, 0x10u);
  EXPECT_EQ(selected(s).mask, 0b1100u);
  // The other group calls the same function from another site.
  s.advance(0, branch(0b1100, 0b1100, 0x10, 0x80));
  EXPECT_EQ(selected(s).pc, 0x40u);
  s.advance(0, call(0b0011, 0x40, 0x200));
  s.advance(0, plain(0b0011, 0x200, Control::Ret));
  EXPECT_EQ(selected(s).pc, 0x48u);
  EXPECT_EQ(s.max_call_depth(), 1u);
}

TEST(MinPc, ExitInsideNestedCallsCompletesBothFrames) {
  MinPcArbiter s(4);
  s.reset(0x00, 0b1111);
  s.advance(0, call(0b1111, 0x00, 0x100, 0b0110));
  EXPECT_EQ(selected(s).pc, 0x100u);
  EXPECT_EQ(selected(s).mask, 0b0110u);
  s.advance(0, call(0b0110, 0x100, 0x200));
  EXPECT_EQ(s.advance(0, plain(0b0110, 0x200, Control::Exit)), 2u);
  EXPECT_EQ(selected(s).pc, 0x08u);
  EXPECT_EQ(selected(s).mask, 0b1001u);
}

// A loop latch laid out before the body (as clang does): 0x00 bar.sync;
// 0x08 exit; 0x10 @skip bra 0x00; 0x18 work; 0x20 bra 0x00. The skipping
// lanes reach the barrier first, at the lower PC; they wait aside (per-thread
// barriers) while the others do the work, then all go on together.
TEST(MinPc, LanesAtABarrierWaitForTheirWarpMates) {
  MinPcArbiter s(4);
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

TEST(MinPc, LanesAtABarrierGoOnWhenTheOthersExit) {
  MinPcArbiter s(4);
  s.reset(0x00, 0b1111);
  s.advance(0, branch(0b1111, 0b0011, 0x00, 0x40));  // 0x08 (1100) runs, 0x40 (0011) waits
  s.advance(0, plain(0b1100, 0x08, Control::Barrier));
  EXPECT_EQ(selected(s).pc, 0x40u);  // the others run meanwhile
  EXPECT_EQ(selected(s).mask, 0b0011u);
  s.advance(0, plain(0b0011, 0x40, Control::Exit));
  EXPECT_EQ(selected(s).pc, 0x10u);
  EXPECT_EQ(selected(s).mask, 0b1100u);
}

// The naive spin lock: 0x00 cas; 0x08 @lost bra 0x00; 0x10 critical. The
// winner waits at the higher PC while the losers spin at the lower one.
TEST(MinPc, NaiveSpinLockStarvesTheWinner) {
  MinPcArbiter s(4);
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
    return plain(m, pc, Control::Exit);
  };
  Trace t = run(s, program, 1000);
  EXPECT_EQ(t.size(), 1000u);
  for (const auto& [pc, mask] : t) EXPECT_LT(pc, 0x10u);
}

}  // namespace
}  // namespace warptlm
