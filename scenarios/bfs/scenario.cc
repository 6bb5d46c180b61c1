// bfs: BFS, level-synchronous breadth-first search over CSR graphs. One launch
// runs whole searches: CTA g searches its own random directed graph of 1024
// vertices from the graph's vertex 0, looping over levels inside the kernel
// (see kernel.cu). Size n = total vertices, a multiple of 1024 (n / 1024
// graphs, one CTA of 256 threads each).
//
// Each graph: every vertex but the source gets, with probability 7/8, an
// in-edge from a random earlier vertex (a random recursive tree, so most
// vertices are reachable), and every vertex gets 0..3 further out-edges to
// random vertices (shortcuts, duplicates and self-loops allowed). The
// vertices 1..1023 are then relabelled by a random permutation so that the
// frontier is scattered over the threads. Out-degrees run from 0 to about 15
// (mostly 1..4), searches take about 10 levels (up to ~13), and about 4% of
// the vertices are unreachable (cost -1).
#include <cstdint>
#include <deque>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "builtin.h"
#include "common/buffers.h"
#include "common/compare.h"
#include "common/draw.h"
#include "common/size_rules.h"

namespace warptlm::scenarios {
namespace {

constexpr const char* kName = "bfs";
constexpr uint32_t kNodes = 1024;  // vertices per graph; the kernel's shared arrays hold 1024
constexpr uint32_t kBlock = 256;
constexpr uint64_t kMaxN = uint64_t(1) << 20;
constexpr uint64_t kTreeEdgeOdds = 8;  // a vertex has a tree in-edge unless a draw below 8 is 0
constexpr uint64_t kMaxExtraEdges = 3;
constexpr size_t kRowStart = 0, kEdges = 1, kCost = 2;  // buffer indices
constexpr size_t kArgNodes = 3;

// Appends one graph's adjacency lists (local vertex indices) to `adjacency`.
void draw_graph(std::mt19937_64& rng, std::vector<std::vector<uint32_t>>& adjacency) {
  std::vector<std::vector<uint32_t>> out(kNodes);
  for (uint32_t v = 1; v < kNodes; ++v)
    if (draw_below(rng, kTreeEdgeOdds) != 0) out[draw_below(rng, v)].push_back(v);
  for (uint32_t v = 0; v < kNodes; ++v) {
    uint64_t extra = draw_below(rng, kMaxExtraEdges + 1);
    for (uint64_t k = 0; k < extra; ++k) out[v].push_back(uint32_t(draw_below(rng, kNodes)));
  }
  // Relabel 1..kNodes-1 (Fisher-Yates); the source stays vertex 0.
  std::vector<uint32_t> label(kNodes);
  std::iota(label.begin(), label.end(), 0u);
  for (uint32_t i = kNodes - 1; i > 1; --i) std::swap(label[i], label[1 + draw_below(rng, i)]);
  std::vector<std::vector<uint32_t>> relabelled(kNodes);
  for (uint32_t v = 0; v < kNodes; ++v)
    for (uint32_t head : out[v]) relabelled[label[v]].push_back(label[head]);
  for (auto& list : relabelled) adjacency.push_back(std::move(list));
}

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, kNodes, kMaxN, kNodes);
  std::mt19937_64 rng(seed);
  std::vector<std::vector<uint32_t>> adjacency;
  for (uint64_t g = 0; g < n / kNodes; ++g) draw_graph(rng, adjacency);
  // CSR over all graphs: row_start is global, edge heads are local.
  std::vector<uint32_t> row_start{0}, edges;
  for (const auto& list : adjacency) {
    edges.insert(edges.end(), list.begin(), list.end());
    row_start.push_back(uint32_t(edges.size()));
  }
  LaunchSpec l;
  l.grid.x = uint32_t(n / kNodes);
  l.block.x = kBlock;
  l.buffers.push_back(make_buffer("row_start", row_start));
  l.buffers.push_back(make_buffer("edges", edges));
  l.buffers.push_back(poisoned_buffer("cost", n));
  l.args = {KernelArg::buffer_arg(kRowStart), KernelArg::buffer_arg(kEdges),
            KernelArg::buffer_arg(kCost), KernelArg::scalar(Type::U32, kNodes)};
  return l;
}

// The host reference: a queue-based BFS of each graph from its vertex 0.
std::vector<int32_t> bfs_levels(const std::vector<uint32_t>& row_start,
                                const std::vector<uint32_t>& edges, uint32_t nodes) {
  size_t n = row_start.size() - 1;
  std::vector<int32_t> cost(n, -1);
  for (size_t base = 0; base < n; base += nodes) {
    std::deque<uint32_t> queue{0};
    cost[base] = 0;
    while (!queue.empty()) {
      uint32_t v = queue.front();
      queue.pop_front();
      for (uint32_t e = row_start[base + v]; e < row_start[base + v + 1]; ++e) {
        uint32_t head = edges.at(e);
        if (head >= nodes) throw std::invalid_argument(std::string(kName) + ": edge out of graph");
        if (cost[base + head] < 0) {
          cost[base + head] = cost[base + v] + 1;
          queue.push_back(head);
        }
      }
    }
  }
  return cost;
}

LaunchSpec expected(const LaunchSpec& in) {
  buffer_at(kName, in, kCost);  // throws unless the launch is one make_launch built
  require_arg_count(kName, in, kArgNodes + 1);
  uint32_t nodes = uint32_t(in.args[kArgNodes].bits);
  auto row_start = read_buffer<uint32_t>(in.buffers[kRowStart]);
  auto edges = read_buffer<uint32_t>(in.buffers[kEdges]);
  if (nodes == 0 || row_start.empty() || (row_start.size() - 1) % nodes != 0)
    throw std::invalid_argument(std::string(kName) + ": row_start does not fit the graph size");
  return with_buffer(in, kCost, bfs_levels(row_start, edges, nodes));
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  return check_buffer<int32_t>(kName, expected(in), out, kCost);
}

}  // namespace

Scenario make_bfs() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title = "Breadth-first search levels, one whole level-synchronous search per CTA (CSR graphs)";
  s.mirrors = "BFS, Breadth first search (Rodinia bfs, SLP Table 1)";
  s.divergence = {Divergence::Data, Divergence::LoopTrip};
  s.entry = "bfs_levels";
  s.sizes = {{"test", kNodes}, {"study", 128 * kNodes}};
  s.min_n = kNodes;
  s.max_n = kMaxN;
  s.n_multiple = kNodes;
  return s;
}

}  // namespace warptlm::scenarios
