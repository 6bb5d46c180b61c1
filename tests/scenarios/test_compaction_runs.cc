// Every scenario under thread block compaction (tbc with every registered
// lane permutation, capri with every permutation, and ideal), at warp sizes 8 and 32 and the test
// size: outputs pass the host reference and are bit-exact with a plain ipdom run (except the spin
// lock, whose outputs record an interleaving-dependent order), and the counts obey the compaction
// identities: a tbc run issues sum NW_TBC warp instructions, and the block-wide stack issues each
// static warp's lanes exactly as that warp's own IPDOM stack does (sum NW_NoTBC over lockstep
// instructions, thread instructions and branch counts equal the plain run's).
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "compaction/compactability.h"
#include "compaction/lane_permutation.h"
#include "exec/functional_executor.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"
#include "scenario.h"

namespace warptlm::scenarios {
namespace {

// index into all(), warp size
using CompactionParam = std::tuple<size_t, unsigned>;

class ScenarioCompaction : public ::testing::TestWithParam<CompactionParam> {};

TEST_P(ScenarioCompaction, EveryCompactionAndPermutationMatchesThePlainRun) {
  const Scenario& s = all()[std::get<0>(GetParam())];
  const unsigned warp_size = std::get<1>(GetParam());
  Program program = finalize(parse_ptx(scenario_ptx(s), s.source_dir + "/kernel.ptx"));
  const uint64_t n = resolve_size(s, "test");
  const LaunchSpec in = s.make_launch(n, 1);
  // The spin lock's outputs (who got the lock in which order) and its
  // instruction counts depend on how warps interleave, which lockstep
  // execution changes; its host reference accepts every valid order.
  const bool order_dependent = s.name == "spinlock";

  ExecConfig plain_config;
  plain_config.warp_size = warp_size;
  LaunchSpec plain = in;
  const RunStats base = run_functional(program, s.entry, plain, plain_config);

  auto check = [&](const LaunchSpec& out, const std::string& what) {
    CheckResult r = s.check(in, out);
    EXPECT_TRUE(r.passed) << s.name << " " << what << ": " << r.message;
    if (order_dependent) return;
    for (size_t b = 0; b < out.buffers.size(); ++b)
      EXPECT_TRUE(out.buffers[b].bytes == plain.buffers[b].bytes)
          << s.name << " " << what << ": buffer '" << out.buffers[b].name
          << "' differs from the plain ipdom run";
  };

  // tbc under every permutation; the analysis rides on the permutation-none run.
  for (const std::string& perm : lane_permutation_names()) {
    ExecConfig config;
    config.warp_size = warp_size;
    config.compaction = "tbc";
    config.permutation = perm;
    LaunchSpec out = in;
    CompactionAnalysis analysis;
    const bool analyse = perm == "none";
    const RunStats st =
        run_functional(program, s.entry, out, config, nullptr, analyse ? &analysis : nullptr);
    check(out, "tbc/" + perm);
    if (!order_dependent) {
      EXPECT_EQ(st.thread_instructions, base.thread_instructions) << "tbc/" << perm;
      EXPECT_EQ(st.branches, base.branches) << "tbc/" << perm;
      EXPECT_EQ(st.divergent_branches, base.divergent_branches) << "tbc/" << perm;
      // Compaction never needs more warps than the static ones.
      EXPECT_LE(st.warp_instructions, base.warp_instructions) << "tbc/" << perm;
    }
    if (!analyse) continue;
    const InstructionTotals& t = analysis.totals();
    EXPECT_EQ(st.warp_instructions, t.nw_tbc[analysis.permutation_index("none")]);
    EXPECT_EQ(st.thread_instructions, t.threads);
    if (!order_dependent) {
      EXPECT_EQ(t.nw_no_compaction, base.warp_instructions);
    }
    EXPECT_LE(t.nw_ideal, st.warp_instructions);
  }

  // capri under every permutation: compacts a subset of the divergent paths,
  // so never more warps than without compaction.
  for (const std::string& perm : lane_permutation_names()) {
    ExecConfig capri;
    capri.warp_size = warp_size;
    capri.compaction = "capri";
    capri.permutation = perm;
    LaunchSpec capri_out = in;
    const RunStats cs = run_functional(program, s.entry, capri_out, capri);
    check(capri_out, "capri/" + perm);
    if (!order_dependent) {
      EXPECT_EQ(cs.thread_instructions, base.thread_instructions) << "capri/" << perm;
      EXPECT_LE(cs.warp_instructions, base.warp_instructions) << "capri/" << perm;
      EXPECT_LE(cs.capri_compactions, cs.capri_predictions) << "capri/" << perm;
    }
  }

  ExecConfig ideal;
  ideal.warp_size = warp_size;
  ideal.compaction = "ideal";
  LaunchSpec out = in;
  CompactionAnalysis analysis;
  const RunStats st = run_functional(program, s.entry, out, ideal, nullptr, &analysis);
  check(out, "ideal");
  EXPECT_EQ(st.warp_instructions, analysis.totals().nw_ideal);
  if (!order_dependent) {
    EXPECT_EQ(st.thread_instructions, base.thread_instructions);
  }
}

INSTANTIATE_TEST_SUITE_P(All, ScenarioCompaction,
                         ::testing::Combine(::testing::Range<size_t>(0, all().size()),
                                            ::testing::Values(8u, 32u)),
                         [](const ::testing::TestParamInfo<CompactionParam>& info) {
                           return all()[std::get<0>(info.param)].name + "_warp" +
                                  std::to_string(std::get<1>(info.param));
                         });

}  // namespace
}  // namespace warptlm::scenarios
