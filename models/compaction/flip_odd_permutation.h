// FLIP_odd (SLP paper, Figure 7): odd warps are reversed end to end, home_lane = warp_size - 1 - l;
// even warps keep their lanes. For a power-of-two warp size this equals XOR (warp_size - 1), but it
// is kept as its own mapping because that is how the paper states it.
#pragma once

#include "compaction/lane_permutation.h"

namespace warptlm {

class FlipOddPermutation final : public LanePermutation {
 public:
  explicit FlipOddPermutation(unsigned warp_size);
  const char* name() const override { return "flip_odd"; }
  unsigned home_lane(unsigned warp, unsigned lane) const override;
};

}  // namespace warptlm
