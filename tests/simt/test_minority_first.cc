// minority_first (Collange & Brunie Sec. 2.2, AMD's fork/join stack) on
// hand-made control events: the paper's traversal example, the minority rule
// and its tie, the log2(warp size) bound on the saved paths, exits, calls,
// spin locks and random structured programs.
#include <gtest/gtest.h>

#include "simt/ipdom_stack.h"
#include "simt/minority_first_stack.h"
#include "test_traversal_programs.h"

namespace warptlm {
namespace {

using namespace traversal_test;

Path top(const ReconvergenceUnit& s) {
  std::vector<Path> p;
  s.issuable(p);
  EXPECT_EQ(p.size(), 1u);
  return p.empty() ? Path{} : p[0];
}

unsigned log2_of(unsigned n) {
  unsigned k = 0;
  while ((1u << (k + 1)) <= n) ++k;
  return k;
}

TEST(MinorityFirst, CollangeIfAandBTraversalOrder) {
  // By hand: A diverges: D has 1 lane (thread 1), B 3: D runs first, B is
  // saved. D reaches E, the IPDOM: pop B. B diverges into C (thread 0) and D
  // (threads 2, 3), same IPDOM as the entry, so they replace it: C, the
  // minority, runs and D is saved. C reaches E: D runs again (no partial
  // reconvergence with the first D), reaches E: all four run E.
  MinorityFirstStack s(4);
  s.reset(0x00, 0b1111);
  Trace t = run(s, collange_and);
  EXPECT_TRUE(s.finished());
  EXPECT_EQ(collange_blocks(t),
            (std::vector<std::string>{"A:1111", "D:0010", "B:1101", "C:0001", "D:1100", "E:1111"}));
  EXPECT_EQ(s.max_depth(), 1u);  // one saved majority path at a time
  // The IPDOM stack (taken first) walks D(1100) before C instead.
  IpdomStack ipdom;
  ipdom.reset(0x00, 0b1111);
  EXPECT_EQ(collange_blocks(run(ipdom, collange_and)),
            (std::vector<std::string>{"A:1111", "D:0010", "B:1101", "D:1100", "C:0001", "E:1111"}));
}

TEST(MinorityFirst, RunsTheSideWithFewerLanesAndTheTakenSideOnATie) {
  EXPECT_TRUE(MinorityFirstStack::run_taken_first(0x01, 0xfe));
  EXPECT_FALSE(MinorityFirstStack::run_taken_first(0xfe, 0x01));
  EXPECT_TRUE(MinorityFirstStack::run_taken_first(0x0f, 0xf0));  // tie: taken
  MinorityFirstStack s(8);
  s.reset(0x00, 0xff);
  s.advance(top(s).split, branch(0xff, 0xfe, 0x00, 0x20, 0x40));  // 7 taken, 1 not
  EXPECT_EQ(top(s).pc, 0x08u);
  EXPECT_EQ(top(s).mask, 0x01u);
  ASSERT_EQ(s.entries().size(), 3u);
  EXPECT_EQ(s.entries()[1].kind, MinorityFirstStack::Kind::Saved);
  EXPECT_EQ(s.entries()[1].pc, 0x20u);
  EXPECT_EQ(s.entries()[1].mask, 0xfeu);
  s.advance(top(s).split, branch(0x01, 0x01, 0x08, 0x40, 0x40));  // to the IPDOM
  EXPECT_EQ(top(s).pc, 0x20u);
  EXPECT_EQ(top(s).mask, 0xfeu);
  s.advance(top(s).split, plain(0xfe, 0x38));  // falls into 0x40
  EXPECT_EQ(top(s).pc, 0x40u);
  EXPECT_EQ(top(s).mask, 0xffu);
  EXPECT_EQ(s.entries().size(), 1u);
}

// A complete if-else tree: every node splits its lanes in two halves, the
// lower half taken. The saved path count reaches exactly log2(width).
class Bisect {
 public:
  explicit Bisect(unsigned width) {
    node(0, width);
    code_.push_back({kExitPc, 0, 0});
  }
  ControlEvent operator()(Pc pc, LaneMask m) const {
    const Ins& in = code_[pc / 8];
    if (in.target == kExitPc) return plain(m, pc, Control::Exit);
    if (in.target == 0) return plain(m, pc);
    return branch(m, m & in.taken, pc, in.target, in.reconv);
  }

 private:
  struct Ins {
    Pc target = 0, reconv = 0;  // target 0: plain; kExitPc: exit
    LaneMask taken = ~LaneMask(0);
  };
  Pc here() const { return code_.size() * 8; }
  void node(unsigned lo, unsigned hi) {
    if (hi - lo == 1) {
      code_.push_back({});
      return;
    }
    unsigned mid = (lo + hi) / 2;
    size_t cond = code_.size();
    code_.push_back({0, 0, ((LaneMask(1) << (mid - lo)) - 1) << lo});
    node(mid, hi);  // fall-through: the upper half
    size_t jump = code_.size();
    code_.push_back({});
    code_[cond].target = here();
    node(lo, mid);  // taken: the lower half
    code_[cond].reconv = here();
    code_[jump].target = code_[jump].reconv = here();
    code_.push_back({});  // the join
  }
  std::vector<Ins> code_;
};

TEST(MinorityFirst, SavedPathsReachButNeverExceedLog2WarpSizeOnABisectionTree) {
  for (unsigned width : {4u, 8u, 32u, 64u}) {
    MinorityFirstStack s(width);
    s.reset(0, width == 64 ? ~LaneMask(0) : (LaneMask(1) << width) - 1);
    run(s, Bisect(width), 1000000);
    EXPECT_TRUE(s.finished()) << width;
    EXPECT_EQ(s.max_depth(), log2_of(width)) << width;
  }
}

// Nested `if (lane != k)` for k = 0..width-2: the taken side is always the
// majority. The IPDOM stack (taken first) saves one lane per level; running
// the minority first saves one path at a time.
ControlEvent peel(unsigned width, Pc pc, LaneMask m) {
  const Pc joins = 0x10 * width;  // E_k at joins + 8 * (width - 2 - k), innermost first
  if (pc < 0x10 * (width - 1)) {
    unsigned k = pc / 0x10;
    Pc end = joins + 8 * (width - 2 - k);
    if (pc % 0x10 == 0) return branch(m, m & ~(LaneMask(1) << k), pc, pc + 0x10, end);
    return branch(m, m, pc, end, end);
  }
  if (pc >= joins + 8 * (width - 1)) return plain(m, pc, Control::Exit);
  if (pc < joins) return branch(m, m, pc, joins, joins);  // the innermost body
  return plain(m, pc);
}

TEST(MinorityFirst, MajorityTakenChainStaysShallowWhereTheIpdomStackGrowsLinearly) {
  const unsigned width = 16;
  auto program = [](Pc pc, LaneMask m) { return peel(width, pc, m); };
  MinorityFirstStack s(width);
  s.reset(0, 0xffff);
  run(s, program);
  EXPECT_TRUE(s.finished());
  EXPECT_EQ(s.max_depth(), 1u);
  EXPECT_LE(s.max_depth(), log2_of(width));
  IpdomStack ipdom;
  ipdom.reset(0, 0xffff);
  run(ipdom, program);
  EXPECT_TRUE(ipdom.finished());
  EXPECT_GE(ipdom.max_depth(), width);  // a saved lane per level, plus the joins
}

TEST(MinorityFirst, RandomStructuredProgramsRunEveryLaneFaithfullyWithinTheBound) {
  for (unsigned width : {4u, 8u, 32u, 64u}) {
    for (uint64_t seed = 0; seed < 150; ++seed) {
      MinorityFirstStack s(width);
      RandomProgram program(seed, width);
      ASSERT_TRUE(runs_each_lane_faithfully(s, program, width)) << width << " seed " << seed;
      ASSERT_LE(s.max_depth(), log2_of(width)) << width << " seed " << seed;
    }
  }
}

TEST(MinorityFirst, ExitRemovesLanesEverywhereAndFinishes) {
  MinorityFirstStack s(4);
  s.reset(0x00, 0x0f);
  s.advance(top(s).split, branch(0x0f, 0x01, 0x00, 0x20, kExitPc));
  EXPECT_EQ(top(s).mask, 0x01u);  // the minority
  EXPECT_EQ(s.advance(top(s).split, plain(0x01, 0x20, Control::Exit)), 0u);
  EXPECT_EQ(top(s).pc, 0x08u);
  EXPECT_EQ(top(s).mask, 0x0eu);
  s.advance(top(s).split, plain(0x0e, 0x08, Control::Exit, 0x02));  // guarded: lane 1 only
  EXPECT_EQ(top(s).mask, 0x0cu);
  s.advance(top(s).split, plain(0x0c, 0x10, Control::Exit));
  EXPECT_TRUE(s.finished());
}

TEST(MinorityFirst, CallWithDivergentReturnCompletesTheFrameOnce) {
  MinorityFirstStack s(4);
  s.reset(0x00, 0x0f);
  ControlEvent call = plain(0x0f, 0x00, Control::Call);
  call.target = 0x100;
  EXPECT_EQ(s.advance(top(s).split, call), 0u);
  EXPECT_EQ(top(s).pc, 0x100u);
  s.advance(top(s).split, branch(0x0f, 0x0e, 0x100, 0x120, kExitPc));
  EXPECT_EQ(top(s).mask, 0x01u);  // the minority, not taken
  EXPECT_EQ(top(s).pc, 0x108u);
  EXPECT_EQ(s.advance(top(s).split, plain(0x01, 0x108, Control::Ret)), 0u);
  EXPECT_EQ(top(s).pc, 0x120u);
  EXPECT_EQ(top(s).mask, 0x0eu);
  EXPECT_EQ(s.advance(top(s).split, plain(0x0e, 0x120, Control::Ret)), 1u);
  EXPECT_EQ(top(s).pc, 0x08u);  // back in the caller after the call
  EXPECT_EQ(top(s).mask, 0x0fu);
  EXPECT_EQ(s.max_depth(), 1u);
}

TEST(MinorityFirst, SpinLockCompletesInTheSafeFormAndLivelocksInTheNaiveOne) {
  SpinLock safe;
  safe.naive = false;
  MinorityFirstStack s(8);
  s.reset(0x00, 0xff);
  run(s, std::ref(safe));
  EXPECT_TRUE(s.finished());
  EXPECT_EQ(safe.done, 0xffu);
  EXPECT_TRUE(safe.exclusive);
  // Naive: the winner reaches the spin loop's exit, its IPDOM, and waits
  // there while the losers spin on the lock it holds.
  SpinLock naive;
  s.reset(0x00, 0xff);
  run(s, std::ref(naive), 20000);
  EXPECT_FALSE(s.finished());
  EXPECT_EQ(naive.done, 0u);
}

}  // namespace
}  // namespace warptlm
