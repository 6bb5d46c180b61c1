// Basic blocks and control-flow edges of one function: the graph that the
// post-dominator, structure and taint analyses of the finalizer walk.
#pragma once

#include <cstdint>

#include "frontend/ir.h"
#include "frontend/program.h"

namespace warptlm {

// True for the instructions that end a basic block: bra, ret, exit and trap
// (guarded or not). call returns to the next instruction, so it does not.
bool is_block_terminator(const Instruction& in);

// Builds the blocks of `module.functions[function]` (fills blocks, succs, preds
// and BasicBlock::exits; ipdom, idom and the flags are left to the caller).
// Leaders are the function's first instruction, every branch target and every
// instruction after a terminator. Edges:
//   bra (unguarded, .uni or not)  -> target only
//   @p bra (even bra.uni)         -> target and fall-through
//   ret / exit / trap             -> virtual exit
//   @p ret / @p exit / @p trap    -> fall-through and virtual exit
//   emask.branchz L               -> L and fall-through
//   falling off the function end  -> virtual exit
// Throws std::invalid_argument on a branch target outside the function.
FunctionCfg build_cfg(const Module& module, uint32_t function);

// Index of the block of `cfg` holding `pc` (binary search); -1 if none does.
int32_t block_containing(const FunctionCfg& cfg, Pc pc);

// Blocks reachable from the entry block along CFG edges.
std::vector<bool> reachable_from_entry(const FunctionCfg& cfg);

}  // namespace warptlm
