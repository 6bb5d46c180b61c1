// The reconverging-CFG transformation (seed 001): the slides' example, loops
// with several exits, irreducible loops, graphs that are already
// reconverging, bad input, and a property test on random graphs: the result
// is reconverging, and every lane, taking the same branch outcomes, runs the
// same sequence of original blocks in the result as in the input.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "lane_paths.h"
#include "reconverge/random_branch_graph.h"
#include "reconverge/reconverging_cfg.h"

namespace warptlm {
namespace {

using testing::expect_same_lanes;

// Blocks named by letter, each with its successors; `uniform` lists the
// two-way blocks whose branch is uniform (the others are divergent).
BranchGraph graph(const std::vector<std::vector<uint32_t>>& succ, const std::string& uniform = "") {
  BranchGraph g;
  for (uint32_t b = 0; b < succ.size(); ++b) {
    BranchGraph::Block blk;
    blk.succ = succ[b];
    blk.name = std::string(1, static_cast<char>('A' + b));
    blk.divergent = succ[b].size() == 2 && uniform.find(blk.name) == std::string::npos;
    g.blocks.push_back(blk);
  }
  return g;
}

std::set<uint32_t> succ_set(const ReconvergingCfg& r, uint32_t b) {
  return {r.blocks[b].succ.begin(), r.blocks[b].succ.end()};
}

// The slides' input CFG: A -> B, C; B -> D; C -> D, E; D -> D, F; E -> C, F.
BranchGraph slides_example() { return graph({{1, 2}, {3}, {3, 4}, {3, 5}, {2, 5}, {}}); }

TEST(ReconvergingCfg, TheSlidesExampleInTheirOrderGetsTheirTwoFlowBlocks) {
  const BranchGraph g = slides_example();
  EXPECT_FALSE(is_reconverging(g));
  // The slides' order A, B, D, C, E, F (a depth-first preorder, the exit last).
  const ReconvergingCfg r = make_reconverging(g, {0, 1, 3, 2, 4, 5});
  ASSERT_EQ(r.flow_blocks(), 2u);
  EXPECT_TRUE(is_reconverging(r));
  const uint32_t A = 0, B = 1, C = 2, D = 3, E = 4, F = 5, flow0 = 6, flow1 = 7;
  // flow0, made when C is reached (A is armed): A's edge to C and D's to F;
  // flow1, made by C's backward edge to D: flow0's edge to F and C's to E.
  EXPECT_EQ(succ_set(r, A), (std::set<uint32_t>{B, flow0}));
  EXPECT_EQ(succ_set(r, B), (std::set<uint32_t>{D}));
  EXPECT_EQ(succ_set(r, D), (std::set<uint32_t>{D, flow0}));
  EXPECT_EQ(succ_set(r, flow0), (std::set<uint32_t>{C, flow1}));
  EXPECT_EQ(succ_set(r, C), (std::set<uint32_t>{D, flow1}));
  EXPECT_EQ(succ_set(r, flow1), (std::set<uint32_t>{E, F}));
  EXPECT_EQ(succ_set(r, E), (std::set<uint32_t>{C, F}));
  EXPECT_TRUE(r.blocks[flow0].flow);
  EXPECT_EQ(r.blocks[flow0].name, "flow0");
  // Where each lane goes: by the block it left and the block it was heading for.
  EXPECT_EQ(r.route(flow0, A, C), C);
  EXPECT_EQ(r.route(flow0, D, F), flow1);
  EXPECT_EQ(r.route(flow1, flow0, F), F);
  EXPECT_EQ(r.route(flow1, C, E), E);
  expect_same_lanes(g, r, 64, 1);
}

TEST(ReconvergingCfg, TheSlidesExampleInTheDefaultOrder) {
  // Reverse postorder (successor 0 first), the exit last: A, B, C, D, E, F.
  const BranchGraph g = slides_example();
  EXPECT_EQ(reconvergence_order(g), (std::vector<uint32_t>{0, 1, 2, 3, 4, 5}));
  const ReconvergingCfg r = make_reconverging(g);
  EXPECT_TRUE(is_reconverging(r));
  EXPECT_EQ(r.flow_blocks(), 3u);  // the order matters, as the slides say
  expect_same_lanes(g, r, 64, 5);
}

TEST(ReconvergingCfg, AReconvergingGraphComesBackUnchanged) {
  // An if-then, a loop whose body branches back, and an if-then in a loop:
  // every divergent branch has a post-dominating successor.
  const BranchGraph g = graph({{1, 2}, {2}, {3, 2}, {4, 5}, {5}, {6, 3}, {}});
  ASSERT_TRUE(is_reconverging(g));
  const ReconvergingCfg r = make_reconverging(g);
  EXPECT_EQ(r.flow_blocks(), 0u);
  for (uint32_t b = 0; b < g.blocks.size(); ++b) EXPECT_EQ(r.blocks[b].succ, g.blocks[b].succ);
}

TEST(ReconvergingCfg, UniformBranchesNeedNoReconvergence) {
  // The slides' graph with every branch uniform: nothing to do.
  const BranchGraph g = graph({{1, 2}, {3}, {3, 4}, {3, 5}, {2, 5}, {}}, "ACDE");
  EXPECT_TRUE(is_reconverging(g));
  EXPECT_EQ(make_reconverging(g).flow_blocks(), 0u);
  // Only A divergent: its lanes meet again only at F.
  const BranchGraph mixed = graph({{1, 2}, {3}, {3, 4}, {3, 5}, {2, 5}, {}}, "CDE");
  const ReconvergingCfg r = make_reconverging(mixed);
  EXPECT_TRUE(is_reconverging(r));
  expect_same_lanes(mixed, r, 64, 2);
}

TEST(ReconvergingCfg, IrreducibleLoopWithTwoEntries) {
  // A enters the cycle B <-> C at B or at C; both leave to D.
  const BranchGraph g = graph({{1, 2}, {2, 3}, {1, 3}, {}});
  EXPECT_FALSE(is_reconverging(g));
  const ReconvergingCfg r = make_reconverging(g);
  EXPECT_TRUE(is_reconverging(r));
  EXPECT_GE(r.flow_blocks(), 1u);
  expect_same_lanes(g, r, 128, 3);
}

TEST(ReconvergingCfg, LoopWithSeveralExitsToDifferentTargets) {
  // A -> B; B (header) -> C, E; C -> B, F; E -> G; F -> G; G exit.
  const BranchGraph g = graph({{1}, {2, 4}, {1, 5}, {}, {6}, {6}, {}});
  // (D, index 3, is unreachable: it stays as it is.)
  EXPECT_FALSE(is_reconverging(g));
  const ReconvergingCfg r = make_reconverging(g);
  EXPECT_TRUE(is_reconverging(r));
  EXPECT_TRUE(r.blocks[3].succ.empty());
  expect_same_lanes(g, r, 128, 4);
}

TEST(ReconvergingCfg, BadGraphsAreRefusedWithTheBlockAndTheReason) {
  auto message = [](const BranchGraph& g) {
    try {
      make_reconverging(g);
    } catch (const CfgError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(graph({{1, 2}, {}, {}})),
            "the CFG has 2 exits (B, C); the transformation needs one: join them in one exit "
            "block first");
  EXPECT_EQ(message(graph({{1, 2}, {1}, {}})),
            "B cannot reach the exit C (an infinite loop): its lanes would never reconverge");
  EXPECT_EQ(message(graph({{1, 1}, {}})), "A branches to B both ways; make it a jump");
  EXPECT_EQ(message(graph({{1, 2, 3}, {3}, {3}, {}})),
            "A has 3 successors; a block ends in a jump or a two-way branch");
  EXPECT_EQ(message(graph({{5}, {}})), "A branches to 5, which is not a block");
  const BranchGraph ok = slides_example();
  EXPECT_THROW(make_reconverging(ok, {0, 1, 2, 3, 5, 4}), CfgError);  // exit not last
  EXPECT_THROW(make_reconverging(ok, {0, 1, 2, 5}), CfgError);        // blocks missing
  EXPECT_THROW(make_reconverging(ok, {0, 1, 1, 2, 3, 4, 5}), CfgError);
}

BranchGraph random_graph(std::mt19937& rng, uint32_t n, double divergent) {
  RandomGraphShape shape;
  shape.blocks = n;
  shape.divergent = divergent;
  return random_branch_graph(rng(), shape);
}

TEST(ReconvergingCfg, RandomGraphsBecomeReconvergingAndKeepEveryLanesPath) {
  std::mt19937 rng(20261128);
  unsigned transformed = 0;
  for (unsigned trial = 0; trial < 500; ++trial) {
    RandomGraphShape shape;
    shape.blocks = 3 + rng() % 14;
    shape.divergent = trial % 4 == 0 ? 0.5 : 1.0;
    shape.window = trial % 5 == 0 ? 3 : 0;  // some with local edges, as compiled code has
    const BranchGraph g = random_branch_graph(rng(), shape);
    SCOPED_TRACE("trial " + std::to_string(trial));
    const ReconvergingCfg r = make_reconverging(g);
    ASSERT_TRUE(is_reconverging(r));
    transformed += r.flow_blocks() > 0;
    for (const ReconvergingCfg::Block& b : r.blocks) {
      EXPECT_LE(b.succ.size(), 2u);
      EXPECT_TRUE(!b.divergent || b.succ.size() == 2) << b.name;
    }
    expect_same_lanes(g, r, 16, trial);
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(transformed, 100u);  // many random graphs needed flow blocks
}

// A reverse postorder of a depth-first search that takes successors in a
// random order, the exit moved last.
std::vector<uint32_t> random_reverse_postorder(const BranchGraph& g, std::mt19937& rng) {
  std::vector<uint32_t> post;
  std::vector<bool> seen(g.blocks.size(), false);
  std::function<void(uint32_t)> visit = [&](uint32_t b) {
    seen[b] = true;
    std::vector<uint32_t> s = g.blocks[b].succ;
    std::shuffle(s.begin(), s.end(), rng);
    for (uint32_t t : s)
      if (!seen[t]) visit(t);
    post.push_back(b);
  };
  visit(g.entry);
  std::vector<uint32_t> order(post.rbegin(), post.rend());
  const auto exit = std::find_if(order.begin(), order.end(),
                                 [&](uint32_t b) { return g.blocks[b].succ.empty(); });
  std::rotate(exit, exit + 1, order.end());
  return order;
}

TEST(ReconvergingCfg, AnyReversePostorderWorks) {
  std::mt19937 rng(7);
  for (unsigned trial = 0; trial < 300; ++trial) {
    const BranchGraph g = random_graph(rng, 3 + rng() % 12, 1.0);
    const std::vector<uint32_t> order = random_reverse_postorder(g, rng);
    SCOPED_TRACE("trial " + std::to_string(trial));
    const ReconvergingCfg r = make_reconverging(g, order);
    ASSERT_TRUE(is_reconverging(r));
    expect_same_lanes(g, r, 16, trial);
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace
}  // namespace warptlm
