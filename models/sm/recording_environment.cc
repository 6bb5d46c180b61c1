#include "sm/recording_environment.h"

#include "memory/address_map.h"

namespace warptlm {

void RecordingEnvironment::record(Space space, unsigned lane, uint64_t addr, unsigned size,
                                  bool write) {
  uint64_t inner = addr;
  if (space == Space::Generic) space = address_map::classify(addr, &inner);
  accesses.push_back(MemoryAccess{space, lane, inner, size, write});
}

void RecordingEnvironment::load(Space space, unsigned lane, uint64_t addr, void* dst,
                                unsigned size) {
  FunctionalWarpEnvironment::load(space, lane, addr, dst, size);
  record(space, lane, addr, size, false);
}

void RecordingEnvironment::store(Space space, unsigned lane, uint64_t addr, const void* src,
                                 unsigned size) {
  FunctionalWarpEnvironment::store(space, lane, addr, src, size);
  record(space, lane, addr, size, true);
}

uint64_t RecordingEnvironment::special(SpecialReg sreg, unsigned comp, unsigned lane) {
  // The timing model has cycles: %clock reads the SM's cycle counter (so
  // kernels that time themselves differ from functional runs, as on hardware).
  switch (sreg) {
    case SpecialReg::Clock:
      return cycle & 0xffffffffu;
    case SpecialReg::Clock64:
      return cycle;
    case SpecialReg::Smid:
      return sm;
    case SpecialReg::Nsmid:
      return num_sms;
    default:
      return FunctionalWarpEnvironment::special(sreg, comp, lane);
  }
}

}  // namespace warptlm
