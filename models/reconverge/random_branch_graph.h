// Random CFGs for property tests and benchmarks of the reconverging
// transformation: n blocks, the last one the exit; block i < n - 1 has a
// successor after it (so every block reaches the exit) and, with probability
// `two_way`, a second one (backward edges, irreducible cycles and self loops
// arise), within `window` blocks of it (0: anywhere). A two-way branch is
// divergent with probability `divergent`. Deterministic for a seed.
#pragma once

#include <cstdint>

#include "reconverge/reconverging_cfg.h"

namespace warptlm {

struct RandomGraphShape {
  uint32_t blocks = 10;
  double two_way = 2.0 / 3.0;
  double divergent = 1.0;
  uint32_t window = 0;
};

BranchGraph random_branch_graph(uint64_t seed, const RandomGraphShape& shape);

}  // namespace warptlm
