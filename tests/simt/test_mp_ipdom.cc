// Multi-path IPDOM on hand-made control events: the seed's `tid < 8` walk-
// through step by step (ST and RT contents written out by hand), nesting as in
// the paper's Figure 6, round-robin issue, exits, calls and full tables.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "control_events.h"
#include "simt/mp_ipdom.h"

namespace warptlm {
namespace {
using warptlm::testing::branch;
using warptlm::testing::call;
using warptlm::testing::plain;

using Split = MultiPathIpdom::Split;
using RtEntry = MultiPathIpdom::RtEntry;
constexpr int32_t kNone = MultiPathIpdom::kNoEntry;

std::vector<Path> paths(const MultiPathIpdom& u) {
  std::vector<Path> p;
  u.issuable(p);
  return p;
}

Path head(const MultiPathIpdom& u) {
  std::vector<Path> p = paths(u);
  EXPECT_FALSE(p.empty());
  return p.empty() ? Path{} : p[0];
}

// ST entry (pc, mask, rpc, R-index) and RT entry (pc, rpc, reconvergence
// mask, pending mask, R-index) as the paper's figures draw them.
void expect_st(const MultiPathIpdom& u, std::vector<std::tuple<Pc, LaneMask, Pc, int32_t>> want) {
  std::vector<Split> st = u.split_table();
  ASSERT_EQ(st.size(), want.size());
  for (size_t i = 0; i < st.size(); ++i) {
    EXPECT_EQ(st[i].pc, std::get<0>(want[i])) << "ST entry " << i;
    EXPECT_EQ(st[i].mask, std::get<1>(want[i])) << "ST entry " << i;
    EXPECT_EQ(st[i].rpc, std::get<2>(want[i])) << "ST entry " << i;
    EXPECT_EQ(st[i].rindex, std::get<3>(want[i])) << "ST entry " << i;
  }
}

void expect_rt(const MultiPathIpdom& u,
               std::vector<std::tuple<Pc, Pc, LaneMask, LaneMask, int32_t>> want) {
  std::vector<RtEntry> rt = u.reconvergence_table();
  ASSERT_EQ(rt.size(), want.size());
  for (size_t i = 0; i < rt.size(); ++i) {
    EXPECT_EQ(rt[i].index, i) << "RT entry " << i;
    EXPECT_EQ(rt[i].pc, std::get<0>(want[i])) << "RT entry " << i;
    EXPECT_EQ(rt[i].rpc, std::get<1>(want[i])) << "RT entry " << i;
    EXPECT_EQ(rt[i].reconv_mask, std::get<2>(want[i])) << "RT entry " << i;
    EXPECT_EQ(rt[i].pending_mask, std::get<3>(want[i])) << "RT entry " << i;
    EXPECT_EQ(rt[i].rindex, std::get<4>(want[i])) << "RT entry " << i;
  }
}

// The seed's kernel `if (tid < 8) {...} else {...} data_out[tid] += 1;` on a
// 32-lane warp, with its PCs: block A ends with the branch at 40 taken by
// tid < 8 to C at 136; the other 24 threads fall through to B at 48, whose
// last instruction (128) jumps to the IPDOM D at 424; C runs 136..416 and
// falls into D; D is 424, 432, 440 and the exit at 448.
ControlEvent seed_kernel(Pc pc, LaneMask mask) {
  if (pc == 40) return branch(mask, mask & 0xffu, pc, 136, 424);
  if (pc == 128) return branch(mask, mask, pc, 424, 424);
  if (pc == 448) return plain(mask, pc, Control::Exit);
  return plain(mask, pc);
}

TEST(MpIpdom, SeedWalkThroughTidBelow8) {
  constexpr LaneMask kAll = 0xffffffffu, kLow = 0x000000ffu, kHigh = 0xffffff00u;
  MultiPathIpdom u(32);
  EXPECT_EQ(u.st_capacity(), 32u);
  // Step 1: one split at A, RT empty.
  u.reset(0, kAll);
  expect_st(u, {{0, kAll, kExitPc, kNone}});
  expect_rt(u, {});
  for (Pc pc = 0; pc < 40; pc += 8) u.advance(head(u).split, seed_kernel(pc, kAll));
  // Step 2: the branch at 40 diverges. A1111 moves to the RT (pc = the IPDOM
  // 424, RPC = A's own, -1; reconvergence and pending masks = A's mask) and
  // the two sides enter the ST with R-index 0.
  EXPECT_EQ(head(u).pc, 40u);
  u.advance(head(u).split, seed_kernel(40, kAll));
  expect_st(u, {{136, kLow, 424, 0}, {48, kHigh, 424, 0}});
  expect_rt(u, {{424, kExitPc, kAll, kAll, kNone}});
  // Step 3: both splits are issuable and interleave (round-robin).
  std::vector<std::pair<Pc, LaneMask>> issued;
  for (int i = 0; i < 21; ++i) {
    Path p = head(u);
    EXPECT_EQ(paths(u).size(), 2u);
    issued.push_back({p.pc, p.mask});
    u.advance(p.split, seed_kernel(p.pc, p.mask));
  }
  std::vector<std::pair<Pc, LaneMask>> first{{48, kHigh}, {136, kLow}, {56, kHigh}, {144, kLow}};
  EXPECT_EQ((std::vector<std::pair<Pc, LaneMask>>(issued.begin(), issued.begin() + 4)), first);
  EXPECT_EQ(issued.back(), (std::pair<Pc, LaneMask>{128, kHigh}));
  // B (FFFFFF00) reaches D first: its ST entry goes, its lanes leave the
  // pending mask. C has issued 10 instructions meanwhile.
  expect_st(u, {{216, kLow, 424, 0}});
  expect_rt(u, {{424, kExitPc, kAll, kLow, kNone}});
  // Step 4: C (000000FF) reaches D; the pending mask is empty.
  for (int i = 0; i < 26; ++i) {
    Path p = head(u);
    EXPECT_EQ(p.mask, kLow);
    u.advance(p.split, seed_kernel(p.pc, p.mask));
  }
  // Step 5: the RT entry is back in the ST as the reconverged warp D1111.
  expect_st(u, {{424, kAll, kExitPc, kNone}});
  expect_rt(u, {});
  for (Pc pc = 424; pc <= 448; pc += 8) {
    EXPECT_EQ(head(u).pc, pc);
    u.advance(head(u).split, seed_kernel(pc, kAll));
  }
  EXPECT_TRUE(u.finished());
  EXPECT_EQ(u.peak_st(), 2u);
  EXPECT_EQ(u.peak_rt(), 1u);
  EXPECT_EQ(u.max_depth(), 3u);
}

// The paper's Figure 6: A -> B | C, C -> D | E, D and E -> F, B and F -> G.
TEST(MpIpdom, NestedDivergenceRunsThreePathsAndReconvergesTwice) {
  MultiPathIpdom u(4);
  u.reset(0x00, 0xf);
  u.advance(0, branch(0xf, 0x3, 0x00, 0x100, 0x200));  // A: B = 0011, C = 1100
  expect_st(u, {{0x100, 0x3, 0x200, 0}, {0x08, 0xc, 0x200, 0}});
  u.advance(1, branch(0xc, 0x4, 0x08, 0x40, 0x80));  // C: D = 0100, E = 1000
  expect_st(u, {{0x100, 0x3, 0x200, 0}, {0x40, 0x4, 0x80, 1}, {0x10, 0x8, 0x80, 1}});
  expect_rt(u, {{0x200, kExitPc, 0xf, 0xf, kNone}, {0x80, 0x200, 0xc, 0xc, 0}});
  // Three parallel paths, round-robin after slot 1: slots 2, 0, 1.
  std::vector<Path> p = paths(u);
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].pc, 0x10u);
  EXPECT_EQ(p[1].pc, 0x100u);
  EXPECT_EQ(p[2].pc, 0x40u);
  u.advance(2, branch(0x8, 0x8, 0x10, 0x80, 0x80));  // E jumps to F and waits
  expect_rt(u, {{0x200, kExitPc, 0xf, 0xf, kNone}, {0x80, 0x200, 0xc, 0x4, 0}});
  u.advance(1, plain(0x4, 0x40));
  u.advance(1, branch(0x4, 0x4, 0x48, 0x80, 0x80));  // D jumps to F: the F entry becomes a split
  expect_st(u, {{0x100, 0x3, 0x200, 0}, {0x80, 0xc, 0x200, 0}});
  expect_rt(u, {{0x200, kExitPc, 0xf, 0xf, kNone}});
  u.advance(0, branch(0x3, 0x3, 0x100, 0x200, 0x200));  // B reaches G
  expect_rt(u, {{0x200, kExitPc, 0xf, 0xc, kNone}});
  u.advance(1, branch(0xc, 0xc, 0x80, 0x200, 0x200));  // F reaches G
  expect_st(u, {{0x200, 0xf, kExitPc, kNone}});
  expect_rt(u, {});
  EXPECT_EQ(u.peak_rt(), 2u);
}

TEST(MpIpdom, BranchReconvergingWhereTheSplitDoesReusesItsEntry) {
  MultiPathIpdom u(8);
  u.reset(0x00, 0xff);
  u.advance(0, branch(0xff, 0x0f, 0x00, 0x20, 0x60));
  u.advance(0, branch(0x0f, 0x03, 0x20, 0x40, 0x60));  // same IPDOM: no new RT entry
  expect_st(u, {{0x40, 0x03, 0x60, 0}, {0x08, 0xf0, 0x60, 0}, {0x28, 0x0c, 0x60, 0}});
  expect_rt(u, {{0x60, kExitPc, 0xff, 0xff, kNone}});
}

TEST(MpIpdom, IfThenTakenSideWaitsAtOnce) {
  MultiPathIpdom u(4);
  u.reset(0x00, 0xf);
  u.advance(0, branch(0xf, 0x5, 0x00, 0x18, 0x18));  // skip the then-block
  expect_st(u, {{0x08, 0xa, 0x18, 0}});
  expect_rt(u, {{0x18, kExitPc, 0xf, 0xa, kNone}});
  u.advance(0, plain(0xa, 0x08));
  u.advance(0, plain(0xa, 0x10));
  expect_st(u, {{0x18, 0xf, kExitPc, kNone}});
}

TEST(MpIpdom, UniformCodeNeverTouchesTheRt) {
  MultiPathIpdom u(32);
  u.reset(0x00, 0xffffffffu);
  u.advance(0, branch(0xffffffffu, 0xffffffffu, 0x00, 0x40, 0x48));
  u.advance(0, branch(0xffffffffu, 0, 0x40, 0x80, 0x88));
  expect_st(u, {{0x48, 0xffffffffu, kExitPc, kNone}});
  EXPECT_EQ(u.max_depth(), 1u);
}

TEST(MpIpdom, ExitLeavesPendingAndReconvergenceMasks) {
  MultiPathIpdom u(4);
  u.reset(0x00, 0xf);
  u.advance(0, branch(0xf, 0x3, 0x00, 0x20, 0x40));
  u.advance(0, plain(0x3, 0x20, Control::Exit, 0x1));  // guarded exit of lane 0
  expect_st(u, {{0x28, 0x2, 0x40, 0}, {0x08, 0xc, 0x40, 0}});
  expect_rt(u, {{0x40, kExitPc, 0xe, 0xe, kNone}});
  u.advance(1, plain(0xc, 0x08, Control::Exit));  // the whole other side exits
  expect_rt(u, {{0x40, kExitPc, 0x2, 0x2, kNone}});
  u.advance(0, plain(0x2, 0x28));
  u.advance(0, plain(0x2, 0x30));
  u.advance(0, plain(0x2, 0x38));
  expect_st(u, {{0x40, 0x2, kExitPc, kNone}});
  expect_rt(u, {});
  u.advance(0, plain(0x2, 0x40, Control::Exit));
  EXPECT_TRUE(u.finished());
}

TEST(MpIpdom, OnlyTheCalleeFrameIssuesUntilEveryCallingLaneReturned) {
  MultiPathIpdom u(4);
  u.reset(0x00, 0xf);
  u.advance(0, branch(0xf, 0x3, 0x00, 0x40, 0x80));  // T = 0011 at 0x40, N = 1100 at 0x08
  EXPECT_EQ(u.advance(0, call(0x3, 0x40, 0x100, 0x3)), 0u);
  // N is in the caller's frame: it waits while the callee runs.
  std::vector<Path> p = paths(u);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].pc, 0x100u);
  EXPECT_EQ(p[0].mask, 0x3u);
  expect_rt(u, {{0x80, kExitPc, 0xf, 0xf, kNone}, {0x48, 0x80, 0x3, 0x3, 0}});
  // In the callee a branch reconverging at the function exit: both paths return.
  u.advance(0, branch(0x3, 0x1, 0x100, 0x120, kExitPc));
  EXPECT_EQ(paths(u).size(), 2u);
  EXPECT_EQ(u.advance(0, plain(0x1, 0x120, Control::Ret)), 0u);
  EXPECT_EQ(u.reconvergence_table()[1].pending_mask, 0x2u);
  EXPECT_EQ(u.advance(2, plain(0x2, 0x108, Control::Ret)), 1u);
  // The caller resumes after the call with its whole mask, beside N.
  expect_st(u, {{0x48, 0x3, 0x80, 0}, {0x08, 0xc, 0x80, 0}});
  expect_rt(u, {{0x80, kExitPc, 0xf, 0xf, kNone}});
  EXPECT_EQ(paths(u).size(), 2u);
}

TEST(MpIpdom, GuardedCallParksTheOtherLanesAndExitInsideTheCallEndsTheFrame) {
  MultiPathIpdom u(4);
  u.reset(0x00, 0xf);
  u.advance(0, call(0xf, 0x00, 0x100, 0x5));
  expect_st(u, {{0x100, 0x5, kExitPc, 0}});
  expect_rt(u, {{0x08, kExitPc, 0xf, 0x5, kNone}});
  EXPECT_EQ(u.advance(0, plain(0x5, 0x100, Control::Exit, 0x4)), 0u);
  EXPECT_EQ(u.reconvergence_table()[0].reconv_mask, 0xbu);
  EXPECT_EQ(u.advance(0, plain(0x1, 0x108, Control::Ret)), 1u);
  expect_st(u, {{0x08, 0xb, kExitPc, kNone}});
  expect_rt(u, {});
}

TEST(MpIpdom, FullSplitTableSerialisesLikeTheIpdomStack) {
  MultiPathIpdom u(4, /*st_capacity=*/1);
  u.reset(0x00, 0xf);
  u.advance(0, branch(0xf, 0x3, 0x00, 0x20, 0x40));
  EXPECT_EQ(u.st_overflows(), 1u);
  expect_st(u, {{0x20, 0x3, 0x40, 0}});  // the taken side runs first
  ASSERT_EQ(u.deferred().size(), 1u);
  EXPECT_EQ(u.deferred()[0].pc, 0x08u);
  for (Pc pc = 0x20; pc < 0x40; pc += 8) u.advance(0, plain(0x3, pc));
  // The taken side waits at the IPDOM: the deferred side is released.
  expect_st(u, {{0x08, 0xc, 0x40, 0}});
  expect_rt(u, {{0x40, kExitPc, 0xf, 0xc, kNone}});
  EXPECT_TRUE(u.deferred().empty());
  u.advance(0, branch(0xc, 0xc, 0x08, 0x40, 0x40));
  expect_st(u, {{0x40, 0xf, kExitPc, kNone}});
}

TEST(MpIpdom, FullReconvergenceTableReconvergesAtTheEnclosingPoint) {
  MultiPathIpdom u(4, 0, /*rt_capacity=*/1);
  u.reset(0x00, 0xf);
  u.advance(0, branch(0xf, 0x3, 0x00, 0x40, 0x80));
  u.advance(0, branch(0x3, 0x1, 0x40, 0x60, 0x70));  // its IPDOM 0x70 has no room
  EXPECT_EQ(u.rt_overflows(), 1u);
  expect_st(u, {{0x60, 0x1, 0x80, 0}, {0x08, 0xc, 0x80, 0}, {0x48, 0x2, 0x80, 0}});
  expect_rt(u, {{0x80, kExitPc, 0xf, 0xf, kNone}});
}

TEST(MpIpdom, RejectsAnAdvanceOfAWaitingSplit) {
  MultiPathIpdom u(4);
  u.reset(0x00, 0xf);
  u.advance(0, branch(0xf, 0x3, 0x00, 0x40, 0x80));
  u.advance(0, call(0x3, 0x40, 0x100, 0x3));
  EXPECT_THROW(u.advance(1, plain(0xc, 0x08)), std::logic_error);  // N waits for the call
  EXPECT_THROW(u.advance(5, plain(0xc, 0x08)), std::logic_error);
  EXPECT_THROW(MultiPathIpdom(32, 65), std::invalid_argument);
  EXPECT_THROW(MultiPathIpdom(32, 0, 65), std::invalid_argument);
}

TEST(MpIpdom, IsRegistered) {
  EXPECT_EQ(make_reconvergence_unit("mp_ipdom", 32)->name(), std::string("mp_ipdom"));
}

TEST(MpIpdom, TheRegistryBuildsItWithTheSchemeOptions) {
  // 0 is each table's default: the warp size for the ST, 32 for the RT.
  auto defaults = make_reconvergence_unit("mp_ipdom", 16);
  EXPECT_EQ(static_cast<MultiPathIpdom&>(*defaults).st_capacity(), 16u);
  EXPECT_EQ(static_cast<MultiPathIpdom&>(*defaults).rt_capacity(), 32u);
  auto sized = make_reconvergence_unit(
      "mp_ipdom", 16,
      reconvergence_options("mp_ipdom", {{"mp_ipdom.st_entries", 3}, {"mp_ipdom.rt_entries", 5}}));
  EXPECT_EQ(static_cast<MultiPathIpdom&>(*sized).st_capacity(), 3u);
  EXPECT_EQ(static_cast<MultiPathIpdom&>(*sized).rt_capacity(), 5u);
}

}  // namespace
}  // namespace warptlm
