// What one CTA of a launch occupies on an SM, and whether it can ever fit
// there: one check shared by the functional executor and the timing model's
// workgroup distributor, so the two modes accept and refuse the same
// launches with the same words.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "exec/launch.h"
#include "frontend/ir.h"

namespace warptlm {

// The SM resources a CTA must fit into (PlatformConfig's sm.* fields; the
// defaults are SmConfig's).
struct SmLimits {
  unsigned threads = 1024;                 // resident threads
  unsigned warps = 32;                     // resident warps
  unsigned registers = 16384;              // 32-bit registers
  unsigned max_registers_per_thread = 63;  // what ptxas may allocate to one thread
  uint64_t shared_memory = 32768;          // bytes
  unsigned ctas = 8;                       // resident CTAs (CTA slots)
};

// Local memory (.local frames of the kernel and the functions it calls) one
// thread may use: CUDA's limit since compute capability 2.0.
constexpr uint64_t kLocalMemoryPerThread = 512 * 1024;

// What one CTA occupies on an SM while it runs.
struct CtaResources {
  unsigned threads = 0;
  unsigned warps = 0;
  unsigned registers = 0;      // 32-bit registers: per-thread registers x warps x warp size
  uint64_t shared_memory = 0;  // static + dynamic bytes
  uint64_t local_memory = 0;   // bytes per thread of the kernel's own frame
};

// The resources one CTA of `kernel` (of `module`) launched with `block` and
// `dynamic_shared` bytes needs. Registers per thread are the kernel's peak
// register pressure (frontend/register_pressure.h: 32-bit registers live at
// once, callees included), capped at sm.max_registers_per_thread (ptxas
// allocates at most that many, spilling beyond) and rounded up to a
// multiple of 4, the allocation granularity. Whole warps hold registers.
CtaResources cta_resources(const Module& module, const Function& kernel, const Dim3& block,
                           uint32_t dynamic_shared, const SmLimits& sm, unsigned warp_size);

enum class SmResource { CtaSlots, Warps, Registers, SharedMemory, LocalMemory };
const char* sm_resource_name(SmResource r);  // "CTA slots", "warp slots", ...

// Why a CTA can never run: the resource and a sentence with the numbers.
struct FitProblem {
  SmResource resource;
  std::string message;
};

// Warp slots of one SM: min(sm.warps, sm.threads / warp_size).
unsigned warp_slots(const SmLimits& sm, unsigned warp_size);

// The first resource a CTA needs more of than an empty SM has (or a thread
// more local memory than kLocalMemoryPerThread), or nullopt when it fits.
// `whole_warp_slots`: the timing model's scheduler holds a CTA's warps in
// min(sm.warps, sm.threads / warp_size) slots; the functional executor has
// no slots and checks the threads alone (a CTA of more than sm.threads gets
// the same words either way), so a functional warp-size sweep may use warps
// narrower than the slot count was sized for.
std::optional<FitProblem> cta_fit_problem(const CtaResources& cta, uint32_t dynamic_shared,
                                          const SmLimits& sm, unsigned warp_size,
                                          bool whole_warp_slots = true);

// How many CTAs like `cta` one SM holds at once, by its tightest resource
// (CTA slots, warp slots, registers, shared memory); at least 1 for a CTA
// that fits at all.
unsigned ctas_per_sm(const CtaResources& cta, const SmLimits& sm, unsigned warp_size);

// A cooperative launch's grid must be resident at once: the sentence saying
// why `grid_ctas` CTAs are too many for `num_sms` SMs (CUDA's
// cudaErrorCooperativeLaunchTooLarge), or "" when they fit.
std::string cooperative_fit_problem(uint64_t grid_ctas, const CtaResources& cta, const SmLimits& sm,
                                    unsigned warp_size, unsigned num_sms);

}  // namespace warptlm
