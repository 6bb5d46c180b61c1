// DivergenceJoins: how sorted_list and min_pc judge a merge (reconvergence at
// the IPDOM, early, or not a reconvergence at all), and that its joins are
// recycled.
#include <gtest/gtest.h>

#include "simt/divergence_joins.h"

namespace warptlm {
namespace {

using Merge = DivergenceJoins::Merge;

TEST(DivergenceJoins, NestedSplitsMergeAtTheirOwnIpdomsThenTheOuterOne) {
  // if (lanes 0, 1) { if (lane 0) X; Q1 } else { if (lane 2) Y; Q2 } R:
  // each inner pair meets at its own IPDOM, then the two sides at R, the
  // outer branch's IPDOM (not the inner branches' Q1 or Q2).
  DivergenceJoins j(4);
  ReconvergenceCounters c;
  j.reset(0b1111);
  j.split(0b1111, 0x100, 0);
  j.split(0b0011, 0x40, 0);
  j.split(0b1100, 0x80, 0);
  EXPECT_EQ(j.merge(0b0001, 0b0010, 0x40, 0, c), Merge::AtIpdom);
  EXPECT_EQ(j.merge(0b0100, 0b1000, 0x80, 0, c), Merge::AtIpdom);
  EXPECT_EQ(j.merge(0b0011, 0b1100, 0x100, 0, c), Merge::AtIpdom);
  EXPECT_EQ(c.reconvergences, 3u);
  EXPECT_EQ(c.early_reconvergences, 0u);
}

TEST(DivergenceJoins, SameIpdomBranchesShareAJoinAndMeetingsBeforeItAreEarly) {
  // `if (A && B) C; else D; E;`: A sends lane 1 to D, B (same IPDOM E) lanes
  // 2, 3; they meet at D (early), then D meets C at E.
  DivergenceJoins j(4);
  ReconvergenceCounters c;
  j.reset(0b1111);
  j.split(0b1111, 0x40, 0);
  j.split(0b1101, 0x40, 0);
  EXPECT_EQ(j.merge(0b1100, 0b0010, 0x30, 0, c), Merge::Early);
  EXPECT_EQ(j.merge(0b1110, 0b0001, 0x40, 0, c), Merge::AtIpdom);
  EXPECT_EQ(c.reconvergences, 2u);
  EXPECT_EQ(c.early_reconvergences, 1u);
}

TEST(DivergenceJoins, PathsThatRanThroughTheIpdomApartMergeLate) {
  // The IPDOM 0x40 is a bar.sync: lanes 0, 1 execute it first and wait
  // behind it at 0x48, where lanes 2, 3 join them after executing it too.
  // A reconvergence, but after the IPDOM, not before it.
  DivergenceJoins j(4);
  ReconvergenceCounters c;
  j.reset(0b1111);
  j.split(0b1111, 0x40, 0);
  j.issued(0b0011, 0x30);  // not the IPDOM: no mark
  j.issued(0b0011, 0x40);
  j.issued(0b1100, 0x40);
  EXPECT_EQ(j.merge(0b0011, 0b1100, 0x48, 0, c), Merge::Late);
  EXPECT_EQ(c.reconvergences, 1u);
  EXPECT_EQ(c.early_reconvergences, 0u);
}

TEST(DivergenceJoins, ABranchAfterItsJoinsIpdomOpensANewJoin) {
  // Lanes 0, 1 went through the IPDOM 0x40 and branch again on a branch
  // with the same IPDOM (the next loop iteration): a new divergence, so its
  // halves meeting before 0x40 are early, not late.
  DivergenceJoins j(4);
  ReconvergenceCounters c;
  j.reset(0b1111);
  j.split(0b1111, 0x40, 0);
  j.issued(0b0011, 0x40);
  j.split(0b0011, 0x40, 0);
  EXPECT_EQ(j.merge(0b0001, 0b0010, 0x20, 0, c), Merge::Early);
  EXPECT_EQ(c.early_reconvergences, 1u);
}

TEST(DivergenceJoins, ACallCompletingIsNotAReconvergence) {
  // Lanes 0, 1 call (2, 3 guarded off, waiting at the return address 0x50);
  // in the callee they split at a branch whose sides return separately; they
  // come back one by one and meet the waiting lanes at 0x50.
  DivergenceJoins j(4);
  ReconvergenceCounters c;
  j.reset(0b1111);
  j.call(0b1111, 0x50, 0);
  j.split(0b0011, kExitPc, 1);
  j.ret(0b0001, 0);
  EXPECT_EQ(j.merge(0b1100, 0b0001, 0x50, 0, c), Merge::NotDivergence);
  j.ret(0b0010, 0);
  EXPECT_EQ(j.merge(0b1101, 0b0010, 0x50, 0, c), Merge::NotDivergence);
  EXPECT_EQ(c.reconvergences, 0u);
  // Afterwards the warp is whole again: a new split's halves count.
  j.split(0b1111, 0x90, 0);
  EXPECT_EQ(j.merge(0b0101, 0b1010, 0x90, 0, c), Merge::AtIpdom);
  EXPECT_EQ(c.reconvergences, 1u);
}

TEST(DivergenceJoins, PathsNoBranchSplitAreNotCounted) {
  DivergenceJoins j(4);
  ReconvergenceCounters c;
  j.reset(0b1111);
  EXPECT_EQ(j.merge(0b0011, 0b1100, 0x20, 0, c), Merge::NotDivergence);
  EXPECT_EQ(c.reconvergences, 0u);
}

TEST(DivergenceJoins, ASplitWhoseOtherSideExitedIsOver) {
  // Lanes 2, 3 exit after the first split; lanes 0, 1 are then all that is
  // left of it, so their next split is judged on its own IPDOM 0x60 and the
  // merge at 0x60 is at the IPDOM (not early with respect to 0x40).
  DivergenceJoins j(4);
  ReconvergenceCounters c;
  j.reset(0b1111);
  j.split(0b1111, 0x40, 0);
  j.exit(0b1100);
  j.split(0b0011, 0x60, 0);
  EXPECT_EQ(j.merge(0b0001, 0b0010, 0x60, 0, c), Merge::AtIpdom);
  EXPECT_EQ(c.early_reconvergences, 0u);
}

TEST(DivergenceJoins, LoopsRecycleTheirJoins) {
  // A loop whose body diverges and reconverges 1000 times, calling a
  // function each iteration: the pool never grows past its reservation
  // (2 x warp size + 4 joins).
  DivergenceJoins j(8);
  ReconvergenceCounters c;
  j.reset(0xff);
  for (int i = 0; i < 1000; ++i) {
    j.split(0xff, 0x40, 0);
    j.merge(0x0f, 0xf0, 0x40, 0, c);
    j.call(0xff, 0x60, 0);
    j.ret(0xff, 0);
  }
  EXPECT_EQ(c.reconvergences, 1000u);
  EXPECT_EQ(c.early_reconvergences, 0u);
  EXPECT_LE(j.pool_size(), 2u * 8u + 4u);
}

}  // namespace
}  // namespace warptlm
