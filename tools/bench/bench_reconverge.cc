// The reconverging-CFG transformation's time on generated CFGs of growing
// size (issue 20: it runs once per program at finalisation). Prints blocks,
// flow blocks inserted and milliseconds per graph, for graphs whose second
// edges are local (within 16 blocks, like compiled code) and anywhere.
//   build/tools/bench/warptlm_bench_reconverge [max_blocks]
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "reconverge/random_branch_graph.h"
#include "reconverge/reconverging_cfg.h"

int main(int argc, char** argv) {
  const uint32_t max_blocks = argc > 1 ? static_cast<uint32_t>(std::atoi(argv[1])) : 10000;
  std::printf("%-8s %8s %8s %10s %12s\n", "edges", "blocks", "flow", "ms", "us/block");
  for (uint32_t window : {16u, 0u})
    for (uint32_t n = 100; n <= max_blocks; n *= 10) {
      warptlm::RandomGraphShape shape;
      shape.blocks = n;
      shape.window = window;
      const warptlm::BranchGraph g = warptlm::random_branch_graph(n, shape);
      const auto start = std::chrono::steady_clock::now();
      const warptlm::ReconvergingCfg r = warptlm::make_reconverging(g);
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      std::printf("%-8s %8u %8zu %10.2f %12.2f\n", window ? "local" : "anywhere", n,
                  r.flow_blocks(), ms, 1000.0 * ms / n);
    }
  return 0;
}
