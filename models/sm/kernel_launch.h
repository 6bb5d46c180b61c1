// One kernel launch as the GPU's SMs see it: the program, the grid, the
// memories every CTA shares, and what one CTA needs of an SM's resources.
// Built by the GPU top from its control registers; read-only to the SMs.
#pragma once

#include <cstdint>
#include <memory>

#include "config/platform_config.h"
#include "exec/cta_memory.h"
#include "exec/launch.h"
#include "frontend/program.h"
#include "semantics/register_file.h"
#include "sm/scoreboard/register_operands.h"

namespace warptlm {

// What one CTA occupies on an SM while it runs.
struct CtaResources {
  unsigned threads = 0;
  unsigned warps = 0;
  unsigned registers = 0;      // 32-bit registers: per-thread registers x warps x warp size
  uint64_t shared_memory = 0;  // static + dynamic bytes
};

struct KernelLaunch {
  uint64_t id = 0;  // launch number on this GPU, from 1
  const Program* program = nullptr;
  const Function* kernel = nullptr;
  Dim3 grid, block;
  uint32_t dynamic_shared = 0;      // bytes per CTA
  KernelMemory* memory = nullptr;   // global memory, module globals, constants, parameters
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

// The resources one CTA of `kernel` launched with `block` and
// `dynamic_shared` needs under `config`. Registers per thread are the
// kernel's declared 32-bit register count (64-bit registers count twice,
// predicates not at all), rounded up to a multiple of 4 as allocation
// granularity.
CtaResources cta_resources(const Program& program, const Function& kernel, const Dim3& block,
                           uint32_t dynamic_shared, const PlatformConfig& config);

}  // namespace warptlm
