// The exec-mask lowering of compiler-side reconvergence (seed 001,
// docs/reconverging-cfg.md, "The lowering"): every function of a finalized
// program becomes its reconverging CFG laid out as code in which divergence
// is exec-mask instructions (emask.defer / emask.branchz / emask.join), flow
// blocks are code, and each lane's intent (the original block it heads for)
// lives in a register. The result runs under one pc and an exec mask
// (ExecMaskUnit) with the semantics of run_wave().
#pragma once

#include <cstddef>

#include "frontend/program.h"

namespace warptlm {

// The lowered functions' labels name their blocks too, as in the reconverging
// CFG ("%emask.B2", "%emask.flow0", "%emask.exit": the jumps' text names
// them without the prefix).
constexpr const char* kLoweredBlockPrefix = "%emask.";

struct ExecMaskLowering {
  // The lowered module (finalize() it again before running it): its written
  // instructions have Instruction::lowered set, and Module::flow_blocks says
  // how many flow blocks it got.
  Module module;
  size_t flow_blocks = 0;  // inserted, over all functions
  // Instructions the lowering wrote rather than copied: the emask.* operations,
  // intent and route setting, the jumps and the exit's ret (they replace the
  // original branches and returns).
  size_t mask_instructions = 0;
};

// Throws CfgError naming the function, block and reason for a function whose
// CFG cannot be made reconverging, and for code the lowering cannot place (a
// label used as a value).
ExecMaskLowering lower_exec_masks(const Program& program);

}  // namespace warptlm
