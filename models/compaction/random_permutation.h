// Random (SLP paper, Figure 7(f)): every warp gets its own seeded random permutation of its lanes.
// The permutation of warp w is a Fisher-Yates shuffle driven by std::mt19937_64 seeded from (seed,
// w), with the bounded draws done here rather than by std::uniform_int_distribution, so the result
// is the same with every standard library.
#pragma once

#include <cstdint>
#include <vector>

#include "compaction/lane_permutation.h"

namespace warptlm {

class RandomPermutation final : public LanePermutation {
 public:
  RandomPermutation(unsigned warp_size, uint64_t seed);
  const char* name() const override { return "random"; }
  unsigned home_lane(unsigned warp, unsigned lane) const override;
  uint64_t seed() const { return seed_; }

 protected:
  // The Fisher-Yates shuffle of warp `warp`: row[l] = home lane of logical lane l.
  void fill_row(unsigned warp, uint8_t* row) const override;

 private:
  uint64_t seed_;
};

}  // namespace warptlm
