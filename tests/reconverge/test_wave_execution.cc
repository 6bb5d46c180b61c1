// Running a reconverging CFG with one pc and an exec mask (the semantics of
// the exec-mask lowering): every lane runs the same original blocks as
// alone in the input CFG, no lane is left waiting, and the warp ends.
#include <gtest/gtest.h>

#include <random>

#include "lane_paths.h"
#include "reconverge/random_branch_graph.h"
#include "reconverge/reconverging_cfg.h"
#include "reconverge/wave_execution.h"

namespace warptlm {
namespace {

LaneDecision seeded(uint32_t seed) {
  return [seed](unsigned lane, uint32_t block, unsigned visit) {
    std::seed_seq s{seed, lane, block, visit};
    std::mt19937 rng(s);
    return static_cast<unsigned>(rng() % 2);
  };
}

// Each lane's blocks under the warp equal its blocks alone in the input.
void expect_lanes_as_alone(const BranchGraph& g, const ReconvergingCfg& r, unsigned lanes,
                           uint32_t seed) {
  const LaneDecision decide = seeded(seed);
  const WaveRun run = run_wave(r, lanes, decide, 200000);
  ASSERT_TRUE(run.finished);
  for (unsigned l = 0; l < lanes; ++l) {
    const auto alone = testing::lane_path(
        g, [&](uint32_t b, unsigned k) { return decide(l, b, k); }, 1000000);
    ASSERT_EQ(run.lane_blocks[l], alone) << "lane " << l;
  }
}

TEST(WaveExecution, TheSlidesExampleRunsEveryLaneAsAlone) {
  const BranchGraph g = BranchGraph{{{{1, 2}, true, "A"},
                                     {{3}, false, "B"},
                                     {{3, 4}, true, "C"},
                                     {{3, 5}, true, "D"},
                                     {{2, 5}, true, "E"},
                                     {{}, false, "F"}},
                                    0};
  for (const auto& order : {std::vector<uint32_t>{0, 1, 3, 2, 4, 5}, reconvergence_order(g)}) {
    const ReconvergingCfg r = make_reconverging(g, order);
    for (uint32_t seed = 0; seed < 20; ++seed) expect_lanes_as_alone(g, r, 32, seed);
  }
}

TEST(WaveExecution, AnIfElseDefersOneSideAndJoinsAtTheFlowBlocksPrimary) {
  // A -> B (then), C (else); B, C -> D. The flow block joins them.
  const BranchGraph g{{{{1, 2}, true, "A"}, {{3}, false, "B"}, {{3}, false, "C"}, {{}, false, "D"}},
                      0};
  const ReconvergingCfg r = make_reconverging(g);
  ASSERT_EQ(r.flow_blocks(), 1u);
  // Lanes 0-1 take A's branch to B, lanes 2-3 go to C.
  const WaveRun run = run_wave(
      r, 4, [](unsigned lane, uint32_t, unsigned) { return lane < 2 ? 0u : 1u; }, 100);
  ASSERT_TRUE(run.finished);
  EXPECT_EQ(run.lane_blocks[0], (std::vector<uint32_t>{0, 1, 3}));
  EXPECT_EQ(run.lane_blocks[3], (std::vector<uint32_t>{0, 2, 3}));
  EXPECT_EQ(run.steps.front(), (std::pair<uint32_t, uint64_t>{0, 0xf}));
  EXPECT_EQ(run.steps.back(), (std::pair<uint32_t, uint64_t>{3, 0xf}));  // D: all rejoined
  EXPECT_EQ(run.steps.size(), 5u);                                       // A, B, flow, C, D
}

TEST(WaveExecution, RandomReconvergingGraphsRunEveryLaneAsAlone) {
  std::mt19937 rng(99);
  uint64_t deferrals = 0, joins = 0;
  for (unsigned trial = 0; trial < 300; ++trial) {
    RandomGraphShape shape;
    shape.blocks = 3 + rng() % 14;
    shape.window = trial % 3 == 0 ? 4 : 0;
    const BranchGraph g = random_branch_graph(rng(), shape);
    SCOPED_TRACE("trial " + std::to_string(trial));
    const ReconvergingCfg r = make_reconverging(g);
    expect_lanes_as_alone(g, r, trial % 2 ? 32 : 7, trial);
    const WaveRun run = run_wave(r, 32, seeded(trial), 200000);
    deferrals += run.deferrals;
    joins += run.joins;
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(deferrals, 0u);
  EXPECT_GT(joins, 0u);
}

TEST(WaveExecution, AGraphThatIsNotReconvergingIsRefused) {
  // An if-else as it is: neither side post-dominates A.
  const BranchGraph g{{{{1, 2}, true, "A"}, {{3}, false, "B"}, {{3}, false, "C"}, {{}, false, "D"}},
                      0};
  ReconvergingCfg raw;
  raw.original_blocks = 4;
  raw.exit = 3;
  for (const BranchGraph::Block& b : g.blocks) {
    ReconvergingCfg::Block rb;
    rb.succ = rb.original_succ = rb.edge_to = b.succ;
    rb.divergent = b.divergent;
    rb.name = b.name;
    raw.blocks.push_back(rb);
  }
  EXPECT_THROW(run_wave(raw, 4, seeded(1), 100), std::logic_error);
}

}  // namespace
}  // namespace warptlm
