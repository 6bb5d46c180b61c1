// Topological layout ranks: each instruction's position in a virtual code
// layout in which control flows forward except along loop back edges. Schemes
// that run "the path with the smaller PC first" (implicit paired-path
// comparison) compare these ranks instead of raw PCs, because clang's block
// layout is not topological (a rotated loop's latch, with its bar.sync, sits
// before the loop body).
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/ir.h"
#include "frontend/program.h"

namespace warptlm {

// Ranks 0..N-1 (N = module.code.size()), indexed by pc / kInstrBytes; a
// permutation. Per function, in the order of module.functions, blocks are laid
// out by a hierarchical topological order (Bourdoncle's weak topological
// order): the strongly connected components of the CFG in topological order,
// each loop (a non-trivial component) contiguous, its head first and its
// body ordered the same way with the edges into the head ignored. Hence
//   - along every edge that is not into the head of an enclosing loop, the
//     rank increases: a branch's IPDOM ranks after both of its sides;
//   - every block of a loop ranks before every block after the loop, so
//     lanes that leave a loop wait (higher rank) for those still in it.
// Ties (components with no order between them) keep the original layout
// order. Instructions in no block (none in practice) rank last, in pc order.
std::vector<uint32_t> layout_ranks(const Module& module, const std::vector<FunctionCfg>& cfgs);

// The block order behind the ranks, for one function (tests and docs).
std::vector<uint32_t> layout_block_order(const FunctionCfg& cfg);

}  // namespace warptlm
