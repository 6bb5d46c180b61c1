// breadth_first (Collange & Brunie Sec. 2.3) on hand-made control events: the
// paper's traversal example, the queue's rotation after each basic block,
// joins at the IPDOM and early merges, non-preemptible calls, exits, spin
// locks and random structured programs.
#include <gtest/gtest.h>

#include <stdexcept>

#include "simt/breadth_first_queue.h"
#include "test_traversal_programs.h"

namespace warptlm {
namespace {

using namespace traversal_test;

Path head(const ReconvergenceUnit& s) {
  std::vector<Path> p;
  s.issuable(p);
  EXPECT_EQ(p.size(), 1u);
  return p.empty() ? Path{} : p[0];
}

TEST(BreadthFirst, CollangeIfAandBTraversalOrder) {
  // By hand: A diverges (join at E): the queue is B(1101), D(0010), the
  // fall-through first. B runs and diverges with the same IPDOM, so its
  // halves stay in that join: C(0001) goes to the back, D(1100) meets the
  // queued D(0010) (same pc, same join) and merges into D(1110). D runs and
  // parks at E; C runs and parks at E; the join is complete: E(1111).
  BreadthFirstQueue s(4);
  s.reset(0x00, 0b1111);
  Trace t = run(s, collange_and);
  EXPECT_TRUE(s.finished());
  EXPECT_EQ(collange_blocks(t),
            (std::vector<std::string>{"A:1111", "B:1101", "D:1110", "C:0001", "E:1111"}));
  EXPECT_EQ(s.early_merges(), 1u);
  EXPECT_EQ(s.ipdom_merges(), 1u);
  EXPECT_EQ(s.max_joins(), 1u);
  EXPECT_EQ(s.max_depth(), 2u);
}

TEST(BreadthFirst, ThePathGoesToTheBackAfterEachBranchAndParksAtItsIpdom) {
  BreadthFirstQueue s(8);
  s.reset(0x00, 0xff);
  s.advance(head(s).split, branch(0xff, 0x0f, 0x00, 0x100, 0x200));
  EXPECT_EQ(head(s).pc, 0x08u);  // fall-through enqueued first
  EXPECT_EQ(head(s).mask, 0xf0u);
  s.advance(head(s).split, plain(0xf0, 0x08));  // not a branch: keeps running
  EXPECT_EQ(head(s).pc, 0x10u);
  s.advance(head(s).split, branch(0xf0, 0xf0, 0x10, 0x08, 0x18));  // loop back: yields
  EXPECT_EQ(head(s).pc, 0x100u);
  EXPECT_EQ(head(s).mask, 0x0fu);
  s.advance(head(s).split, branch(0x0f, 0x0f, 0x100, 0x100, 0x108));  // spins: yields
  EXPECT_EQ(head(s).pc, 0x08u);
  EXPECT_EQ(head(s).mask, 0xf0u);
  s.advance(head(s).split, branch(0xf0, 0xf0, 0x08, 0x200, 0x200));  // parks at 0x200
  EXPECT_EQ(head(s).pc, 0x100u);
  EXPECT_EQ(s.queue().size(), 1u);
  EXPECT_EQ(s.joins()[0].arrived, 0xf0u);
  s.advance(head(s).split, plain(0x0f, 0x1f8));  // falls into 0x200: the join completes
  EXPECT_EQ(head(s).pc, 0x200u);
  EXPECT_EQ(head(s).mask, 0xffu);
  EXPECT_EQ(s.ipdom_merges(), 1u);
  EXPECT_EQ(s.max_joins(), 1u);
}

TEST(BreadthFirst, NestedJoinsResolveInnermostFirst) {
  BreadthFirstQueue s(8);
  s.reset(0x00, 0xff);
  s.advance(head(s).split, branch(0xff, 0x0f, 0x00, 0x100, 0x200));  // join 0x200
  s.advance(head(s).split, branch(0xf0, 0x30, 0x08, 0x40, 0x80));    // join 0x80 inside
  EXPECT_EQ(s.queue().size(), 3u);  // 0x100(0x0f), 0x10(0xc0), 0x40(0x30)
  EXPECT_EQ(head(s).pc, 0x100u);
  s.advance(head(s).split, branch(0x0f, 0x0f, 0x100, 0x200, 0x200));  // parks at 0x200
  s.advance(head(s).split, branch(0xc0, 0xc0, 0x10, 0x80, 0x80));     // parks at 0x80
  s.advance(head(s).split, branch(0x30, 0x30, 0x40, 0x80, 0x80));     // completes 0x80
  EXPECT_EQ(head(s).pc, 0x80u);
  EXPECT_EQ(head(s).mask, 0xf0u);
  s.advance(head(s).split, branch(0xf0, 0xf0, 0x80, 0x200, 0x200));  // completes 0x200
  EXPECT_EQ(head(s).pc, 0x200u);
  EXPECT_EQ(head(s).mask, 0xffu);
  EXPECT_EQ(s.max_joins(), 2u);
  EXPECT_EQ(s.ipdom_merges(), 2u);
}

TEST(BreadthFirst, CallsAreNotPreemptedByPathsOutsideTheCall) {
  BreadthFirstQueue s(8);
  s.reset(0x00, 0xff);
  s.advance(head(s).split, branch(0xff, 0x0f, 0x00, 0x100, 0x200));
  ControlEvent call = plain(0xf0, 0x08, Control::Call);
  call.target = 0x400;
  EXPECT_EQ(s.advance(head(s).split, call), 0u);
  EXPECT_EQ(s.call_levels(), 2u);
  EXPECT_EQ(head(s).pc, 0x400u);
  s.advance(head(s).split, branch(0xf0, 0x30, 0x400, 0x420, kExitPc));
  EXPECT_EQ(head(s).pc, 0x408u);
  s.advance(head(s).split, branch(0xc0, 0xc0, 0x408, 0x410, 0x418));
  EXPECT_EQ(head(s).pc, 0x420u);  // the callee's other path, not 0x100 outside
  EXPECT_EQ(s.advance(head(s).split, plain(0x30, 0x420, Control::Ret)), 0u);
  EXPECT_EQ(head(s).pc, 0x410u);
  EXPECT_EQ(s.advance(head(s).split, plain(0xc0, 0x410, Control::Ret)), 1u);
  EXPECT_EQ(s.call_levels(), 1u);
  EXPECT_EQ(head(s).pc, 0x10u);  // the caller, after the call, with all its lanes
  EXPECT_EQ(head(s).mask, 0xf0u);
}

TEST(BreadthFirst, ExitsCompleteJoinsAndFinishTheWarp) {
  BreadthFirstQueue s(8);
  s.reset(0x00, 0xff);
  s.advance(head(s).split, branch(0xff, 0x0f, 0x00, 0x100, 0x200));
  s.advance(head(s).split, branch(0xf0, 0xf0, 0x08, 0x200, 0x200));  // parks
  EXPECT_EQ(s.advance(head(s).split, plain(0x0f, 0x100, Control::Exit, 0x03)), 0u);
  EXPECT_EQ(head(s).mask, 0x0cu);  // guarded exit: the others go on
  EXPECT_EQ(s.advance(head(s).split, plain(0x0c, 0x108, Control::Exit)), 0u);
  EXPECT_EQ(head(s).pc, 0x200u);  // the join completes without the exited lanes
  EXPECT_EQ(head(s).mask, 0xf0u);
  s.advance(head(s).split, plain(0xf0, 0x200, Control::Exit));
  EXPECT_TRUE(s.finished());
}

TEST(BreadthFirst, AdvancingAnotherPathThanTheHeadIsAnError) {
  BreadthFirstQueue s(8);
  s.reset(0x00, 0xff);
  EXPECT_THROW(s.advance(head(s).split + 1, plain(0xff, 0x00)), std::logic_error);
}

TEST(BreadthFirst, RandomStructuredProgramsRunEveryLaneFaithfully) {
  for (unsigned width : {4u, 8u, 32u, 64u}) {
    for (uint64_t seed = 0; seed < 150; ++seed) {
      BreadthFirstQueue s(width);
      RandomProgram program(seed, width);
      ASSERT_TRUE(runs_each_lane_faithfully(s, program, width)) << width << " seed " << seed;
      ASSERT_LE(s.max_depth(), width);
    }
  }
}

TEST(BreadthFirst, SpinLockCompletesInTheSafeFormAndLivelocksInTheNaiveOne) {
  SpinLock safe;
  safe.naive = false;
  BreadthFirstQueue s(8);
  s.reset(0x00, 0xff);
  run(s, std::ref(safe));
  EXPECT_TRUE(s.finished());
  EXPECT_EQ(safe.done, 0xffu);
  EXPECT_TRUE(safe.exclusive);
  // Naive: fairness alone does not help; the winner parks at the loop exit,
  // the spin branch's IPDOM, before its critical section, and waits for the
  // losers, which spin on the lock it holds ("safe" reconvergence points are
  // still needed, Sec. 2.3).
  SpinLock naive;
  s.reset(0x00, 0xff);
  run(s, std::ref(naive), 20000);
  EXPECT_FALSE(s.finished());
  EXPECT_EQ(naive.done, 0u);
}

}  // namespace
}  // namespace warptlm
