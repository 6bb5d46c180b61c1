// The property the reconverging transformation keeps: every lane, taking
// the same branch outcomes, runs the same sequence of original blocks in the
// transformed graph (following flow blocks' routes) as in the input.
#pragma once

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "reconverge/reconverging_cfg.h"

namespace warptlm::testing {

// The original blocks one lane runs, in order, when its k-th visit of block b
// takes successor decide(b, k) (at most `limit` blocks).
template <class Decide>
std::vector<uint32_t> lane_path(const BranchGraph& g, Decide decide, size_t limit) {
  std::vector<uint32_t> path;
  std::vector<unsigned> visits(g.blocks.size(), 0);
  uint32_t b = g.entry;
  while (path.size() < limit) {
    path.push_back(b);
    const std::vector<uint32_t>& s = g.blocks[b].succ;
    if (s.empty()) break;
    b = s.size() == 1 ? s[0] : s[decide(b, visits[b]++)];
  }
  return path;
}

template <class Decide>
std::vector<uint32_t> lane_path(const ReconvergingCfg& r, Decide decide, size_t limit) {
  std::vector<uint32_t> path;
  std::vector<unsigned> visits(r.original_blocks, 0);
  uint32_t b = r.entry;
  while (path.size() < limit) {
    path.push_back(b);
    const ReconvergingCfg::Block& blk = r.blocks[b];
    if (blk.original_succ.empty()) break;
    const unsigned i = blk.original_succ.size() == 1 ? 0 : decide(b, visits[b]++);
    const uint32_t intent = blk.original_succ[i];
    uint32_t from = b, at = blk.edge_to[i];
    for (unsigned hops = 0; r.blocks.at(at).flow; ++hops) {
      EXPECT_LT(hops, r.blocks.size()) << "a lane circles through flow blocks";
      if (hops >= r.blocks.size()) return path;
      const uint32_t next = r.route(at, from, intent);
      from = at;
      at = next;
    }
    EXPECT_EQ(at, intent) << "a lane from " << blk.name << " arrived at " << r.blocks[at].name
                          << " instead of " << r.blocks[intent].name;
    b = at;
  }
  return path;
}

// Every lane of `lanes`, with outcomes from a seeded hash of (lane, block,
// visit), runs the same original blocks in both graphs.
inline void expect_same_lanes(const BranchGraph& g, const ReconvergingCfg& r, unsigned lanes,
                              uint32_t seed) {
  for (unsigned lane = 0; lane < lanes; ++lane) {
    auto decide = [&](uint32_t b, unsigned k) {
      std::seed_seq s{seed, lane, b, k};
      std::mt19937 rng(s);
      return static_cast<unsigned>(rng() % 2);
    };
    const std::vector<uint32_t> before = lane_path(g, decide, 400);
    const std::vector<uint32_t> after = lane_path(r, decide, 400);
    ASSERT_EQ(before, after) << "lane " << lane;
  }
}

}  // namespace warptlm::testing
