// The reconvergence statistics of a functional run under every scheme, on a
// PTX kernel for `if (A && B) C; else D; E;` (thread 0 ABCE, thread 1 ADE,
// threads 2 and 3 ABDE) and on a kernel that never diverges.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "exec/prepared_program.h"
#include "exec_test_util.h"
#include "simt/reconvergence_unit.h"

namespace warptlm {
namespace {
using namespace warptlm::testing;

// out[tid] = C ? 100 : 200. Blocks: A = 5 instructions (ld.param .. @%p1
// bra), B = 2, C = 2, D = 1, E = 4 (mul, add, st, ret). Both conditional
// branches reconverge at E. ppc_explicit's program has a Reconverge marker
// in front of E (1 more instruction).
const char* const kAndAnd = R"(
.visible .entry andand(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  setp.eq.s32 %p1, %r1, 1;
  @%p1 bra D;
  setp.ne.s32 %p2, %r1, 0;
  @%p2 bra D;
  mov.u32 %r2, 100;
  bra.uni E;
D:
  mov.u32 %r2, 200;
E:
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd3, %rd2, %rd3;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

RunStats run_scheme(const char* ptx, const char* entry, const std::string& scheme, uint32_t threads,
                    unsigned warp_size) {
  Program p = prepare_program(parse_ptx(ptx_module(ptx), "test.ptx"), scheme);
  LaunchSpec l = one_buffer(1, threads, std::vector<int32_t>(threads, 0));
  ExecConfig c;
  c.warp_size = warp_size;
  c.reconvergence = scheme;
  return run_functional(p, entry, l, c);
}

struct Expected {
  const char* scheme;
  uint64_t instructions, reconvergences, early, markers;
  uint64_t paths_sum;
  unsigned max_paths, peak, st = 0, rt = 0, hct = 0, cct = 0;
  uint64_t divergent = 2, mask_instructions = 0;
};

// By hand, in issue order (lane 1 takes the first branch to D, lanes 2, 3
// the second; the executor issues a scheme's first issuable path):
// - ipdom, minority_first: A 5, D(0010) 1, B 2, D(1100) 1, C 2, E 4 = 15
//   (minority_first runs C before D(1100): same count); three paths meet at
//   E: 2 merges. ipdom's stack: base + two paths = 3; minority_first saves
//   one majority path at a time.
// - dual_path: the same 15; two paths issuable for D(0010)'s and D(1100)'s
//   one instruction each while the other side runs: 15 + 2 = 17. Stack 3.
// - ppc_explicit: B first (smaller pc), C, then C parks at the marker,
//   D(1100), D(0010): 5 + 2 + 2 + 1 + 1 + marker 1 + 4 = 16; two merges at
//   the marker (the IPDOM). Stack 3.
// - ppc_implicit: the blocks' layout ranks are their pc order here (A, B,
//   C, D, E is topological), so the same order without the marker: 15.
// - mp_ipdom: splits D(0010) and B, round-robin: B's setp (2 paths),
//   D(0010) (2, arrives at E), B's branch (1: splits into D(1100), C),
//   D(1100) (2, arrives: merge), C's mov and bra (1 each: arrives, merge):
//   sum 5 + 2 + 2 + 1 + 2 + 1 + 1 + 4 = 18 over 15. ST peak 2, RT peak 1.
// - breadth_first: B, then D(1100) meets the queued D(0010) (early merge),
//   D(1110) parks at E, C arrives (merge at E): D once, 14 instructions.
// - sorted_list, min_pc: D(1100) meets D(0010) at D (early), D(1110) falls
//   into E where C waits: 14 instructions; two paths at most.
// - exec_mask: the lowered program (warptlm analyze --lowered) has 31
//   instructions, 21 of them written, two flow blocks, and the warp runs
//   every one once: B0 defers lane 1 (for flow0), B1 sets intents, flow0
//   joins lane 1 and defers lane 0 (for B2, through flow1), B3 (D) runs
//   lanes 1-3, flow1 joins lane 0 and defers lanes 1-3 for E, B2 (C) runs
//   lane 0, E joins them. Three defers split the warp (three divergent
//   "branches") and three joins merge it; no early judgement (0). One
//   re-join mask holds lanes at a time.
// - exec_mask's one path counts as issuable even while its exec mask is
//   empty, so the mean stays 1.
// clang-format off
const Expected kAndAndRuns[] = {
    {"ipdom", 15, 2, 0, 0, 15, 1, 3},
    {"minority_first", 15, 2, 0, 0, 15, 1, 1},
    {"dual_path", 15, 2, 0, 0, 17, 2, 3},
    {"ppc_explicit", 16, 2, 0, 1, 16, 1, 3},
    {"ppc_implicit", 15, 2, 0, 0, 15, 1, 3},
    {"mp_ipdom", 15, 2, 0, 0, 18, 2, 3, 2, 1},
    {"breadth_first", 14, 2, 1, 0, 14, 1, 2},
    {"sorted_list", 14, 2, 1, 0, 14, 1, 2, 0, 0, 2, 0},
    {"min_pc", 14, 2, 1, 0, 14, 1, 2},
    {"exec_mask", 31, 3, 0, 0, 31, 1, 1, 0, 0, 0, 0, 3, 21},
};
// clang-format on

TEST(ReconvergenceStats, IfAandBUnderEveryScheme) {
  ASSERT_EQ(std::size(kAndAndRuns), reconvergence_names().size());
  for (const Expected& x : kAndAndRuns) {
    SCOPED_TRACE(x.scheme);
    const RunStats s = run_scheme(kAndAnd, "andand", x.scheme, 4, 4);
    EXPECT_EQ(s.warp_instructions, x.instructions);
    EXPECT_EQ(s.divergent_branches, x.divergent);
    EXPECT_EQ(s.mask_instructions, x.mask_instructions);
    EXPECT_EQ(s.reconvergences, x.reconvergences);
    EXPECT_EQ(s.early_reconvergences, x.early);
    EXPECT_EQ(s.marker_instructions, x.markers);
    EXPECT_EQ(s.issuable_paths_sum, x.paths_sum);
    EXPECT_DOUBLE_EQ(s.mean_issuable_paths(), double(x.paths_sum) / double(x.instructions));
    EXPECT_EQ(s.max_issuable_paths, x.max_paths);
    EXPECT_EQ(s.peak_entries, x.peak);
    EXPECT_EQ(s.own("peak_st_entries"), x.st);
    EXPECT_EQ(s.own("peak_rt_entries"), x.rt);
    EXPECT_EQ(s.own("peak_hct_entries"), x.hct);
    EXPECT_EQ(s.own("peak_cct_entries"), x.cct);
  }
}

TEST(ReconvergenceStats, NonDivergentKernelHasOnePathAndNoMerges) {
  // kDiverge with 8 threads: all below 12, so every lane takes THEN; two
  // warps of 4, 13 instructions each (see test_executor.cc), plus JOIN's
  // marker per warp under ppc_explicit. Under exec_mask each warp runs 24
  // lowered instructions (11 original, 13 written: the if-else's defer,
  // branchz and jumps, flow0's routing, the joins, the exit's ret; none of
  // its defers splits the warp).
  for (const std::string& scheme : reconvergence_names()) {
    SCOPED_TRACE(scheme);
    const RunStats s = run_scheme(kDiverge, "diverge", scheme, 8, 4);
    const uint64_t markers = scheme == "ppc_explicit" ? 2 : 0;
    const bool lowered = scheme == "exec_mask";
    EXPECT_EQ(s.warp_instructions, lowered ? 2 * 24u : 2 * 13u + markers);
    EXPECT_EQ(s.mask_instructions, lowered ? 2 * 13u : 0u);
    EXPECT_EQ(s.marker_instructions, markers);
    EXPECT_EQ(s.divergent_branches, 0u);
    EXPECT_EQ(s.reconvergences, 0u);
    EXPECT_EQ(s.early_reconvergences, 0u);
    EXPECT_DOUBLE_EQ(s.mean_issuable_paths(), 1.0);
    EXPECT_EQ(s.max_issuable_paths, 1u);
    EXPECT_EQ(s.peak_entries, scheme == "minority_first" ? 0u : 1u);
  }
}

TEST(ReconvergenceStats, AddSumsCountsAndTakesPeakMaxima) {
  RunStats a, b;
  a.warp_size = 32;
  a.warp_instructions = 10, a.reconvergences = 2, a.early_reconvergences = 1;
  a.issuable_paths_sum = 12, a.max_issuable_paths = 2, a.peak_entries = 3;
  b.warp_instructions = 5, b.reconvergences = 1, b.marker_instructions = 3;
  b.issuable_paths_sum = 9, b.max_issuable_paths = 3, b.peak_entries = 2;
  // mp_ipdom's own statistics: peaks take the maximum, counts add up.
  const auto mp = reconvergence_stats("mp_ipdom");
  const uint64_t a_own[] = {2, 4, 10, 1, 0}, b_own[] = {3, 1, 5, 0, 2};
  a.add_own(mp, a_own);
  b.add_own(mp, b_own);
  a.add(b);
  EXPECT_EQ(a.warp_size, 32u);
  EXPECT_EQ(a.warp_instructions, 15u);
  EXPECT_EQ(a.reconvergences, 3u);
  EXPECT_EQ(a.early_reconvergences, 1u);
  EXPECT_EQ(a.marker_instructions, 3u);
  EXPECT_EQ(a.issuable_paths_sum, 21u);
  EXPECT_DOUBLE_EQ(a.mean_issuable_paths(), 21.0 / 15.0);
  EXPECT_EQ(a.max_issuable_paths, 3u);
  EXPECT_EQ(a.peak_entries, 3u);
  EXPECT_EQ(a.own("peak_st_entries"), 3u);
  EXPECT_EQ(a.own("peak_rt_entries"), 4u);
  EXPECT_EQ(a.own("rt_accesses"), 15u);
  EXPECT_EQ(a.own("st_overflows"), 1u);
  EXPECT_EQ(a.own("rt_overflows"), 2u);
  EXPECT_EQ(a.own("peak_cct_entries"), 0u);  // sorted_list's
  // Another scheme's statistics do not mix into one run's.
  RunStats c;
  const uint64_t c_own[] = {1, 1, 1, 1};
  c.add_own(reconvergence_stats("sorted_list"), c_own);
  EXPECT_THROW(a.add(c), std::logic_error);
}

TEST(ReconvergenceStats, EveryJsonStatisticIsListedWithItsMeaning) {
  RunStats s;
  s.warp_instructions = 4, s.issuable_paths_sum = 6;
  const nlohmann::json j = s.to_json();
  std::vector<StatInfo> infos = run_stat_infos();
  for (const StatInfo& own : all_reconvergence_stats()) infos.push_back(own);
  ASSERT_EQ(j.size(), infos.size());
  for (const StatInfo& info : infos) EXPECT_TRUE(j.contains(info.name)) << info.name;
  EXPECT_DOUBLE_EQ(j["mean_issuable_paths"].get<double>(), 1.5);
  // Every scheme's own statistics are in every run's, 0 when not its scheme's.
  EXPECT_EQ(j["peak_st_entries"], 0);
  EXPECT_EQ(j["cct_inserts"], 0);
}

}  // namespace
}  // namespace warptlm
