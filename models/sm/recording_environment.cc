#include "sm/recording_environment.h"

#include <algorithm>

#include "exec/warp_issuer.h"  // lane_count
#include "memory/address_map.h"

namespace warptlm {

namespace {
// A lane's access as the coalescer sees it: generic addresses resolved to
// their window's space and offset.
MemoryAccess access_of(Space space, unsigned lane, uint64_t addr, unsigned size, bool write) {
  uint64_t inner = addr;
  if (space == Space::Generic) space = address_map::classify(addr, &inner);
  return MemoryAccess{space, lane, inner, size, write};
}
}  // namespace

void RecordingEnvironment::record(Space space, unsigned lane, uint64_t addr, unsigned size,
                                  bool write) {
  accesses.push_back(access_of(space, lane, addr, size, write));
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
  announce_writes(accesses.size() - 1);
}

void RecordingEnvironment::announce_writes(size_t from) {
  if (!writes) return;
  uint64_t lo = UINT64_MAX, hi = 0;
  for (size_t i = from; i < accesses.size(); ++i) {
    const MemoryAccess& a = accesses[i];
    if (a.space != Space::Global) continue;
    lo = std::min(lo, a.address);
    hi = std::max(hi, a.address + a.size);
  }
  if (lo < hi) writes->global_written(lo, hi);
}

void RecordingEnvironment::record_lanes(Space space, LaneMask lanes, const uint64_t* addrs,
                                        unsigned size, bool write) {
  const size_t at = accesses.size();
  accesses.resize(at + lane_count(lanes));
  MemoryAccess* out = accesses.data() + at;
  for (; lanes; lanes &= lanes - 1) {
    const unsigned lane = static_cast<unsigned>(__builtin_ctzll(lanes));
    *out++ = access_of(space, lane, addrs[lane], size, write);
  }
}

void RecordingEnvironment::load_lanes(Space space, LaneMask lanes, const uint64_t* addrs,
                                      uint8_t* data, unsigned size) {
  try {
    FunctionalWarpEnvironment::load_lanes(space, lanes, addrs, data, size);
  } catch (const MemoryFault& f) {
    record_lanes(space, lanes_below(lanes, f.lane), addrs, size, false);
    throw;
  }
  record_lanes(space, lanes, addrs, size, false);
}

void RecordingEnvironment::store_lanes(Space space, LaneMask lanes, const uint64_t* addrs,
                                       const uint8_t* data, unsigned size) {
  try {
    FunctionalWarpEnvironment::store_lanes(space, lanes, addrs, data, size);
  } catch (const MemoryFault& f) {
    const size_t from = accesses.size();
    record_lanes(space, lanes_below(lanes, f.lane), addrs, size, true);
    announce_writes(from);
    throw;
  }
  const size_t from = accesses.size();
  record_lanes(space, lanes, addrs, size, true);
  announce_writes(from);
}

uint64_t RecordingEnvironment::special(SpecialReg sreg, unsigned comp, unsigned lane) {
  // The timing model has cycles: %clock reads the SM's cycle counter and
  // %globaltimer the simulated time in nanoseconds at this cycle (so kernels
  // that time themselves differ from functional runs, as on hardware).
  const auto ns = [&] { return static_cast<uint64_t>(static_cast<double>(cycle) * ns_per_cycle); };
  switch (sreg) {
    case SpecialReg::GlobalTimer:
      return ns();
    case SpecialReg::GlobalTimerLo:
      return ns() & 0xffffffffu;
    case SpecialReg::GlobalTimerHi:
      return ns() >> 32;
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
