// The reconverging transformation applied to a finalized program's
// functions: each function's CFG (frontend/cfg.h) as a BranchGraph with one
// exit block joining its returns, the transformed CFG, and its text and
// Graphviz views for `warptlm analyze --reconverging`.
//
// A conditional branch is divergent unless it is uniform: bra.uni (the
// compiler's claim that every active thread agrees), or a predicate the
// uniformity analysis (reconverge/uniformity.h) finds uniform; guarded
// returns and exits are divergent. docs/reconverging-cfg.md.
#pragma once

#include <string>
#include <vector>

#include "frontend/program.h"
#include "reconverge/reconverging_cfg.h"

namespace warptlm {

struct FunctionReconvergence {
  uint32_t function = 0;
  BranchGraph graph;      // B0..Bn-1 as in the function's CFG, then "exit"
  std::vector<Pc> begin;  // per block of `graph`: its first pc (the exit block: kExitPc)
  ReconvergingCfg cfg;    // the transformed graph
};

// The function's blocks as a BranchGraph: successor 0 is a branch's target
// (or the exit for a guarded ret/exit/trap), successor 1 the fall-through.
BranchGraph function_branch_graph(const Program& program, uint32_t function,
                                  std::vector<Pc>* begin = nullptr);

// Throws CfgError prefixed with the function's name when its CFG cannot be
// made reconverging (a block that cannot reach the exit).
FunctionReconvergence reconverge_function(const Program& program, uint32_t function);

// A pc as `warptlm analyze` prints it: 0x0040, or "exit" for kExitPc.
std::string pc_text(Pc pc);

// Blocks with their pcs and successors, divergent branches marked, and each
// flow block's routes ("from B3 for B5 -> flow1").
std::string reconverging_text(const FunctionReconvergence& r);
// A Graphviz digraph: original blocks as boxes, flow blocks as dashed boxes,
// uniform edges dotted.
std::string reconverging_dot(const Program& program, const FunctionReconvergence& r);

}  // namespace warptlm
