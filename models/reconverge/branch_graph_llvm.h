// A BranchGraph as an LLVM IR function, so that LLVM's own structurizer
// (the passes AMD's backend runs before instruction selection) can be run on
// the same CFG as the reconverging transformation and their inserted blocks
// compared (docs/reconverging-cfg.md, tools/bench/structurizer_compare.cc).
//
// The function is an amdgcn kernel: each reachable block calls @block(i32
// index) (so no pass merges or removes it) and ends as in the graph; a
// divergent branch tests the work-item id (a per-lane value for LLVM's
// divergence analysis), a uniform one a kernel argument. LLVM's entry block
// may have no predecessors, so a block "entry" comes first and jumps to the
// graph's entry. Blocks are labelled b<index>; unreachable ones are left out.
#pragma once

#include <string>

#include "reconverge/reconverging_cfg.h"

namespace warptlm {

// Throws CfgError for a graph check_branch_graph() refuses.
std::string branch_graph_llvm_ir(const BranchGraph& graph, const std::string& function_name);

// The number of basic blocks (labels) in LLVM IR text as opt -S prints it.
size_t llvm_ir_block_count(const std::string& ir);

}  // namespace warptlm
