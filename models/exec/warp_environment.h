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
  // A cooperative launch's grid-synchronisation workspace (a global address,
  // read through %envreg1:%envreg2); 0 for an ordinary launch.
  uint64_t grid_workspace = 0;
};

class FunctionalWarpEnvironment : public WarpEnvironment {
 public:
  FunctionalWarpEnvironment(const Module& module, KernelMemory& memory, CtaContext& cta)
      : module_(module), mem_(memory), cta_(cta) {}
  void bind(Warp* warp) { warp_ = warp; }

  // Set on a host thread while it runs the parallel phase of a timing
  // cycle (docs/parallel-sms.md), which issues no instruction that reaches
  // global memory: such an access there is a model error, reported as one
  // (std::logic_error) rather than a silent race.
  static inline thread_local bool sm_private_phase = false;

  uint64_t symbol_address(uint32_t symbol) override;
  uint64_t special(SpecialReg sreg, unsigned comp, unsigned lane) override;
  // %tid and %laneid read per lane inline; every register but those and the
  // lane masks is the same for the whole warp, so special() is asked once
  // (through the vtable: a timing environment answers the clocks).
  void special_lanes(SpecialReg sreg, unsigned comp, LaneMask lanes, uint64_t* out) override;
  void load(Space space, unsigned lane, uint64_t addr, void* dst, unsigned size) override;
  void store(Space space, unsigned lane, uint64_t addr, const void* src, unsigned size) override;
  // One lookup of global memory for lanes in the same block, shared memory
  // checked inline; the rest and every fault as load/store do them.
  void load_lanes(Space space, LaneMask lanes, const uint64_t* addrs, uint8_t* data,
                  unsigned size) override;
  void store_lanes(Space space, LaneMask lanes, const uint64_t* addrs, const uint8_t* data,
                   unsigned size) override;
  // Lanes in the block of the first lane's address (block_at) update it in
  // place; from the first lane outside it on, lane by lane as load/store.
  void update_lanes(Space space, LaneMask lanes, const uint64_t* addrs, unsigned size,
                    LaneUpdate update, void* ctx) override;

 private:
  // The host bytes of global [addr, addr + size) from `*block` (the last
  // block found) or a new lookup, or null when the global memory has no block
  // for them (out of bounds, or reached only through read/write).
  uint8_t* global_bytes(GlobalMemory::Block* block, uint64_t addr, unsigned size);
  // The host bytes of the block of global memory holding [addr, addr + size),
  // or of the CTA's shared memory (*base: the block's first address, *span:
  // its size), or null (other spaces, no such block): load_lanes() and
  // store_lanes() copy a warp's lanes that fall in it in one loop, and leave
  // the rest to each_access().
  uint8_t* block_at(Space space, uint64_t addr, unsigned size, uint64_t* base, uint64_t* span);
  // Calls access(lane, bytes) for each lane of `lanes` in increasing order,
  // with bytes the host memory of [addrs[lane], + size) in `space`, or null
  // for global memory without a block; faults as locate() does.
  template <class Access>
  void each_access(Space space, LaneMask lanes, const uint64_t* addrs, unsigned size, bool writing,
                   Access&& access);
  // The bytes [addr, addr + size) of `space` for `lane`, or a MemoryFault
  // (not global memory, which is reached through KernelMemory::global).
  uint8_t* locate(Space space, unsigned lane, uint64_t addr, unsigned size, bool writing);
  static bool is_global(Space space, uint64_t addr);
  // Throws the model error above when in sm_private_phase.
  static void check_shared_access() {
    if (sm_private_phase) shared_access_in_private_phase();
  }
  [[noreturn]] static void shared_access_in_private_phase();
  MemoryFault global_fault(unsigned lane, uint64_t addr, unsigned size, bool writing) const;

  const Module& module_;
  KernelMemory& mem_;
  CtaContext& cta_;
  Warp* warp_ = nullptr;
};

}  // namespace warptlm
