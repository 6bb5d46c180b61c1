// The functional executor's view of the world for one warp: symbol addresses,
// special registers and bounds-checked memory in every state space.
#pragma once

#include <vector>

#include "exec/cta_memory.h"
#include "exec/warp.h"
#include "frontend/ir.h"
#include "semantics/semantics.h"

namespace warptlm {

struct CtaContext {
  Dim3 ctaid, ntid, nctaid;
  unsigned warps = 0;           // warps in the CTA
  std::vector<uint8_t> shared;  // static + dynamic shared memory
};

class FunctionalWarpEnvironment : public WarpEnvironment {
 public:
  FunctionalWarpEnvironment(const Module& module, KernelMemory& memory, CtaContext& cta)
      : module_(module), mem_(memory), cta_(cta) {}
  void bind(Warp* warp) { warp_ = warp; }

  uint64_t symbol_address(uint32_t symbol, unsigned lane) override;
  uint64_t special(SpecialReg sreg, unsigned comp, unsigned lane) override;
  void load(Space space, unsigned lane, uint64_t addr, void* dst, unsigned size) override;
  void store(Space space, unsigned lane, uint64_t addr, const void* src, unsigned size) override;

 private:
  // The bytes [addr, addr + size) of `space` for `lane`, or a MemoryFault
  // (not global memory, which is reached through KernelMemory::global).
  uint8_t* locate(Space space, unsigned lane, uint64_t addr, unsigned size, bool writing);
  static bool is_global(Space space, uint64_t addr);
  MemoryFault global_fault(unsigned lane, uint64_t addr, unsigned size, bool writing) const;

  const Module& module_;
  KernelMemory& mem_;
  CtaContext& cta_;
  Warp* warp_ = nullptr;
};

}  // namespace warptlm
