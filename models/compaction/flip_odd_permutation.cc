// FLIP_odd: odd warps reversed end to end.
#include "compaction/flip_odd_permutation.h"

#include <stdexcept>
#include <string>

namespace warptlm {

FlipOddPermutation::FlipOddPermutation(unsigned warp_size) : LanePermutation(warp_size) {
  cache_rows();
}

unsigned FlipOddPermutation::home_lane(unsigned warp, unsigned lane) const {
  if (lane >= warp_size()) {
    throw std::invalid_argument("flip_odd: lane " + std::to_string(lane) +
                                " is not below warp_size " + std::to_string(warp_size()));
  }
  return (warp & 1u) ? warp_size() - 1 - lane : lane;
}

}  // namespace warptlm
