// mp_ipdom's table capacities in a functional run (ExecConfig::scheme_options,
// PlatformConfig mp_ipdom.*): on a kernel with two nested divergent branches,
// a one-entry reconvergence table makes the inner branch reconverge late, at
// the outer IPDOM (docs/reconvergence_mp_ipdom.md, "Capacities"), and a
// one-entry split table serialises the splits like the IPDOM stack. The
// order of (pc, mask) issued and the statistics are derived by hand.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "exec/trace.h"
#include "exec_test_util.h"

namespace warptlm {
namespace {
using namespace warptlm::testing;

// out[tid] = tid < 2 ? (tid == 0 ? 10 : 20) + 1 : 30, on one warp of 4.
// PCs: 0x00-0x28 the prefix, ending with the outer branch (lanes 0, 1 go to
// INNER; its IPDOM is OUTER_JOIN 0x70); 0x30-0x38 the else side; INNER
// 0x40-0x48 ends with the inner branch (lane 0 to ZERO; its IPDOM is
// INNER_JOIN 0x68); 0x50-0x58 lane 1's side, ZERO 0x60 lane 0's;
// INNER_JOIN 0x68; OUTER_JOIN 0x70-0x88.
const char* const kNested = R"(
.visible .entry nested(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
  setp.lt.u32 %p1, %r1, 2;
  @%p1 bra INNER;
  mov.u32 %r2, 30;
  bra.uni OUTER_JOIN;
INNER:
  setp.eq.u32 %p2, %r1, 0;
  @%p2 bra ZERO;
  mov.u32 %r2, 20;
  bra.uni INNER_JOIN;
ZERO:
  mov.u32 %r2, 10;
INNER_JOIN:
  add.u32 %r2, %r2, 1;
OUTER_JOIN:
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd3, %rd2, %rd3;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

using Issued = std::vector<std::pair<Pc, LaneMask>>;

struct CapacityRun {
  RunStats stats;
  Issued issued;
};

CapacityRun run_nested(unsigned st_entries, unsigned rt_entries) {
  Program p = finalize(parse_ptx(ptx_module(kNested), "nested.ptx"));
  LaunchSpec l = one_buffer(1, 4, std::vector<int32_t>(4, 0));
  ExecConfig c;
  c.warp_size = 4;
  c.reconvergence = "mp_ipdom";
  c.options["mp_ipdom.st_entries"] = st_entries;
  c.options["mp_ipdom.rt_entries"] = rt_entries;
  TraceBuffer trace;
  CapacityRun r;
  r.stats = run_functional(p, "nested", l, c, &trace);
  EXPECT_EQ(i32_values(l.buffers[0]), (std::vector<int32_t>{11, 21, 30, 30}));
  for (const TraceRecord& t : trace.records) r.issued.push_back({t.pc, t.mask});
  return r;
}

// The prefix and the tail every run shares.
Issued with_prefix_and_tail(const Issued& middle) {
  Issued all;
  for (Pc pc = 0x00; pc <= 0x28; pc += 8) all.push_back({pc, 0xf});
  all.insert(all.end(), middle.begin(), middle.end());
  for (Pc pc = 0x70; pc <= 0x88; pc += 8) all.push_back({pc, 0xf});
  return all;
}

TEST(MpIpdomCapacities, DefaultTablesReconvergeEachBranchAtItsIpdom) {
  // The outer branch makes RT entry E0 at 0x70; taken side (0x40, 0011) to
  // ST slot 0, the else side (0x30, 1100) to slot 1. Round-robin from the
  // slot after the last issuer: 0x30, 0x40, 0x38 (arrives at E0), then 0x48
  // alone: the inner branch makes E1 at 0x68 (lane 0 to slot 0, lane 1 to
  // slot 1): 0x50, 0x60 (lane 0 arrives at E1), 0x58 (lane 1 arrives: E1
  // completes), (0x68, 0011) arrives at E0: E0 completes.
  // 6 + 8 + 4 = 18 instructions; issuable paths 6 + (2+2+2+1+2+2+1+1) + 4
  // = 23; two merges (one per entry); RT accesses: 2 entries made + 4
  // arrivals = 6; peak ST 2, RT 2, both together 4 (after the inner branch).
  const CapacityRun r = run_nested(0, 0);
  EXPECT_EQ(r.issued, with_prefix_and_tail({{0x30, 0xc},
                                            {0x40, 0x3},
                                            {0x38, 0xc},
                                            {0x48, 0x3},
                                            {0x50, 0x2},
                                            {0x60, 0x1},
                                            {0x58, 0x2},
                                            {0x68, 0x3}}));
  EXPECT_EQ(r.stats.warp_instructions, 18u);
  EXPECT_EQ(r.stats.divergent_branches, 2u);
  EXPECT_EQ(r.stats.reconvergences, 2u);
  EXPECT_EQ(r.stats.early_reconvergences, 0u);
  EXPECT_EQ(r.stats.issuable_paths_sum, 23u);
  EXPECT_EQ(r.stats.max_issuable_paths, 2u);
  EXPECT_EQ(r.stats.own("rt_accesses"), 6u);
  EXPECT_EQ(r.stats.own("peak_st_entries"), 2u);
  EXPECT_EQ(r.stats.own("peak_rt_entries"), 2u);
  EXPECT_EQ(r.stats.peak_entries, 4u);
  EXPECT_EQ(r.stats.own("st_overflows"), 0u);  // no table was full
  EXPECT_EQ(r.stats.own("rt_overflows"), 0u);
}

TEST(MpIpdomCapacities, FullReconvergenceTableReconvergesTheInnerBranchLate) {
  // rt_entries 1: E0 fills the RT, so the inner branch makes no entry and
  // both its sides wait at 0x70 with E0's R-index. Up to 0x48 as above;
  // then 0x50 (lane 1), 0x60 (lane 0), 0x58 (lane 1 jumps to INNER_JOIN,
  // not its wait point), 0x68 for lane 0 alone (arrives at E0), 0x68 for
  // lane 1 alone (arrives: E0 completes). INNER_JOIN's add issues twice:
  // 6 + 9 + 4 = 19 instructions. Issuable paths 6 + (2+2+2+1+2+2+2+2+1) + 4
  // = 26. Three splits arrive at E0: 2 merges, none early (lanes 0 and 1 meet
  // after their IPDOM). RT accesses: E0 made + 4 arrivals = 4 (the inner
  // branch writes nothing); peak RT 1, ST 2, both 3.
  const CapacityRun r = run_nested(0, 1);
  EXPECT_EQ(r.issued, with_prefix_and_tail({{0x30, 0xc},
                                            {0x40, 0x3},
                                            {0x38, 0xc},
                                            {0x48, 0x3},
                                            {0x50, 0x2},
                                            {0x60, 0x1},
                                            {0x58, 0x2},
                                            {0x68, 0x1},
                                            {0x68, 0x2}}));
  EXPECT_EQ(r.stats.warp_instructions, 19u);
  EXPECT_EQ(r.stats.divergent_branches, 2u);
  EXPECT_EQ(r.stats.reconvergences, 2u);
  EXPECT_EQ(r.stats.early_reconvergences, 0u);
  EXPECT_EQ(r.stats.issuable_paths_sum, 26u);
  EXPECT_EQ(r.stats.max_issuable_paths, 2u);
  EXPECT_EQ(r.stats.own("rt_accesses"), 4u);
  EXPECT_EQ(r.stats.own("peak_st_entries"), 2u);
  EXPECT_EQ(r.stats.own("peak_rt_entries"), 1u);
  EXPECT_EQ(r.stats.peak_entries, 3u);
  EXPECT_EQ(r.stats.own("rt_overflows"), 1u);  // the inner branch found the RT full
  EXPECT_EQ(r.stats.own("st_overflows"), 0u);
}

TEST(MpIpdomCapacities, OneEntrySplitTableSerialisesTakenSidesFirst) {
  // st_entries 1: each branch's taken side takes the only slot and its
  // not-taken side waits on the deferred LIFO. Outer branch: 0x40 0x48 run
  // (lanes 0, 1; else side deferred); inner branch: 0x60 (lane 0; lane 1
  // deferred above the else side) arrives at E1; lane 1 is released: 0x50
  // 0x58 arrives, E1 completes: (0x68, 0011) arrives at E0; the else side
  // is released: 0x30 0x38 arrives, E0 completes. 18 instructions, always
  // one issuable path; the same 2 merges and 6 RT accesses as with default
  // tables; peak ST 1, RT 2, and ST + RT + deferred 1 + 2 + 2 = 5 right
  // after the inner branch.
  const CapacityRun r = run_nested(1, 0);
  EXPECT_EQ(r.issued, with_prefix_and_tail({{0x40, 0x3},
                                            {0x48, 0x3},
                                            {0x60, 0x1},
                                            {0x50, 0x2},
                                            {0x58, 0x2},
                                            {0x68, 0x3},
                                            {0x30, 0xc},
                                            {0x38, 0xc}}));
  EXPECT_EQ(r.stats.warp_instructions, 18u);
  EXPECT_EQ(r.stats.reconvergences, 2u);
  EXPECT_EQ(r.stats.issuable_paths_sum, 18u);
  EXPECT_EQ(r.stats.max_issuable_paths, 1u);
  EXPECT_EQ(r.stats.own("rt_accesses"), 6u);
  EXPECT_EQ(r.stats.own("peak_st_entries"), 1u);
  EXPECT_EQ(r.stats.own("peak_rt_entries"), 2u);
  EXPECT_EQ(r.stats.peak_entries, 5u);
  EXPECT_EQ(r.stats.own("st_overflows"), 2u);  // each branch's not-taken side deferred
  EXPECT_EQ(r.stats.own("rt_overflows"), 0u);
}

TEST(MpIpdomCapacities, OptionsOfMpIpdomAreRejectedUnderAnotherScheme) {
  ExecConfig c;
  c.warp_size = 4;
  c.options["mp_ipdom.rt_entries"] = 1;
  Program p = finalize(parse_ptx(ptx_module(kNested), "nested.ptx"));
  LaunchSpec l = one_buffer(1, 4, std::vector<int32_t>(4, 0));
  try {
    run_functional(p, "nested", l, c);
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "mp_ipdom.rt_entries: an option of reconvergence=mp_ipdom, but reconvergence is "
              "'ipdom' (leave it at its default 0)");
  }
}

}  // namespace
}  // namespace warptlm
