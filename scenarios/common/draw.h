// Input values derived from raw std::mt19937_64 output. The standard
// distributions are implementation-defined, so they would give different
// inputs on different standard libraries; these give the same everywhere.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace warptlm::scenarios {

// A value in [0, bound), bound > 0. Plain modulo: the bias is below
// bound / 2^64, far too small to matter for test inputs.
inline uint64_t draw_below(std::mt19937_64& rng, uint64_t bound) { return rng() % bound; }

// A value in [lo, hi], lo <= hi.
inline int64_t draw_between(std::mt19937_64& rng, int64_t lo, int64_t hi) {
  return lo + int64_t(draw_below(rng, uint64_t(hi - lo) + 1));
}

// A uniform 32-bit word: the top half of one raw output.
inline uint32_t draw_word(std::mt19937_64& rng) { return uint32_t(rng() >> 32); }

// `count` uniform words, drawn in order.
inline std::vector<uint32_t> draw_words(std::mt19937_64& rng, size_t count) {
  std::vector<uint32_t> words(count);
  for (auto& w : words) w = draw_word(rng);
  return words;
}

// A double in [0, 1) with 53 random bits: exact, so platform-independent.
inline double draw_unit(std::mt19937_64& rng) { return double(rng() >> 11) * 0x1p-53; }

}  // namespace warptlm::scenarios
