// The reconverging-CFG transformation's time on generated CFGs of growing
// size (issue 20: it runs once per program at finalisation). Prints blocks,
// flow blocks inserted and milliseconds per graph, for graphs whose second
// edges are local (within 16 blocks, like compiled code) and anywhere. Given
// PTX files instead, it prints for each the time of finalize() and of what
// the exec_mask scheme adds (the lowering and the second finalize()), best of
// 20.
//   build/tools/bench/warptlm_bench_reconverge [max_blocks]
//   build/tools/bench/warptlm_bench_reconverge FILE.ptx...
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "frontend/program.h"
#include "frontend/ptx_parser.h"
#include "reconverge/exec_mask_lowering.h"
#include "reconverge/random_branch_graph.h"
#include "reconverge/reconverging_cfg.h"

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

void time_ptx(const std::string& path) {
  const warptlm::Module module = warptlm::parse_ptx_file(path);
  double finalize_ms = 1e30, lower_ms = 1e30;
  size_t flow = 0;
  for (int i = 0; i < 20; ++i) {
    auto start = std::chrono::steady_clock::now();
    const warptlm::Program plain = warptlm::finalize(module);
    finalize_ms = std::min(finalize_ms, ms_since(start));
    start = std::chrono::steady_clock::now();
    warptlm::ExecMaskLowering l = warptlm::lower_exec_masks(plain);
    const warptlm::Program lowered = warptlm::finalize(std::move(l.module));
    lower_ms = std::min(lower_ms, ms_since(start));
    flow = l.flow_blocks;
  }
  std::printf(
      "%s: %zu instructions, finalize %.3f ms, exec-mask lowering + finalize %.3f ms, "
      "%zu flow blocks\n",
      path.c_str(), module.code.size(), finalize_ms, lower_ms, flow);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]).size() > 4 &&
      std::string(argv[1]).rfind(".ptx") == std::string(argv[1]).size() - 4) {
    for (int i = 1; i < argc; ++i) time_ptx(argv[i]);
    return 0;
  }
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
