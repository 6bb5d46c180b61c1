#include "exec/cta_fit.h"

#include <algorithm>
#include <stdexcept>

#include "frontend/register_pressure.h"

namespace warptlm {
namespace {

// Registers are allocated per thread in groups of this many 32-bit registers.
constexpr unsigned kRegisterGranule = 4;

}  // namespace

const char* sm_resource_name(SmResource r) {
  switch (r) {
    case SmResource::CtaSlots:
      return "CTA slots";
    case SmResource::Warps:
      return "warp slots";
    case SmResource::Registers:
      return "registers";
    case SmResource::SharedMemory:
      return "shared memory";
    case SmResource::LocalMemory:
      return "local memory";
  }
  return "?";
}

CtaResources cta_resources(const Module& module, const Function& kernel, const Dim3& block,
                           uint32_t dynamic_shared, const SmLimits& sm, unsigned warp_size) {
  if (warp_size == 0) throw std::invalid_argument("warp_size: must be positive");
  const auto index = static_cast<uint32_t>(&kernel - module.functions.data());
  if (index >= module.functions.size())
    throw std::invalid_argument("cta_resources: the kernel is not one of the module's functions");
  unsigned per_thread = register_pressure(module, index);
  per_thread = std::min(per_thread, sm.max_registers_per_thread);
  per_thread = (per_thread + kRegisterGranule - 1) / kRegisterGranule * kRegisterGranule;

  CtaResources res;
  const uint64_t threads = block.count();
  const uint64_t warps = (threads + warp_size - 1) / warp_size;
  res.threads = static_cast<unsigned>(threads);
  res.warps = static_cast<unsigned>(warps);
  res.registers = static_cast<unsigned>(uint64_t(per_thread) * warps * warp_size);
  res.shared_memory = module.shared_static_size + dynamic_shared;
  res.local_memory = kernel.local_size;
  return res;
}

unsigned warp_slots(const SmLimits& sm, unsigned warp_size) {
  return std::min(sm.warps, warp_size ? sm.threads / warp_size : 0);
}

std::optional<FitProblem> cta_fit_problem(const CtaResources& r, uint32_t dynamic_shared,
                                          const SmLimits& sm, unsigned warp_size,
                                          bool whole_warp_slots) {
  const unsigned slots = warp_slots(sm, warp_size);
  const uint64_t lanes = uint64_t(r.warps) * warp_size;
  // More threads than sm.threads never fit the slots either.
  if (r.warps > slots && (whole_warp_slots || r.threads > sm.threads))
    return FitProblem{SmResource::Warps,
                      "a CTA needs " + std::to_string(r.warps) + " warp slots (" +
                          std::to_string(r.threads) + " threads in warps of " +
                          std::to_string(warp_size) + "), an SM has " + std::to_string(slots) +
                          " (min(sm.warps = " + std::to_string(sm.warps) +
                          ", sm.threads / warp_size = " + std::to_string(sm.threads) + " / " +
                          std::to_string(warp_size) + "))"};
  if (r.registers > sm.registers)
    return FitProblem{SmResource::Registers,
                      "a CTA needs " + std::to_string(r.registers) + " registers (" +
                          std::to_string(lanes ? r.registers / lanes : 0) + " per thread x " +
                          std::to_string(lanes) + " threads), an SM has " +
                          std::to_string(sm.registers) + " (sm.registers)"};
  if (r.shared_memory > sm.shared_memory) {
    const uint64_t fixed = r.shared_memory >= dynamic_shared ? r.shared_memory - dynamic_shared : 0;
    return FitProblem{SmResource::SharedMemory,
                      "a CTA needs " + std::to_string(r.shared_memory) +
                          " bytes of shared memory (" + std::to_string(fixed) + " static + " +
                          std::to_string(dynamic_shared) + " dynamic), an SM has " +
                          std::to_string(sm.shared_memory) + " (sm.shared_memory)"};
  }
  if (r.local_memory > kLocalMemoryPerThread)
    return FitProblem{SmResource::LocalMemory,
                      "a thread needs " + std::to_string(r.local_memory) +
                          " bytes of local memory for the kernel's .local variables, the limit "
                          "is " +
                          std::to_string(kLocalMemoryPerThread) + " per thread"};
  return std::nullopt;
}

unsigned ctas_per_sm(const CtaResources& cta, const SmLimits& sm, unsigned warp_size) {
  unsigned n = sm.ctas;
  const unsigned slots = warp_slots(sm, warp_size);
  if (cta.warps) n = std::min(n, slots / cta.warps);
  if (cta.registers) n = std::min(n, sm.registers / cta.registers);
  if (cta.shared_memory)
    n = static_cast<unsigned>(std::min<uint64_t>(n, sm.shared_memory / cta.shared_memory));
  return std::max(n, 1u);
}

std::string cooperative_fit_problem(uint64_t grid_ctas, const CtaResources& cta, const SmLimits& sm,
                                    unsigned warp_size, unsigned num_sms) {
  const unsigned per_sm = ctas_per_sm(cta, sm, warp_size);
  const uint64_t resident = uint64_t(per_sm) * num_sms;
  if (grid_ctas <= resident) return "";
  return "cooperative launch: its " + std::to_string(grid_ctas) +
         " CTAs must all be resident at once, but the GPU holds at most " +
         std::to_string(resident) + " of them (" + std::to_string(num_sms) + " SMs x " +
         std::to_string(per_sm) +
         " CTAs each, by CTA slots, warps, registers and shared memory); CUDA refuses it too "
         "(cudaErrorCooperativeLaunchTooLarge)";
}

}  // namespace warptlm
