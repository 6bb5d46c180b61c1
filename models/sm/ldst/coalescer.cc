// Coalescing by first touch: a warp touches at most a few dozen segments, so a
// linear search of those already found is cheaper than any hashed set, and a
// lane touching only its predecessor's last segment needs no search at all.
#include "sm/ldst/coalescer.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace warptlm {

void coalesce(const uint64_t* addrs, LaneMask active, unsigned warp_size, unsigned size,
              unsigned segment, std::vector<uint64_t>& out) {
  if (warp_size == 0 || warp_size > kMaxWarpSize) {
    throw std::invalid_argument("warp_size: must be 1.." + std::to_string(kMaxWarpSize));
  }
  if (size == 0) throw std::invalid_argument("size: must be at least 1 byte");
  if (segment == 0 || (segment & (segment - 1)) != 0) {
    throw std::invalid_argument("segment: must be a power of two bytes");
  }
  out.clear();
  const uint64_t mask = ~uint64_t(segment - 1);
  LaneMask lanes = active & full_mask(warp_size);
  // The last segment of the lane before, already in `out`: neighbouring lanes
  // mostly touch that one segment again, and skip the search.
  uint64_t previous = 0;
  bool have_previous = false;
  while (lanes != 0) {
    const unsigned lane = unsigned(__builtin_ctzll(lanes));
    lanes &= lanes - 1;
    const uint64_t first = addrs[lane] & mask;
    const uint64_t last = (addrs[lane] + size - 1) & mask;
    if (first == last && have_previous && first == previous) continue;
    for (uint64_t seg = first;; seg += segment) {
      if (std::find(out.begin(), out.end(), seg) == out.end()) out.push_back(seg);
      if (seg == last) break;
    }
    previous = last;
    have_previous = true;
  }
}

}  // namespace warptlm
