// Random: a seeded Fisher-Yates shuffle per warp, identical on every platform.
#include "compaction/random_permutation.h"

#include <random>
#include <stdexcept>
#include <string>
#include <utility>

namespace warptlm {
namespace {

// SplitMix64's finaliser: spreads (seed, warp) so that neighbouring warps and seeds start the
// engine from unrelated states.
uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Uniform draw in [0, bound) by rejection: values below 2^64 mod bound are discarded so every
// residue is equally likely. std::mt19937_64's output sequence is fixed by the standard.
uint64_t draw_below(std::mt19937_64& rng, uint64_t bound) {
  uint64_t threshold = (0 - bound) % bound;  // 2^64 mod bound
  for (;;) {
    uint64_t r = rng();
    if (r >= threshold) return r % bound;
  }
}

}  // namespace

RandomPermutation::RandomPermutation(unsigned warp_size, uint64_t seed)
    : LanePermutation(warp_size), seed_(seed) {
  cache_rows();
}

void RandomPermutation::fill_row(unsigned warp, uint8_t* row) const {
  std::mt19937_64 rng(mix64(seed_ ^ mix64(warp)));
  unsigned n = warp_size();
  for (unsigned l = 0; l < n; ++l) row[l] = static_cast<uint8_t>(l);
  for (unsigned i = n - 1; i > 0; --i) {
    unsigned j = static_cast<unsigned>(draw_below(rng, i + 1));
    std::swap(row[i], row[j]);
  }
}

unsigned RandomPermutation::home_lane(unsigned warp, unsigned lane) const {
  if (lane >= warp_size()) {
    throw std::invalid_argument("random: lane " + std::to_string(lane) +
                                " is not below warp_size " + std::to_string(warp_size()));
  }
  uint8_t scratch[64];
  return home_lane_row(warp, scratch)[lane];
}

}  // namespace warptlm
