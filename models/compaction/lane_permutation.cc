// The LanePermutation base: warp-size validation and the cached logical->home lane rows.
#include "compaction/lane_permutation.h"

#include <stdexcept>

namespace warptlm {

unsigned lane_bits(unsigned warp_size) {
  for (unsigned bits = 2; bits <= 6; ++bits) {
    if (warp_size == (1u << bits)) return bits;
  }
  throw std::invalid_argument("warp_size must be a power of two in [4, 64], got " +
                              std::to_string(warp_size));
}

LanePermutation::LanePermutation(unsigned warp_size) : warp_size_(warp_size) {
  lane_bits(warp_size);  // validates
}

void LanePermutation::fill_row(unsigned warp, uint8_t* row) const {
  for (unsigned l = 0; l < warp_size_; ++l) row[l] = static_cast<uint8_t>(home_lane(warp, l));
}

void LanePermutation::cache_rows() {
  unsigned warps = kCachedThreads / warp_size_;
  rows_.assign(static_cast<size_t>(warps) * warp_size_, 0);
  cached_warps_ = 0;  // fill_row() of a subclass may consult the cache; keep it off while filling
  for (unsigned w = 0; w < warps; ++w) fill_row(w, &rows_[static_cast<size_t>(w) * warp_size_]);
  cached_warps_ = warps;
}

const uint8_t* LanePermutation::home_lane_row(unsigned warp, uint8_t* scratch) const {
  if (warp < cached_warps_) return &rows_[static_cast<size_t>(warp) * warp_size_];
  fill_row(warp, scratch);
  return scratch;
}

}  // namespace warptlm
