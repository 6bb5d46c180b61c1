// Taint analysis (Rhu & Erez, ISCA 2013, Figure 10): is a value, and so a
// branch predicate, programmatic (P: derived only from thread/CTA indices,
// parameters and constants) or data-dependent (D: derived from a value loaded
// from memory)? Data flow only: control dependence does not taint. The rules
// are listed in docs/finalizer.md.
#pragma once

#include <vector>

#include "frontend/ir.h"
#include "frontend/program.h"

namespace warptlm {

// Taint of a special register: %clock, %clock64, %smid and %warpid are D
// (they differ run to run with scheduling and placement); the rest are P.
Taint special_taint(SpecialReg s);

// Runs the analysis over the whole module to a fixed point. Calls: a
// function's formals are D if any call site passes D; a return value is
// mapped back per call site through the callee's summary (which formals it
// depends on), so a helper called with P arguments returns P there. Returns, per
// instruction (index pc / 8), the taint of its guard predicate at that point;
// Programmatic for unguarded instructions. `cfgs` must hold one CFG per
// function, in module order.
std::vector<Taint> guard_taints(const Module& module, const std::vector<FunctionCfg>& cfgs);

}  // namespace warptlm
