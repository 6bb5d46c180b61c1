// Dominator and post-dominator trees (Boost.Graph Lengauer-Tarjan). The
// post-dominator tree of a function is rooted at a virtual exit node that
// every ret/exit block (and every block falling off the end) feeds.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/program.h"

namespace warptlm {

// Immediate dominator of every node of the graph given by successor lists,
// for paths starting at `root`: -1 for the root and for nodes the root cannot
// reach.
std::vector<int32_t> immediate_dominators(const std::vector<std::vector<uint32_t>>& succs,
                                          uint32_t root);

// Forward dominator tree of a CFG (root: blocks[0]).
std::vector<int32_t> dominator_tree(const FunctionCfg& cfg);

// Blocks from which no path reaches the virtual exit (infinite loops) get an
// extra edge to the virtual exit so that every block is post-dominated by it.
// Returns those blocks: repeatedly, the highest-index block that still cannot
// reach the exit is chosen (for a `L: ... bra L` loop, the block holding the
// backward bra), as if the loop left from its bottom.
std::vector<uint32_t> infinite_loop_exits(const FunctionCfg& cfg);

// Immediate post-dominator of every block; -1 = the virtual exit. Computed as
// the dominator tree of the reversed CFG rooted at the virtual exit, with the
// extra edges of infinite_loop_exits().
std::vector<int32_t> post_dominator_tree(const FunctionCfg& cfg);

// True if `a` dominates `b` in the tree `idom` (every node dominates itself).
bool tree_dominates(const std::vector<int32_t>& idom, int32_t a, int32_t b);

}  // namespace warptlm
