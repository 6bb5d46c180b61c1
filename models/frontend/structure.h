// Reducibility of a CFG and structuredness of its conditional branches
// (definitions in docs/finalizer.md). Both read FunctionCfg::idom and ::ipdom,
// so the dominator and post-dominator trees must be filled in first.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/program.h"

namespace warptlm {

// A CFG is reducible iff every retreating edge of a depth-first search from
// the entry (an edge to a block still on the DFS stack) goes to a block that
// dominates its source, i.e. is a back edge. Unreachable blocks are ignored.
bool is_reducible(const FunctionCfg& cfg);

// The region of the branch ending block B with R = ipdom(B) is
//   S = {B} + every block reachable from B by a path that avoids R.
// Let E be the nearest common dominator of S. The branch is structured iff
//   1. E is in S and every edge from a reachable block outside S into S
//      enters E (single entry; edges leaving S all go to R by construction:
//      single exit), and
//   2. E == B, or B has an edge to E (B is the latch of the loop headed by E:
//      a loop's exit test at its bottom).
// A branch in a block unreachable from the entry is reported structured.
bool is_structured_branch(const FunctionCfg& cfg, uint32_t block,
                          const std::vector<bool>& reachable);

}  // namespace warptlm
