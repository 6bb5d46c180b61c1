// The program a run under a reconvergence scheme executes. A scheme runs one
// form of program (ProgramForm): the finalizer's as parsed, with Reconverge
// markers, or lowered to exec masks. Every caller that turns a module into a
// program for a run (both CLIs, Python, the GPU's command interface, the
// tests) calls prepare_program(), and every executor checks the form it got.
#pragma once

#include <string>

#include "frontend/program.h"
#include "simt/reconvergence_unit.h"

namespace warptlm {

// `module` finalized for form `form`: as parsed (Plain), with reconvergence
// markers (Markers), or finalized, lowered by lower_exec_masks() and finalized
// again (ExecMask). What finalize() throws propagates; CfgError
// (reconverge/reconverging_cfg.h) names the file, function, block and reason
// for a function the lowering cannot handle.
Program prepare_program(Module module, ProgramForm form);
// ... for the form scheme `scheme` runs (std::invalid_argument listing the
// known schemes for an unknown name).
Program prepare_program(Module module, const std::string& scheme);

// The form `program` has: ExecMask when it holds instructions the lowering
// wrote, Markers when every conditional branch's reconvergence point is a
// marker and there is at least one marker, otherwise Plain.
ProgramForm program_form(const Program& program);

// std::invalid_argument when `program` is not in the form scheme `scheme`
// runs (a program without markers for ppc_explicit, an unlowered one for
// exec_mask, a lowered one for any other scheme), saying how to prepare it.
// Every executor checks this before it runs a program.
void check_program_form(const Program& program, const std::string& scheme);

}  // namespace warptlm
