// The finalised program: the decoded module plus the control-flow facts every
// reconvergence scheme asks for (per branch: reconvergence PC, structured or
// not, programmatic or data-dependent). Immutable; shared by every SM.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/ir.h"

namespace warptlm {

enum class Taint : uint8_t {
  Programmatic,   // depends only on tid/ctaid/ntid/nctaid, parameters, constants
  DataDependent,  // depends on a value loaded from memory (or another data-dependent value)
};
const char* taint_name(Taint t);  // "P" / "D"

struct BasicBlock {
  Pc begin = 0, end = 0;        // [begin, end) instruction PCs
  std::vector<uint32_t> succs;  // block indices within the function
  std::vector<uint32_t> preds;
  bool exits = false;  // has an edge to the virtual exit (ret/exit, or falls off the end)
};

struct FunctionCfg {
  uint32_t function = 0;           // index into Module::functions
  std::vector<BasicBlock> blocks;  // blocks[0] is the entry
  std::vector<int32_t> ipdom;      // immediate post-dominator block per block; -1 = virtual exit
  std::vector<int32_t> idom;       // immediate dominator per block; -1 = entry or unreachable
  bool reducible = true;
  bool structured = true;  // reducible and every conditional branch in it is structured
};

struct BranchInfo {
  Pc pc = 0;
  Pc target = 0;              // taken target
  Pc fallthrough = 0;         // pc + 8
  Pc reconv = kExitPc;        // IPDOM of the branch's block (its first PC); kExitPc = function exit
  bool conditional = false;   // guarded (also when .uni: that is only a hint, see uniform_hint)
  bool uniform_hint = false;  // bra.uni: the compiler claims all active threads agree
  bool structured = true;     // the region between branch and reconv is single-entry / single-exit
  Taint taint = Taint::Programmatic;
  // Guarded, and the guard is the same in every thread of a CTA that executes
  // the branch (frontend/uniformity.h): it never splits a CTA.
  bool cta_uniform = false;
};

struct FinalizeOptions {
  // Insert an explicit Reconverge instruction at every conditional branch's
  // reconvergence point (the explicit paired-path-comparison scheme needs them).
  bool insert_reconvergence_markers = false;
};

struct Program {
  Module module;
  std::vector<FunctionCfg> cfgs;      // one per function, same order as module.functions
  std::vector<BranchInfo> branches;   // every bra, sorted by pc
  std::vector<int32_t> branch_index;  // per instruction (pc / 8): index into branches or -1
  // Per instruction (pc / 8): its rank in a topological layout of the code
  // (frontend/layout_rank.h): forward along every edge but loop back edges,
  // loops contiguous. What implicit paired-path comparison compares.
  std::vector<uint32_t> layout_rank;

  const BranchInfo* branch_at(Pc pc) const {
    size_t i = pc / kInstrBytes;
    return i < branch_index.size() && branch_index[i] >= 0 ? &branches[branch_index[i]] : nullptr;
  }
};

// Builds CFGs, post-dominator trees (Boost.Graph), reconvergence PCs,
// structure/reducibility, taint and layout ranks; optionally inserts reconvergence markers
// (which renumbers PCs: branch targets and labels are updated).
Program finalize(Module module, const FinalizeOptions& options = {});

}  // namespace warptlm
