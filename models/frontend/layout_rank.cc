#include "frontend/layout_rank.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

namespace warptlm {
namespace {

constexpr int32_t kNone = -1;

// Bourdoncle's hierarchical ordering of one CFG. Runs once per function at
// finalize time; the CFGs are small, so clarity wins over reusing buffers.
class WeakTopologicalOrder {
 public:
  explicit WeakTopologicalOrder(const FunctionCfg& cfg) : cfg_(cfg), n_(cfg.blocks.size()) {}

  // Appends the blocks of `nodes` (ascending) to `out`, edges into `head`
  // ignored (kNone: none).
  void order(const std::vector<uint32_t>& nodes, int32_t head, std::vector<uint32_t>& out) const {
    std::vector<uint8_t> in_set(n_, 0);
    for (uint32_t v : nodes) in_set[v] = 1;
    auto edge = [&](uint32_t w) { return in_set[w] && static_cast<int32_t>(w) != head; };

    const std::vector<int32_t> comp = components(nodes, edge);
    const int32_t k = 1 + *std::max_element(comp.begin(), comp.end());
    std::vector<std::vector<uint32_t>> members(k);
    for (uint32_t v : nodes) members[comp[v]].push_back(v);  // ascending, as `nodes`
    std::vector<std::vector<int32_t>> next(k);
    std::vector<unsigned> indegree(k, 0);
    for (uint32_t v : nodes)
      for (uint32_t w : cfg_.blocks[v].succs)
        if (edge(w) && comp[w] != comp[v]) {
          next[comp[v]].push_back(comp[w]);
          ++indegree[comp[w]];
        }
    // Kahn's algorithm; among ready components the one that starts earliest
    // in the original layout goes first.
    using Ready = std::pair<uint32_t, int32_t>;  // (first block, component)
    std::priority_queue<Ready, std::vector<Ready>, std::greater<Ready>> ready;
    for (int32_t c = 0; c < k; ++c)
      if (indegree[c] == 0) ready.push({members[c].front(), c});
    while (!ready.empty()) {
      const int32_t c = ready.top().second;
      ready.pop();
      if (members[c].size() == 1) {
        out.push_back(members[c][0]);  // a block (a self-loop is contiguous anyway)
      } else {
        order(members[c], loop_head(members[c]), out);
      }
      for (int32_t d : next[c])
        if (--indegree[d] == 0) ready.push({members[d].front(), d});
    }
  }

 private:
  // Strongly connected components (Tarjan, iterative) of `nodes` along the
  // edges `edge` accepts; component ids per block (kNone outside `nodes`).
  template <typename Edge>
  std::vector<int32_t> components(const std::vector<uint32_t>& nodes, const Edge& edge) const {
    std::vector<int32_t> index(n_, kNone), low(n_, 0), comp(n_, kNone);
    std::vector<uint8_t> on_stack(n_, 0);
    std::vector<uint32_t> stack;
    std::vector<std::pair<uint32_t, size_t>> calls;  // (block, next successor to look at)
    int32_t counter = 0, comps = 0;
    auto enter = [&](uint32_t v) {
      index[v] = low[v] = counter++;
      stack.push_back(v);
      on_stack[v] = 1;
      calls.push_back({v, 0});
    };
    for (uint32_t s : nodes) {
      if (index[s] != kNone) continue;
      enter(s);
      while (!calls.empty()) {
        const uint32_t v = calls.back().first;
        const std::vector<uint32_t>& succs = cfg_.blocks[v].succs;
        if (calls.back().second < succs.size()) {
          const uint32_t w = succs[calls.back().second++];
          if (!edge(w)) continue;
          if (index[w] == kNone)
            enter(w);
          else if (on_stack[w])
            low[v] = std::min(low[v], index[w]);
          continue;
        }
        if (low[v] == index[v]) {
          uint32_t w;
          do {
            w = stack.back();
            stack.pop_back();
            on_stack[w] = 0;
            comp[w] = comps;
          } while (w != v);
          ++comps;
        }
        calls.pop_back();
        if (!calls.empty()) low[calls.back().first] = std::min(low[calls.back().first], low[v]);
      }
    }
    return comp;
  }

  // The loop's head: the function entry if the loop holds it, else the
  // earliest block entered from outside the loop (the header of a natural
  // loop; one of the entries of an irreducible one), else the earliest block.
  int32_t loop_head(const std::vector<uint32_t>& loop) const {
    std::vector<uint8_t> in_loop(n_, 0);
    for (uint32_t v : loop) in_loop[v] = 1;
    if (in_loop[0]) return 0;
    for (uint32_t v : loop)
      for (uint32_t p : cfg_.blocks[v].preds)
        if (!in_loop[p]) return static_cast<int32_t>(v);
    return static_cast<int32_t>(loop.front());
  }

  const FunctionCfg& cfg_;
  size_t n_;
};

}  // namespace

std::vector<uint32_t> layout_block_order(const FunctionCfg& cfg) {
  std::vector<uint32_t> out;
  if (cfg.blocks.empty()) return out;
  std::vector<uint32_t> all(cfg.blocks.size());
  for (uint32_t b = 0; b < all.size(); ++b) all[b] = b;
  WeakTopologicalOrder(cfg).order(all, kNone, out);
  return out;
}

std::vector<uint32_t> layout_ranks(const Module& module, const std::vector<FunctionCfg>& cfgs) {
  constexpr uint32_t kUnranked = ~uint32_t(0);
  std::vector<uint32_t> rank(module.code.size(), kUnranked);
  uint32_t next = 0;
  for (const FunctionCfg& cfg : cfgs)
    for (uint32_t b : layout_block_order(cfg))
      for (Pc pc = cfg.blocks[b].begin; pc < cfg.blocks[b].end; pc += kInstrBytes)
        rank[pc / kInstrBytes] = next++;
  for (uint32_t& r : rank)
    if (r == kUnranked) r = next++;
  return rank;
}

}  // namespace warptlm
