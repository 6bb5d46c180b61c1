// The finalizer's passes over a decoded module; finalize() (program.h) runs
// analyze() and, when asked, inserts reconvergence markers and analyzes the
// renumbered module again.
#pragma once

#include <vector>

#include "frontend/program.h"

namespace warptlm {

// CFGs, dominator and post-dominator trees, reducibility, branch facts
// (reconvergence PC, structure, taint) and branch_index, without markers.
Program analyze(Module module);

// The distinct reconvergence PCs of the conditional branches of `program`
// (kExitPc excluded), sorted: where the markers go.
std::vector<Pc> reconvergence_pcs(const Program& program);

}  // namespace warptlm
