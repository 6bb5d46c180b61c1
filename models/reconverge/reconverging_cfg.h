// Compiler-side reconvergence (seed 001, Wahlster): a CFG is reconverging
// when every divergent two-way branch has one successor that post-dominates
// it. make_reconverging() turns any CFG with one exit (unstructured and
// irreducible ones included) into a reconverging one with the open-tree
// algorithm: blocks are processed in an order with the exit last, an open
// tree keeps the processed blocks that still have unprocessed edges, and the
// open edges of an armed divergent subtree are rerouted through a new flow
// block. A flow block decides per lane where to go from where the lane came
// from and which original block it was heading for (its routes, the phi
// conditions of the slides). docs/reconverging-cfg.md describes the choices.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace warptlm {

// The input: blocks by index, each ending with no branch (the exit), a jump
// (one successor) or a two-way branch (successor 0 when the condition holds,
// successor 1 otherwise; the two differ).
struct BranchGraph {
  struct Block {
    std::vector<uint32_t> succ;
    bool divergent = false;  // a two-way branch whose condition may differ between lanes
    std::string name;        // for messages and graphs; "" names it by index
  };
  std::vector<Block> blocks;
  uint32_t entry = 0;

  std::string block_name(uint32_t b) const;
};

// A CFG the transformation cannot take (several exits, a block that cannot
// reach the exit, a malformed block); what() names the block and the reason.
class CfgError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct ReconvergingCfg {
  // A lane that reaches a flow block from block `from`, heading for original
  // block `intent`, continues to block `to`.
  struct Route {
    uint32_t from, intent, to;
  };
  struct Block {
    std::vector<uint32_t> succ;  // at most two, distinct
    bool divergent = false;      // a two-way branch that lanes may take both ways
    bool flow = false;           // inserted by the transformation
    std::string name;
    // Original blocks: per original successor edge, the block it now leads
    // to (its target, or the flow block it was rerouted through).
    std::vector<uint32_t> edge_to;
    std::vector<uint32_t> original_succ;
    std::vector<Route> routes;  // flow blocks
  };
  std::vector<Block> blocks;  // the input's blocks, in their order, then the flow blocks
  uint32_t entry = 0, exit = 0;
  size_t original_blocks = 0;
  std::vector<uint32_t> order;  // the processing order (reachable original blocks, exit last)

  size_t flow_blocks() const { return blocks.size() - original_blocks; }
  // Where a lane at flow block `at`, arrived from `from` heading for `intent`,
  // goes next. Throws std::logic_error when no route says.
  uint32_t route(uint32_t at, uint32_t from, uint32_t intent) const;
};

// Checks the graph: successors in range, at most two and distinct, exactly
// one exit reachable from the entry, and every reachable block reaching it.
// Throws CfgError.
void check_branch_graph(const BranchGraph& graph);

// Whether every reachable divergent two-way branch has a successor that
// post-dominates it.
bool is_reconverging(const BranchGraph& graph);
bool is_reconverging(const ReconvergingCfg& cfg);

// The blocks of `cfg` its entry reaches; each block's immediate
// post-dominator (-1: the exit itself, or a block that cannot reach it).
std::vector<bool> reachable_blocks(const BranchGraph& graph);
std::vector<bool> reachable_blocks(const ReconvergingCfg& cfg);
std::vector<int32_t> immediate_post_dominators(const ReconvergingCfg& cfg);

// The default processing order: a depth-first preorder from the entry
// (successor 0 first), the exit moved last. Only reachable blocks.
std::vector<uint32_t> reconvergence_order(const BranchGraph& graph);

// The transformation, in `order` (every reachable block once, the exit
// last) or the default one. A graph that is already reconverging comes back
// unchanged (no flow blocks). Throws CfgError for a graph check_branch_graph
// refuses or a bad order.
ReconvergingCfg make_reconverging(const BranchGraph& graph, const std::vector<uint32_t>& order);
ReconvergingCfg make_reconverging(const BranchGraph& graph);

}  // namespace warptlm
