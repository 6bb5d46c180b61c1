// The cycles the schemes' side tables cost (ReconvergenceUnit::control_cycles()
// after each advance()), on hand-made event sequences: sorted_list charges
// TableTiming::cct_access per CCT insert or extract (Simty's CCS rule: z is
// inserted when three paths are valid, y extracted when one is; the sorter's
// swap is one of each), mp_ipdom charges TableTiming::rt_access per RT entry
// written or updated. The other schemes report 0.
#include <gtest/gtest.h>

#include <vector>

#include "control_events.h"
#include "simt/ipdom_stack.h"
#include "simt/mp_ipdom.h"
#include "simt/sorted_path_list.h"

namespace warptlm {
namespace {
using warptlm::testing::branch;
using warptlm::testing::call;
using warptlm::testing::plain;

// Advances `u` with each event on the split its path list offers first and
// returns control_cycles() after each one.
template <typename Unit>
std::vector<unsigned> costs(Unit& u, const std::vector<std::pair<uint32_t, ControlEvent>>& evs) {
  std::vector<unsigned> out;
  for (const auto& [split, ev] : evs) {
    u.advance(split, ev);
    out.push_back(u.control_cycles());
  }
  return out;
}

// The sorted list's reconvergence pc is never read.
constexpr Pc kAny = 0xdead;

TEST(TableTiming, SortedListChargesOneAccessPerCctInsertAndExtract) {
  SortedPathList s(4);
  s.set_table_timing({/*cct_access=*/1, /*rt_access=*/7});
  s.reset(0x00, 0b1111);
  // 1. 0x00 splits 0011 to 0x40, 1100 falls to 0x08: a, b and no c; the CCS
  //    gives x = 0x08, y = 0x40, two valid: HCT only, 0 accesses.
  // 2. 0x08 splits 0100 to 0x30, 1000 to 0x10, c = 0x40 from HCT1: three
  //    valid, x = 0x10, y = 0x30, z = 0x40 inserted into the CCT: 1.
  // 3-5. 1000 runs 0x10..0x20: a and c, two valid: 0.
  // 6. 0x28 falls to 0x30 where HCT1 waits: merged, one valid, so y = 0x40
  //    is extracted from the CCT: 1.
  // 7. 0x30 (1100): a and c = 0x40, two valid: 0.
  // 8. 0x38 falls to 0x40 = HCT1: one valid, the CCT is empty: 0.
  const std::vector<unsigned> want{0, 1, 0, 0, 0, 1, 0, 0};
  EXPECT_EQ(costs(s, {{0, branch(0b1111, 0b0011, 0x00, 0x40, kAny)},
                      {0, branch(0b1100, 0b0100, 0x08, 0x30, kAny)},
                      {0, plain(0b1000, 0x10)},
                      {0, plain(0b1000, 0x18)},
                      {0, plain(0b1000, 0x20)},
                      {0, plain(0b1000, 0x28)},
                      {0, plain(0b1100, 0x30)},
                      {0, plain(0b1100, 0x38)}}),
            want);
  EXPECT_EQ(s.hot(0).mask, 0b1111u);
  EXPECT_EQ(s.cct_insertions(), 1u);
  EXPECT_EQ(s.cct_extractions(), 1u);
  EXPECT_EQ(s.counters().table_cycles, 2u);
}

TEST(TableTiming, SortedListSorterSwapIsAnExtractAndAnInsert) {
  SortedPathList s(4);
  s.set_table_timing({/*cct_access=*/3, 0});
  s.reset(0x00, 0b1111);
  // 1-2 as above: HCT 0x10, 0x30, CCT 0x40; costs 0 and one insert (3).
  // 3. 0x10 jumps to 0x50 (uniform): a = 0x50 and c = 0x30, two valid, no
  //    CCS access; but HCT1 = 0x50 now follows the CCT's 0x40, so the sorter
  //    swaps them: 0x40 extracted, 0x50 inserted, 2 x 3 cycles.
  const std::vector<unsigned> want{0, 3, 6};
  EXPECT_EQ(costs(s, {{0, branch(0b1111, 0b0011, 0x00, 0x40, kAny)},
                      {0, branch(0b1100, 0b0100, 0x08, 0x30, kAny)},
                      {0, branch(0b1000, 0b1000, 0x10, 0x50, kAny)}}),
            want);
  EXPECT_EQ(s.hot(1).pc, 0x40u);
  EXPECT_EQ(s.cct_insertions(), 2u);
  EXPECT_EQ(s.cct_extractions(), 1u);
  EXPECT_EQ(s.counters().table_cycles, 9u);
}

TEST(TableTiming, SortedListIsFreeWithoutTiming) {
  // Functional mode sets no timing: the accesses are counted, never charged.
  SortedPathList s(4);
  s.reset(0x00, 0b1111);
  s.advance(0, branch(0b1111, 0b0011, 0x00, 0x40, kAny));
  s.advance(0, branch(0b1100, 0b0100, 0x08, 0x30, kAny));
  EXPECT_EQ(s.control_cycles(), 0u);
  EXPECT_EQ(s.cct_insertions(), 1u);
  EXPECT_EQ(s.counters().table_cycles, 0u);
}

TEST(TableTiming, MpIpdomSeedWalkThroughCostsThreeRtAccesses) {
  // The seed's `tid < 8` kernel (tests/simt/test_mp_ipdom.cc): the branch at
  // 40 writes the RT entry (1); B's jump from 128 to D arrives (1); C falling
  // from 416 into D arrives, empties the pending mask and moves the entry
  // back to the ST within the same access (1). Uniform code and the final
  // exit (a split with no R-index) touch only the ST.
  constexpr LaneMask kAll = 0xffffffffu, kLow = 0xffu, kHigh = 0xffffff00u;
  MultiPathIpdom u(32);
  u.set_table_timing({0, /*rt_access=*/1});
  u.reset(0, kAll);
  std::vector<unsigned> got;
  auto step = [&](uint32_t split, const ControlEvent& ev) {
    u.advance(split, ev);
    got.push_back(u.control_cycles());
  };
  for (Pc pc = 0; pc < 40; pc += 8) step(0, plain(kAll, pc));
  step(0, branch(kAll, kLow, 40, 136, 424));  // C = slot 0, B = slot 1
  for (Pc pc = 48; pc < 128; pc += 8) step(1, plain(kHigh, pc));
  step(1, branch(kHigh, kHigh, 128, 424, 424));
  for (Pc pc = 136; pc < 424; pc += 8) step(0, plain(kLow, pc));
  for (Pc pc = 424; pc < 448; pc += 8) step(0, plain(kAll, pc));
  step(0, plain(kAll, 448, Control::Exit));
  EXPECT_TRUE(u.finished());
  std::vector<unsigned> want(got.size(), 0);
  want[5] = 1;                // the divergent branch (6th issue)
  want[5 + 10 + 1] = 1;       // B's ten plain issues, then its jump
  want[5 + 10 + 1 + 36] = 1;  // C's 36 issues, 136..416: the last one arrives
  EXPECT_EQ(got, want);
  EXPECT_EQ(u.rt_accesses(), 3u);
  EXPECT_EQ(u.counters().table_cycles, 3u);
}

TEST(TableTiming, MpIpdomNestedDivergenceChargesEveryRtUpdate) {
  // The paper's Figure 6 sequence (tests/simt/test_mp_ipdom.cc), rt_access 2:
  // A's branch writes entry 0, C's writes entry 1, E arrives at F, D's plain
  // instruction touches nothing, D arrives at F (entry 1 completes), B
  // arrives at G, F arrives at G (entry 0 completes): 6 accesses.
  MultiPathIpdom u(4);
  u.set_table_timing({0, /*rt_access=*/2});
  u.reset(0x00, 0xf);
  const std::vector<unsigned> want{2, 2, 2, 0, 2, 2, 2};
  EXPECT_EQ(costs(u, {{0, branch(0xf, 0x3, 0x00, 0x100, 0x200)},
                      {1, branch(0xc, 0x4, 0x08, 0x40, 0x80)},
                      {2, branch(0x8, 0x8, 0x10, 0x80, 0x80)},
                      {1, plain(0x4, 0x40)},
                      {1, branch(0x4, 0x4, 0x48, 0x80, 0x80)},
                      {0, branch(0x3, 0x3, 0x100, 0x200, 0x200)},
                      {1, branch(0xc, 0xc, 0x80, 0x200, 0x200)}}),
            want);
  EXPECT_EQ(u.rt_accesses(), 6u);
  EXPECT_EQ(u.counters().table_cycles, 12u);
}

TEST(TableTiming, MpIpdomIfThenWritesAndArrivesInOneAdvance) {
  // The taken side of an if-then is created at its reconvergence pc: the
  // branch writes the entry and that side arrives at once, 2 accesses; the
  // fall-through arrives after the then-block, 1.
  MultiPathIpdom u(4);
  u.set_table_timing({0, 1});
  u.reset(0x00, 0xf);
  const std::vector<unsigned> want{2, 0, 1};
  EXPECT_EQ(costs(u, {{0, branch(0xf, 0x5, 0x00, 0x18, 0x18)},
                      {0, plain(0xa, 0x08)},
                      {0, plain(0xa, 0x10)}}),
            want);
}

TEST(TableTiming, MpIpdomSameReconvergencePointAndUniformBranchesAreFree) {
  // A branch reconverging where its split already waits makes no entry.
  MultiPathIpdom u(8);
  u.set_table_timing({0, 1});
  u.reset(0x00, 0xff);
  const std::vector<unsigned> want{1, 0, 0};
  EXPECT_EQ(costs(u, {{0, branch(0xff, 0x0f, 0x00, 0x20, 0x60)},
                      {0, branch(0x0f, 0x03, 0x20, 0x40, 0x60)},
                      {0, branch(0x03, 0x03, 0x40, 0x50, 0x60)}}),
            want);
}

TEST(TableTiming, MpIpdomCallFrameEntryCostsLikeADivergenceEntry) {
  // A guarded call parks the caller as a frame entry (1); an exit inside the
  // call clears its lane from the frame entry (1); the return of the last
  // calling lane updates the frame entry, which completes (1).
  MultiPathIpdom u(4);
  u.set_table_timing({0, 1});
  u.reset(0x00, 0xf);
  const std::vector<unsigned> want{1, 1, 1};
  EXPECT_EQ(costs(u, {{0, call(0xf, 0x00, 0x100, 0x5)},
                      {0, plain(0x5, 0x100, Control::Exit, 0x4)},
                      {0, plain(0x1, 0x108, Control::Ret)}}),
            want);
  EXPECT_EQ(u.rt_accesses(), 3u);
}

TEST(TableTiming, StackSchemesCostNothing) {
  IpdomStack u;
  u.set_table_timing({5, 5});
  u.reset(0x00, 0xf);
  u.advance(0, branch(0xf, 0x3, 0x00, 0x20, 0x40));
  EXPECT_EQ(u.control_cycles(), 0u);
  EXPECT_EQ(u.counters().table_cycles, 0u);
}

}  // namespace
}  // namespace warptlm
