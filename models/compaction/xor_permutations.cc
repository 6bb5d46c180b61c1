// The XOR-mask permutations: each is one mask formula.
#include "compaction/xor_permutations.h"

#include <stdexcept>
#include <string>

namespace warptlm {

unsigned XorMaskPermutation::home_lane(unsigned warp, unsigned lane) const {
  if (lane >= warp_size()) {
    throw std::invalid_argument(std::string(name()) + ": lane " + std::to_string(lane) +
                                " is not below warp_size " + std::to_string(warp_size()));
  }
  return lane ^ mask(warp);
}

unsigned reverse_bits(unsigned value, unsigned bits) {
  unsigned out = 0;
  for (unsigned b = 0; b < bits; ++b) out |= ((value >> b) & 1u) << (bits - 1 - b);
  return out;
}

IdentityPermutation::IdentityPermutation(unsigned warp_size) : XorMaskPermutation(warp_size) {
  cache_rows();
}
unsigned IdentityPermutation::mask(unsigned /*warp*/) const { return 0; }

OddEvenPermutation::OddEvenPermutation(unsigned warp_size) : XorMaskPermutation(warp_size) {
  cache_rows();
}
unsigned OddEvenPermutation::mask(unsigned warp) const { return warp & 1u; }

XorHalfPermutation::XorHalfPermutation(unsigned warp_size) : XorMaskPermutation(warp_size) {
  cache_rows();
}
unsigned XorHalfPermutation::mask(unsigned warp) const { return (warp & 1u) ? warp_size() / 2 : 0; }

WidPermutation::WidPermutation(unsigned warp_size) : XorMaskPermutation(warp_size) { cache_rows(); }
unsigned WidPermutation::mask(unsigned warp) const { return warp & (warp_size() - 1); }

RevWidPermutation::RevWidPermutation(unsigned warp_size)
    : XorMaskPermutation(warp_size), bits_(lane_bits(warp_size)) {
  cache_rows();
}
unsigned RevWidPermutation::mask(unsigned warp) const {
  return reverse_bits(warp & (warp_size() - 1), bits_);
}

}  // namespace warptlm
