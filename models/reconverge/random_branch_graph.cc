#include "reconverge/random_branch_graph.h"

#include <algorithm>
#include <random>
#include <stdexcept>

namespace warptlm {

BranchGraph random_branch_graph(uint64_t seed, const RandomGraphShape& shape) {
  if (shape.blocks < 2) throw std::invalid_argument("random_branch_graph: at least 2 blocks");
  const uint32_t n = shape.blocks;
  std::mt19937_64 rng(seed);
  std::bernoulli_distribution two(shape.two_way), divergent(shape.divergent);
  BranchGraph g;
  g.blocks.resize(n);
  auto pick = [&](uint32_t lo, uint32_t hi) {  // uniform in [lo, hi]
    return lo + static_cast<uint32_t>(rng() % (uint64_t(hi) - lo + 1));
  };
  for (uint32_t b = 0; b + 1 < n; ++b) {
    const uint32_t far = shape.window ? std::min(n - 1, b + shape.window) : n - 1;
    std::vector<uint32_t>& succ = g.blocks[b].succ;
    succ.push_back(pick(b + 1, far));
    if (two(rng)) {
      const uint32_t lo = shape.window && b > shape.window ? b - shape.window : 0;
      const uint32_t other = pick(lo, far);
      if (other != succ[0]) succ.push_back(other);
    }
    if (succ.size() == 2 && rng() % 2) std::swap(succ[0], succ[1]);
    g.blocks[b].divergent = succ.size() == 2 && divergent(rng);
  }
  return g;
}

}  // namespace warptlm
