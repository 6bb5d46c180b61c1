// The compactability analysis and compacted statistics on two hand-derived
// kernels, one CTA of 4 warps of 8 threads (thread t is lane t % 8 of warp
// t / 8): a programmatic branch `if (tid % 2 == 0)` and a data-dependent one
// `if (in[tid] != 0)`. Permutations at warp size 8 (3 lane bits):
//   odd_even: warps 1, 3 XOR 1;  balanced: warp 0 XOR 0, 1 XOR 7, 2 XOR 1, 3 XOR 6.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compaction/compactability.h"
#include "exec_test_util.h"

namespace warptlm {
namespace {

using testing::i32_buffer;
using testing::i32_values;
using testing::ptx_module;

// out[tid] = tid % 2 == 0 ? 1 : 2. Lockstep instructions: 5 before the
// branch (ld.param, mov, and, setp, bra) with all 32 threads; the taken
// (even) path: 1 (mov); the not-taken (odd) path: 2 (mov, bra); after the
// reconvergence: 4 (mul.wide, add, st, ret), all threads.
const char* const kParity = R"(
.visible .entry parity(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra EVEN;
  mov.u32 %r3, 2;
  bra.uni DONE;
EVEN:
  mov.u32 %r3, 1;
DONE:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";

// out[tid] = in[tid] != 0 ? 9 : 7. Lockstep instructions: 8 before the
// branch with all threads, the taken path 1, the not-taken path 2, after
// the reconvergence 3.
const char* const kNonZero = R"(
.visible .entry nonzero(.param .u64 in, .param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r2, [%rd4];
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra NZ;
  mov.u32 %r3, 7;
  bra.uni DONE;
NZ:
  mov.u32 %r3, 9;
DONE:
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r3;
  ret;
}
)";

struct Analysed {
  RunStats stats;
  CompactionAnalysis analysis;
  Program program = Program{};
  std::vector<int32_t> out;
};

Analysed run(const char* ptx, const std::string& entry, std::vector<HostBuffer> buffers,
             const std::string& compaction, const std::string& permutation) {
  Analysed a;
  a.program = finalize(parse_ptx(ptx_module(ptx), "test.ptx"));
  LaunchSpec l;
  l.grid = {1, 1, 1};
  l.block = {32, 1, 1};
  for (size_t i = 0; i < buffers.size(); ++i) l.args.push_back(KernelArg::buffer_arg(uint32_t(i)));
  l.buffers = std::move(buffers);
  ExecConfig config;
  config.warp_size = 8;
  config.compaction = compaction;
  config.permutation = permutation;
  a.stats = run_functional(a.program, entry, l, config, nullptr, &a.analysis);
  a.out = i32_values(l.buffers.back());
  return a;
}

const BranchInfo& conditional_branch(const Program& p) {
  for (const BranchInfo& b : p.branches)
    if (b.conditional) return b;
  throw std::logic_error("no conditional branch");
}

TEST(Compactability, ProgrammaticParityBranch) {
  Analysed a =
      run(kParity, "parity", {i32_buffer("out", std::vector<int32_t>(32, 0))}, "tbc", "none");
  for (int t = 0; t < 32; ++t) EXPECT_EQ(a.out[t], t % 2 == 0 ? 1 : 2) << t;
  const CompactionAnalysis& an = a.analysis;
  const size_t none = an.permutation_index("none"), odd_even = an.permutation_index("odd_even"),
               balanced = an.permutation_index("balanced");
  // Each path: 16 threads, 4 per warp (even: lanes 0 2 4 6 of every warp;
  // odd: 1 3 5 7). NW_NoTBC 4; NW_ideal ceil(16 / 8) = 2. NW_TBC: none keeps
  // 4 threads in each of the path's lanes: 4; odd_even moves warps 1 and 3 to
  // the other parity: 2 per lane: 2; balanced: warps 0 (XOR 0) and 3 (XOR 6)
  // keep the parity, 1 (XOR 7) and 2 (XOR 1) flip it: 2 per lane: 2.
  const BranchInfo& br = conditional_branch(a.program);
  EXPECT_EQ(br.taint, Taint::Programmatic);
  ASSERT_EQ(an.groups().size(), 2u);
  for (bool taken : {true, false}) {
    SCOPED_TRACE(taken ? "taken" : "not taken");
    // 16 of the CTA's 32 threads: 50%, bucket [50%, 75%).
    auto it = an.groups().find(PathKey{br.pc, taken, 2});
    ASSERT_NE(it, an.groups().end());
    const PathGroup& g = it->second;
    EXPECT_EQ(g.taint, Taint::Programmatic);
    EXPECT_EQ(g.paths, 1u);
    EXPECT_EQ(g.threads, 16u);
    EXPECT_EQ(g.nw_no_compaction, 4u);
    EXPECT_EQ(g.nw_ideal, 2u);
    EXPECT_EQ(g.ideal_compacted, 1u);
    EXPECT_EQ(g.nw_tbc[none], 4u);
    EXPECT_EQ(g.nw_tbc[odd_even], 2u);
    EXPECT_EQ(g.nw_tbc[balanced], 2u);
    EXPECT_EQ(g.tbc_compacted[none], 0u);
    EXPECT_EQ(g.tbc_compacted[odd_even], 1u);
    EXPECT_EQ(g.tbc_compacted[balanced], 1u);
  }
  EXPECT_DOUBLE_EQ(an.compaction_rate(Taint::Programmatic, none), 0.0);
  EXPECT_DOUBLE_EQ(an.compaction_rate(Taint::Programmatic, odd_even), 1.0);
  EXPECT_DOUBLE_EQ(an.compaction_rate(Taint::Programmatic, balanced), 1.0);
  EXPECT_DOUBLE_EQ(an.ideal_compaction_rate(Taint::Programmatic), 1.0);
  EXPECT_EQ(an.summary(Taint::DataDependent).paths, 0u);
  EXPECT_DOUBLE_EQ(an.compaction_rate(Taint::DataDependent, balanced), 0.0);

  // Over the 12 lockstep instructions: threads 9 x 32 + 3 x 16 = 336;
  // NW_NoTBC 12 x 4 = 48; NW_ideal 9 x 4 + 3 x 2 = 42; NW_TBC none 48,
  // odd_even and balanced 42.
  const InstructionTotals& t = an.totals();
  EXPECT_EQ(t.instructions, 12u);
  EXPECT_EQ(t.threads, 336u);
  EXPECT_EQ(t.nw_no_compaction, 48u);
  EXPECT_EQ(t.nw_ideal, 42u);
  EXPECT_EQ(t.nw_tbc[none], 48u);
  EXPECT_EQ(t.nw_tbc[odd_even], 42u);
  EXPECT_EQ(t.nw_tbc[balanced], 42u);
  EXPECT_DOUBLE_EQ(an.simd_utilisation_no_compaction(), 336.0 / (48 * 8));  // 0.875
  EXPECT_DOUBLE_EQ(an.simd_utilisation_ideal(), 1.0);
  EXPECT_DOUBLE_EQ(an.simd_utilisation_tbc(none), 0.875);
  EXPECT_DOUBLE_EQ(an.simd_utilisation_tbc(odd_even), 1.0);
  EXPECT_DOUBLE_EQ(an.simd_utilisation_tbc(balanced), 1.0);

  // The run's own statistics count the configured compaction: tbc, none.
  EXPECT_EQ(a.stats.warp_instructions, 48u);
  EXPECT_EQ(a.stats.thread_instructions, 336u);
  // Per static warp, as without compaction: 4 conditional branches, each divergent.
  EXPECT_EQ(a.stats.branches, 4u);
  EXPECT_EQ(a.stats.divergent_branches, 4u);
  // tbc under odd_even issues 42 warp instructions: utilisation 336 / 336.
  Analysed b =
      run(kParity, "parity", {i32_buffer("out", std::vector<int32_t>(32, 0))}, "tbc", "odd_even");
  EXPECT_EQ(b.stats.warp_instructions, 42u);
  EXPECT_DOUBLE_EQ(b.stats.activity_factor(), 1.0);
  // Lockstep without compaction counts the static warps: 48.
  Analysed c =
      run(kParity, "parity", {i32_buffer("out", std::vector<int32_t>(32, 0))}, "none", "none");
  EXPECT_EQ(c.stats.warp_instructions, 48u);
  EXPECT_EQ(c.out, a.out);
}

TEST(Compactability, DataDependentBranch) {
  // Nonzero inputs (the taken side): warp 0 lanes 0-1, warp 1 lanes 0-1,
  // warp 2 lane 0, warp 3 lane 1 (threads 0 1 8 9 16 25): 6 threads.
  std::vector<int32_t> in(32, 0);
  for (int t : {0, 1, 8, 9, 16, 25}) in[t] = 5;
  Analysed a =
      run(kNonZero, "nonzero",
          {i32_buffer("in", in), i32_buffer("out", std::vector<int32_t>(32, 0))}, "ideal", "none");
  for (int t = 0; t < 32; ++t) EXPECT_EQ(a.out[t], in[t] ? 9 : 7) << t;
  const CompactionAnalysis& an = a.analysis;
  const size_t none = an.permutation_index("none"), odd_even = an.permutation_index("odd_even"),
               balanced = an.permutation_index("balanced");
  const BranchInfo& br = conditional_branch(a.program);
  EXPECT_EQ(br.taint, Taint::DataDependent);
  ASSERT_EQ(an.groups().size(), 2u);
  // Taken: 6 of 32 threads (18.75%, bucket 0). NW_NoTBC 4, NW_ideal 1.
  // NW_TBC none: lane 0 holds warps 0 1 2, lane 1 warps 0 1 3: 3.
  // odd_even: warps 1 and 3 swap lanes 0 and 1: lane 0 holds warps 0 1 2 3: 4.
  // balanced: lane 0 warp 0; lane 1 warps 0, 2 (0 ^ 1); lane 6 warp 1 (1 ^ 7);
  // lane 7 warps 1 (0 ^ 7), 3 (1 ^ 6): 2.
  const PathGroup& t = an.groups().at(PathKey{br.pc, true, 0});
  EXPECT_EQ(t.taint, Taint::DataDependent);
  EXPECT_EQ(t.paths, 1u);
  EXPECT_EQ(t.nw_no_compaction, 4u);
  EXPECT_EQ(t.nw_ideal, 1u);
  EXPECT_EQ(t.nw_tbc[none], 3u);
  EXPECT_EQ(t.nw_tbc[odd_even], 4u);
  EXPECT_EQ(t.nw_tbc[balanced], 2u);
  EXPECT_EQ(t.tbc_compacted[none], 1u);
  EXPECT_EQ(t.tbc_compacted[odd_even], 0u);
  EXPECT_EQ(t.tbc_compacted[balanced], 1u);
  EXPECT_EQ(t.ideal_compacted, 1u);
  // Not taken: 26 threads (81.25%, bucket 3); ceil(26 / 8) = 4 = NW_NoTBC, so
  // no scheme can compact it.
  const PathGroup& n = an.groups().at(PathKey{br.pc, false, 3});
  EXPECT_EQ(n.threads, 26u);
  EXPECT_EQ(n.nw_no_compaction, 4u);
  EXPECT_EQ(n.nw_ideal, 4u);
  for (size_t p = 0; p < an.permutations().size(); ++p) {
    EXPECT_EQ(n.nw_tbc[p], 4u) << an.permutations()[p];
    EXPECT_EQ(n.tbc_compacted[p], 0u) << an.permutations()[p];
  }
  EXPECT_DOUBLE_EQ(an.compaction_rate(Taint::DataDependent, none), 0.5);
  EXPECT_DOUBLE_EQ(an.compaction_rate(Taint::DataDependent, odd_even), 0.0);
  EXPECT_DOUBLE_EQ(an.compaction_rate(Taint::DataDependent, balanced), 0.5);
  EXPECT_DOUBLE_EQ(an.ideal_compaction_rate(Taint::DataDependent), 0.5);
  EXPECT_EQ(an.summary(Taint::DataDependent, 0).paths, 1u);
  EXPECT_EQ(an.summary(Taint::DataDependent, 3).paths, 1u);
  EXPECT_EQ(an.summary(Taint::DataDependent, 1).paths, 0u);
  EXPECT_EQ(an.summary(Taint::Programmatic).paths, 0u);

  // 14 lockstep instructions: 11 with all 32 threads, 1 with 6, 2 with 26:
  // threads 352 + 6 + 52 = 410. NW_NoTBC 14 x 4 = 56; NW_ideal 44 + 1 + 8 =
  // 53; NW_TBC none 44 + 3 + 8 = 55, odd_even 56, balanced 54.
  const InstructionTotals& tot = an.totals();
  EXPECT_EQ(tot.instructions, 14u);
  EXPECT_EQ(tot.threads, 410u);
  EXPECT_EQ(tot.nw_no_compaction, 56u);
  EXPECT_EQ(tot.nw_ideal, 53u);
  EXPECT_EQ(tot.nw_tbc[none], 55u);
  EXPECT_EQ(tot.nw_tbc[odd_even], 56u);
  EXPECT_EQ(tot.nw_tbc[balanced], 54u);
  EXPECT_DOUBLE_EQ(an.simd_utilisation_no_compaction(), 410.0 / 448);
  EXPECT_DOUBLE_EQ(an.simd_utilisation_ideal(), 410.0 / 424);
  EXPECT_DOUBLE_EQ(an.simd_utilisation_tbc(none), 410.0 / 440);
  EXPECT_DOUBLE_EQ(an.simd_utilisation_tbc(odd_even), 410.0 / 448);
  EXPECT_DOUBLE_EQ(an.simd_utilisation_tbc(balanced), 410.0 / 432);
  // The run counted ideal compaction: 53 warp instructions.
  EXPECT_EQ(a.stats.warp_instructions, 53u);
  EXPECT_EQ(a.stats.thread_instructions, 410u);
}

TEST(Compactability, ActivityBucketsAreQuartersOfTheCta) {
  EXPECT_EQ(activity_bucket(0, 32), 0u);
  EXPECT_EQ(activity_bucket(7, 32), 0u);
  EXPECT_EQ(activity_bucket(8, 32), 1u);  // 25% opens the second bucket
  EXPECT_EQ(activity_bucket(15, 32), 1u);
  EXPECT_EQ(activity_bucket(16, 32), 2u);
  EXPECT_EQ(activity_bucket(24, 32), 3u);
  EXPECT_EQ(activity_bucket(32, 32), 3u);  // 100% is in the last one
  EXPECT_EQ(activity_bucket(1, 3), 1u);    // 33%
  EXPECT_THROW(activity_bucket(4, 3), std::invalid_argument);
  EXPECT_THROW(activity_bucket(0, 0), std::invalid_argument);
  EXPECT_STREQ(activity_bucket_name(2), "50-75%");
}

TEST(Compactability, UnknownPermutationIndexNamesTheField) {
  CompactionAnalysis an;
  an.reset(8, 1);
  EXPECT_EQ(an.permutations(), lane_permutation_names());
  try {
    an.permutation_index("sideways");
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("permutation"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("balanced"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace warptlm
