// CTA uniformity: does a conditional branch's guard hold the same value in
// every thread of a CTA that executes it? Then no thread block compaction
// is needed there, and a compiler that knew it could let the CTA's warps pass
// the branch without synchronising (sm.sync_uniform_branches; the SLP paper
// synchronises at every conditional branch). A divergence analysis in the
// manner of Coutinho et al. (PACT 2011), flow-insensitive per register and
// conservative; the rules are listed in docs/compaction.md, "Uniform
// branches".
#pragma once

#include <vector>

#include "frontend/ir.h"
#include "frontend/program.h"

namespace warptlm {

// Per instruction (index pc / 8): true for a guarded bra whose guard is
// CTA-uniform; false for everything else. `cfgs`: one per function, in
// module order, with ipdom filled.
std::vector<bool> cta_uniform_branches(const Module& module, const std::vector<FunctionCfg>& cfgs);

}  // namespace warptlm
