// One kernel launch as the GPU's SMs see it: the program, the grid, the
// memories every CTA shares, and what one CTA needs of an SM's resources.
// Built by the GPU top from its control registers; read-only to the SMs.
#pragma once

#include <cstdint>
#include <memory>

#include "config/platform_config.h"
#include "exec/cta_fit.h"
#include "exec/cta_memory.h"
#include "exec/launch.h"
#include "frontend/program.h"
#include "memory/global_write_observer.h"
#include "semantics/register_file.h"
#include "sm/scoreboard/register_operands.h"

namespace warptlm {

struct KernelLaunch {
  uint64_t id = 0;  // launch number on this GPU, from 1
  const Program* program = nullptr;
  const Function* kernel = nullptr;
  Dim3 grid, block;
  uint32_t dynamic_shared = 0;  // bytes per CTA
  // A cooperative launch's grid workspace (GRID_WORKSPACE); 0: an ordinary launch.
  uint64_t grid_workspace = 0;
  KernelMemory* memory = nullptr;  // global memory, module globals, constants, parameters
  // Told of every global write at issue (the memory port keeps its in-flight writes current).
  GlobalWriteObserver* global_writes = nullptr;
  CtaResources per_cta;             // see cta_resources()
  uint64_t instruction_budget = 0;  // warp instructions before a runaway-kernel fault
  // The register layouts of the program's functions for the GPU's warp
  // size: one copy for every SM's issuer.
  RegisterLayouts layouts;
  // Warp instructions all SMs issued in this launch so far: the budget is the
  // launch's, as in functional mode, not each SM's. (SystemC runs the SMs in
  // one thread: a plain counter.)
  mutable uint64_t issued = 0;
  // The registers each instruction of `operands_program` reads and writes:
  // made by the first SM that starts a CTA of a program and shared by all
  // (each SM used to build its own copy, 30 copies of every row competing
  // for the host's caches).
  mutable std::shared_ptr<const OperandTable> operands;
  mutable const Program* operands_program = nullptr;
};

}  // namespace warptlm
