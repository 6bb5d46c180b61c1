// Rotate_odd_1: odd warps rotated by one lane toward higher lanes (the last lane wraps to lane 0).
#include "compaction/rotate_odd_permutation.h"

#include <stdexcept>
#include <string>

namespace warptlm {

RotateOddPermutation::RotateOddPermutation(unsigned warp_size) : LanePermutation(warp_size) {
  cache_rows();
}

unsigned RotateOddPermutation::home_lane(unsigned warp, unsigned lane) const {
  if (lane >= warp_size()) {
    throw std::invalid_argument("rotate_odd_1: lane " + std::to_string(lane) +
                                " is not below warp_size " + std::to_string(warp_size()));
  }
  return (warp & 1u) ? (lane + 1) & (warp_size() - 1) : lane;
}

}  // namespace warptlm
