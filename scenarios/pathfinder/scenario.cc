// pathfinder: Rodinia pathfinder (dynamic programming down the rows of a cost
// grid), one launch advancing a 16-row pyramid. Each CTA of 256 threads owns
// 256 - 2 * 16 = 224 output columns and loads 16 ghost columns on each side.
// Size n = number of columns (the last CTA is partly outside the grid).
#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "builtin.h"
#include "common/buffers.h"
#include "common/compare.h"
#include "common/draw.h"
#include "common/size_rules.h"

namespace warptlm::scenarios {
namespace {

constexpr const char* kName = "pathfinder";
constexpr uint32_t kBlock = 256;  // threads per CTA (the kernel's shared arrays hold 256)
constexpr uint32_t kHeight = 16;  // rows per pyramid = ghost columns per side
constexpr uint32_t kOwnCols = kBlock - 2 * kHeight;
constexpr uint64_t kMaxN = uint64_t(1) << 22;
constexpr size_t kWall = 0, kSrc = 1, kDst = 2;  // buffer indices
constexpr size_t kArgCols = 3, kArgHeight = 4;
constexpr uint64_t kMaxCost = 9;  // cell costs in [0, 9], as Rodinia draws them: many ties

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, 1, kMaxN);
  std::mt19937_64 rng(seed);
  // src: the costs of the row above the pyramid (its first row's own costs).
  std::vector<int32_t> src(n), wall(n * kHeight);
  for (auto& v : src) v = int32_t(draw_below(rng, kMaxCost + 1));
  for (auto& v : wall) v = int32_t(draw_below(rng, kMaxCost + 1));
  LaunchSpec l;
  l.grid.x = uint32_t(ceil_div(n, kOwnCols));
  l.block.x = kBlock;
  l.buffers.push_back(make_buffer("wall", wall));
  l.buffers.push_back(make_buffer("src", src));
  l.buffers.push_back(poisoned_buffer("dst", n));
  l.args = {KernelArg::buffer_arg(kWall), KernelArg::buffer_arg(kSrc), KernelArg::buffer_arg(kDst),
            KernelArg::scalar(Type::S32, n), KernelArg::scalar(Type::S32, kHeight)};
  return l;
}

// The host reference: the recurrence row by row over the whole width,
// neighbours clamped to the grid.
std::vector<int32_t> advance(std::vector<int32_t> cost, const std::vector<int32_t>& wall,
                             size_t rows) {
  size_t cols = cost.size();
  std::vector<int32_t> next(cols);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t x = 0; x < cols; ++x) {
      int32_t best = cost[x];
      if (x > 0) best = std::min(best, cost[x - 1]);
      if (x + 1 < cols) best = std::min(best, cost[x + 1]);
      next[x] = best + wall[r * cols + x];
    }
    cost.swap(next);
  }
  return cost;
}

LaunchSpec expected(const LaunchSpec& in) {
  buffer_at(kName, in, kDst);  // throws unless the launch is one make_launch built
  require_arg_count(kName, in, kArgHeight + 1);
  auto wall = read_buffer<int32_t>(in.buffers[kWall]);
  auto src = read_buffer<int32_t>(in.buffers[kSrc]);
  uint64_t cols = uint32_t(in.args[kArgCols].bits), rows = uint32_t(in.args[kArgHeight].bits);
  if (src.size() != cols || wall.size() != cols * rows)
    throw std::invalid_argument(std::string(kName) + ": src / wall do not match cols and height");
  return with_buffer(in, kDst, advance(src, wall, rows));
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  return check_buffer<int32_t>(kName, expected(in), out, kDst);
}

}  // namespace

Scenario make_pathfinder() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title = "Pathfinder dynamic programming: one 16-row pyramid with ghost zones per launch";
  s.mirrors = "Rodinia pathfinder (PPC paper, structured benchmarks, Figs. 7-8)";
  s.divergence = {Divergence::Programmatic};
  s.entry = "pathfinder_pyramid";
  s.sizes = {{"test", 1000}, {"study", uint64_t(1) << 16}};
  s.min_n = 1;
  s.max_n = kMaxN;
  return s;
}

}  // namespace warptlm::scenarios
