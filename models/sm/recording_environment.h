// The SM's view of the world for one warp: the functional environment (the
// same memories and checks as the functional executor), plus a record of the
// accesses an instruction made, which the LD/ST unit times afterwards.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "exec/warp_environment.h"
#include "memory/global_write_observer.h"

namespace warptlm {

struct MemoryAccess {
  Space space = Space::Global;  // resolved (never Generic)
  unsigned lane = 0;
  uint64_t address = 0;  // within its space
  unsigned size = 0;
  bool write = false;
};

class RecordingEnvironment : public FunctionalWarpEnvironment {
 public:
  using FunctionalWarpEnvironment::FunctionalWarpEnvironment;

  void load(Space space, unsigned lane, uint64_t addr, void* dst, unsigned size) override;
  // Not recorded: the LD/ST unit does not time it.
  void peek(Space space, unsigned lane, uint64_t addr, void* dst, unsigned size) override {
    FunctionalWarpEnvironment::load(space, lane, addr, dst, size);
  }
  void store(Space space, unsigned lane, uint64_t addr, const void* src, unsigned size) override;
  // The functional batch, then a record per lane in lane order (on a fault,
  // of the lanes below the faulting one), as the per-lane calls make them.
  void load_lanes(Space space, LaneMask lanes, const uint64_t* addrs, uint8_t* data,
                  unsigned size) override;
  void store_lanes(Space space, LaneMask lanes, const uint64_t* addrs, const uint8_t* data,
                   unsigned size) override;
  // Lane by lane through load and store, so each access is recorded in the
  // order the coalescer expects (a lane's read, then its write).
  void update_lanes(Space space, LaneMask lanes, const uint64_t* addrs, unsigned size,
                    LaneUpdate update, void* ctx) override {
    WarpEnvironment::update_lanes(space, lanes, addrs, size, update, ctx);
  }
  uint64_t special(SpecialReg sreg, unsigned comp, unsigned lane) override;

  // Cleared by the SM before each instruction.
  std::vector<MemoryAccess> accesses;
  // What %clock / %globaltimer / %smid / %nsmid read in the timing model.
  uint64_t cycle = 0;
  double ns_per_cycle = 1.0;  // the SM clock's period
  // Whole cycles that last at least `ns` nanoseconds (nanosleep).
  uint64_t cycles_for_ns(uint64_t ns) const {
    return static_cast<uint64_t>(std::ceil(static_cast<double>(ns) / ns_per_cycle));
  }
  unsigned sm = 0, num_sms = 1;
  // Told of each instruction's global writes (the GPU's memory port), or none.
  GlobalWriteObserver* writes = nullptr;

 private:
  void record(Space space, unsigned lane, uint64_t addr, unsigned size, bool write);
  void record_lanes(Space space, LaneMask lanes, const uint64_t* addrs, unsigned size, bool write);
  // Tells `writes` of the global writes among accesses[from...].
  void announce_writes(size_t from);
};

}  // namespace warptlm
