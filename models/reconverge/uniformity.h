// Which conditional branches of a function are uniform: every lane of a warp
// that executes one agrees on its predicate, so compiler-side reconvergence
// keeps it a scalar branch (no exec-mask code, no flow block) as AMD's
// compilers do with their divergence analysis. docs/reconverging-cfg.md,
// "Uniform branches", gives the rules; in short a register is divergent when
// a value written to it depends on a per-lane source (%tid, %laneid, a local
// or generic load, an atomic, a shuffle, a call's result...), on a divergent
// register, on a divergent guard, or is written inside the region of a
// divergent branch (between the branch and its immediate post-dominator:
// lanes that did not run the write keep their old value). Flow-insensitive
// and intra-procedural, so it errs towards divergent; iterated to a fixed
// point over the branches it finds divergent.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/program.h"

namespace warptlm {

// Per block of program.cfgs[function]: true when the block ends in a guarded
// `bra` (not bra.uni: that is uniform by the compiler's word) whose
// predicate is uniform. Guarded ret, exit and trap are never reported
// uniform.
std::vector<bool> uniform_branch_blocks(const Program& program, uint32_t function);

}  // namespace warptlm
