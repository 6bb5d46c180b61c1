#include "frontend/postdom.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dominator_tree.hpp>

namespace warptlm {
namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;

// Marks every node that can reach one already marked, walking edges backwards.
void mark_reaching(const std::vector<std::vector<uint32_t>>& preds, std::vector<bool>& marked,
                   std::vector<uint32_t> work) {
  while (!work.empty()) {
    uint32_t n = work.back();
    work.pop_back();
    for (uint32_t p : preds[n])
      if (!marked[p]) {
        marked[p] = true;
        work.push_back(p);
      }
  }
}

}  // namespace

std::vector<int32_t> immediate_dominators(const std::vector<std::vector<uint32_t>>& succs,
                                          uint32_t root) {
  const size_t n = succs.size();
  // Only edges out of nodes the root reaches: Boost's Lengauer-Tarjan leaves
  // a reachable node without a dominator when an unreachable node has an
  // edge into it (a branch retargeted past a block, found by fuzzing), and
  // such edges lie on no path from the root anyway.
  std::vector<bool> reached(n, false);
  std::vector<uint32_t> work{root};
  reached[root] = true;
  while (!work.empty()) {
    const uint32_t v = work.back();
    work.pop_back();
    for (uint32_t s : succs[v])
      if (!reached[s]) {
        reached[s] = true;
        work.push_back(s);
      }
  }
  Graph g(n);
  for (size_t v = 0; v < n; ++v)
    if (reached[v])
      for (uint32_t s : succs[v]) boost::add_edge(v, s, g);

  std::vector<Vertex> idom(n, boost::graph_traits<Graph>::null_vertex());
  auto pred_map = boost::make_iterator_property_map(idom.begin(), get(boost::vertex_index, g));
  boost::lengauer_tarjan_dominator_tree(g, boost::vertex(root, g), pred_map);

  std::vector<int32_t> out(n, -1);
  for (size_t v = 0; v < n; ++v)
    if (idom[v] != boost::graph_traits<Graph>::null_vertex())
      out[v] = static_cast<int32_t>(idom[v]);
  return out;
}

std::vector<int32_t> dominator_tree(const FunctionCfg& cfg) {
  if (cfg.blocks.empty()) return {};
  std::vector<std::vector<uint32_t>> succs(cfg.blocks.size());
  for (size_t b = 0; b < cfg.blocks.size(); ++b) succs[b] = cfg.blocks[b].succs;
  return immediate_dominators(succs, 0);
}

std::vector<uint32_t> infinite_loop_exits(const FunctionCfg& cfg) {
  const size_t n = cfg.blocks.size();
  std::vector<std::vector<uint32_t>> preds(n);
  std::vector<bool> reaches(n, false);
  std::vector<uint32_t> exiting;
  for (uint32_t b = 0; b < n; ++b) {
    preds[b] = cfg.blocks[b].preds;
    if (cfg.blocks[b].exits) {
      reaches[b] = true;
      exiting.push_back(b);
    }
  }
  mark_reaching(preds, reaches, exiting);

  std::vector<uint32_t> extra;
  for (uint32_t b = static_cast<uint32_t>(n); b-- > 0;) {
    if (reaches[b]) continue;
    extra.push_back(b);
    reaches[b] = true;
    mark_reaching(preds, reaches, {b});
  }
  return extra;
}

std::vector<int32_t> post_dominator_tree(const FunctionCfg& cfg) {
  const uint32_t n = static_cast<uint32_t>(cfg.blocks.size());
  if (n == 0) return {};
  const uint32_t exit = n;  // the virtual exit node

  // Reversed CFG: an edge s -> b for every CFG edge b -> s.
  std::vector<std::vector<uint32_t>> rev(n + 1);
  for (uint32_t b = 0; b < n; ++b) {
    for (uint32_t s : cfg.blocks[b].succs) rev[s].push_back(b);
    if (cfg.blocks[b].exits) rev[exit].push_back(b);
  }
  for (uint32_t b : infinite_loop_exits(cfg)) rev[exit].push_back(b);

  std::vector<int32_t> idom = immediate_dominators(rev, exit);
  idom.pop_back();  // the virtual exit itself
  for (int32_t& d : idom)
    if (d == static_cast<int32_t>(exit)) d = -1;
  return idom;
}

bool tree_dominates(const std::vector<int32_t>& idom, int32_t a, int32_t b) {
  for (int32_t x = b; x >= 0; x = idom[x])
    if (x == a) return true;
  return false;
}

}  // namespace warptlm
