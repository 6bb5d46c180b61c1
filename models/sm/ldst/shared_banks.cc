// Bank conflicts by sorting: every (bank, word) pair a warp touches goes into a
// fixed stack array; sorted and deduplicated, the longest run of one bank is
// the conflict degree. No per-bank table, so any bank count works without
// allocating. Most accesses touch each bank in at most one word (no conflict,
// or a broadcast): with up to 64 banks a one-pass check answers those, and
// only a real conflict pays for the sort.
#include "sm/ldst/shared_banks.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace warptlm {
namespace {

struct BankWord {
  uint64_t bank;
  uint64_t word;
  bool operator<(const BankWord& o) const { return bank != o.bank ? bank < o.bank : word < o.word; }
  bool operator==(const BankWord& o) const { return bank == o.bank && word == o.word; }
};

// A 16-byte access overlaps at most 5 words (4 when aligned).
constexpr unsigned kMaxWordsPerLane = 5;

}  // namespace

unsigned shared_access_cycles(const uint64_t* addrs, LaneMask active, unsigned warp_size,
                              unsigned size, unsigned banks) {
  if (warp_size == 0 || warp_size > kMaxWarpSize) {
    throw std::invalid_argument("warp_size: must be 1.." + std::to_string(kMaxWarpSize));
  }
  if (size != 1 && size != 2 && size != 4 && size != 8 && size != 16) {
    throw std::invalid_argument("size: must be 1, 2, 4, 8 or 16 bytes");
  }
  if (banks == 0) throw std::invalid_argument("banks: must be at least 1");

  BankWord touched[kMaxWarpSize * kMaxWordsPerLane];
  unsigned n = 0;
  LaneMask lanes = active & full_mask(warp_size);
  if (banks <= 64) {
    uint64_t word_of[64];
    uint64_t seen = 0;  // banks touched so far
    bool conflict = false;
    for (LaneMask l = lanes; l != 0 && !conflict; l &= l - 1) {
      const unsigned lane = unsigned(__builtin_ctzll(l));
      const uint64_t first = addrs[lane] / 4;
      const uint64_t last = (addrs[lane] + size - 1) / 4;
      for (uint64_t w = first; w <= last; ++w) {
        const unsigned b = unsigned(w % banks);
        const uint64_t bit = uint64_t(1) << b;
        if (!(seen & bit)) {
          seen |= bit;
          word_of[b] = w;
        } else if (word_of[b] != w) {
          conflict = true;  // two words in one bank: count them exactly below
          break;
        }
      }
    }
    if (!conflict) return seen ? 1 : 0;
  }
  while (lanes != 0) {
    const unsigned lane = unsigned(__builtin_ctzll(lanes));
    lanes &= lanes - 1;
    const uint64_t first = addrs[lane] / 4;
    const uint64_t last = (addrs[lane] + size - 1) / 4;
    for (uint64_t w = first; w <= last; ++w) touched[n++] = BankWord{w % banks, w};
  }
  if (n == 0) return 0;
  std::sort(touched, touched + n);
  n = unsigned(std::unique(touched, touched + n) - touched);
  unsigned worst = 1, run = 1;
  for (unsigned i = 1; i < n; ++i) {
    run = touched[i].bank == touched[i - 1].bank ? run + 1 : 1;
    worst = std::max(worst, run);
  }
  return worst;
}

unsigned shared_word_cycles(std::vector<uint64_t>& words, unsigned banks) {
  if (banks == 0) throw std::invalid_argument("shared_word_cycles: banks must be at least 1");
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  std::vector<unsigned> per_bank(banks, 0);
  unsigned cycles = 0;
  for (uint64_t w : words) cycles = std::max(cycles, ++per_bank[w % banks]);
  return cycles;
}

}  // namespace warptlm
