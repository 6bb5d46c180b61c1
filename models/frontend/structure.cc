#include "frontend/structure.h"

#include <algorithm>

#include "frontend/postdom.h"

namespace warptlm {
namespace {

// Depth of every reachable block in the dominator tree (entry: 0).
int32_t dom_depth(const std::vector<int32_t>& idom, int32_t b) {
  int32_t d = 0;
  for (; idom[b] >= 0; b = idom[b]) ++d;
  return d;
}

// Nearest common ancestor of two reachable blocks in the dominator tree.
int32_t common_dominator(const std::vector<int32_t>& idom, int32_t a, int32_t b) {
  int32_t da = dom_depth(idom, a), db = dom_depth(idom, b);
  for (; da > db; --da) a = idom[a];
  for (; db > da; --db) b = idom[b];
  while (a != b) {
    a = idom[a];
    b = idom[b];
  }
  return a;
}

}  // namespace

bool is_reducible(const FunctionCfg& cfg) {
  const size_t n = cfg.blocks.size();
  if (n == 0) return true;
  enum : uint8_t { kNew, kOnStack, kDone };
  std::vector<uint8_t> state(n, kNew);
  // Iterative DFS: (block, index of the next successor to visit).
  std::vector<std::pair<uint32_t, size_t>> stack{{0, 0}};
  state[0] = kOnStack;
  while (!stack.empty()) {
    auto& [b, next] = stack.back();
    const auto& succs = cfg.blocks[b].succs;
    if (next == succs.size()) {
      state[b] = kDone;
      stack.pop_back();
      continue;
    }
    uint32_t s = succs[next++];
    if (state[s] == kOnStack) {
      if (!tree_dominates(cfg.idom, static_cast<int32_t>(s), static_cast<int32_t>(b)))
        return false;  // a retreating edge that is not a back edge
    } else if (state[s] == kNew) {
      state[s] = kOnStack;
      stack.push_back({s, 0});
    }
  }
  return true;
}

bool is_structured_branch(const FunctionCfg& cfg, uint32_t block,
                          const std::vector<bool>& reachable) {
  if (!reachable[block]) return true;
  const int32_t reconv = cfg.ipdom[block];

  // S: the branch block plus everything it reaches without passing reconv.
  std::vector<bool> in_region(cfg.blocks.size(), false);
  std::vector<uint32_t> region{block}, work{block};
  in_region[block] = true;
  while (!work.empty()) {
    uint32_t b = work.back();
    work.pop_back();
    for (uint32_t s : cfg.blocks[b].succs) {
      if (static_cast<int32_t>(s) == reconv || in_region[s]) continue;
      in_region[s] = true;
      region.push_back(s);
      work.push_back(s);
    }
  }

  int32_t entry = static_cast<int32_t>(block);
  for (uint32_t b : region) entry = common_dominator(cfg.idom, entry, static_cast<int32_t>(b));
  if (!in_region[entry]) return false;  // the region has no single entry block

  for (uint32_t b : region) {
    if (static_cast<int32_t>(b) == entry) continue;
    for (uint32_t p : cfg.blocks[b].preds)
      if (reachable[p] && !in_region[p]) return false;  // a side entrance
  }
  if (entry == static_cast<int32_t>(block)) return true;
  const auto& succs = cfg.blocks[block].succs;
  return std::find(succs.begin(), succs.end(), static_cast<uint32_t>(entry)) != succs.end();
}

}  // namespace warptlm
