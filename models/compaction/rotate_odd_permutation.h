// Rotate_odd_1 (SLP paper, Figure 7): odd warps are rotated by one lane toward higher lanes,
// home_lane = (l + 1) mod warp_size; even warps keep their lanes. The paper's text does not state
// the direction (Figure 7 is a picture); docs/compaction.md records the choice.
#pragma once

#include "compaction/lane_permutation.h"

namespace warptlm {

class RotateOddPermutation final : public LanePermutation {
 public:
  explicit RotateOddPermutation(unsigned warp_size);
  const char* name() const override { return "rotate_odd_1"; }
  unsigned home_lane(unsigned warp, unsigned lane) const override;
};

}  // namespace warptlm
