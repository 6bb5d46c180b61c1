// cta_resources() (declared in sm/kernel_launch.h): what one CTA occupies on
// an SM. The distributor packs CTAs by these figures.
#include <algorithm>
#include <stdexcept>

#include "sm/kernel_launch.h"

namespace warptlm {
namespace {

// Registers are allocated per thread in groups of this many 32-bit registers.
constexpr unsigned kRegisterGranule = 4;

unsigned register_units(Type type) {
  if (type == Type::Pred) return 0;  // predicates live in their own file
  unsigned bits = type_bits(type);
  return (bits + 31) / 32;  // .b64/.u64/.s64/.f64 take two 32-bit registers
}

}  // namespace

CtaResources cta_resources(const Program& program, const Function& kernel, const Dim3& block,
                           uint32_t dynamic_shared, const PlatformConfig& config) {
  if (config.warp_size == 0) throw std::invalid_argument("config.warp_size: must be positive");
  unsigned per_thread = 0;
  for (const RegDecl& r : kernel.regs) per_thread += register_units(r.type);
  // PTX registers are virtual: compilers declare one per value and ptxas maps
  // them onto at most sm.max_registers_per_thread physical registers
  // (spilling beyond), so the declared count is capped there.
  per_thread = std::min(per_thread, config.sm.max_registers_per_thread);
  per_thread = (per_thread + kRegisterGranule - 1) / kRegisterGranule * kRegisterGranule;

  CtaResources res;
  const uint64_t threads = block.count();
  const uint64_t warps = (threads + config.warp_size - 1) / config.warp_size;
  res.threads = static_cast<unsigned>(threads);
  res.warps = static_cast<unsigned>(warps);
  // Whole warps hold registers, also for their inactive lanes.
  res.registers = static_cast<unsigned>(uint64_t(per_thread) * warps * config.warp_size);
  res.shared_memory = program.module.shared_static_size + dynamic_shared;
  return res;
}

}  // namespace warptlm
