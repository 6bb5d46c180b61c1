// Balanced: Equation 2 of the SLP paper for even warps, its complement for odd warps.
#include "compaction/balanced_permutation.h"

namespace warptlm {

BalancedPermutation::BalancedPermutation(unsigned warp_size) : XorMaskPermutation(warp_size) {
  cache_rows();
}

unsigned BalancedPermutation::mask(unsigned warp) const {
  unsigned lanes = warp_size() - 1;  // all log2(warp_size) bits set
  unsigned even_mask = (warp / 2) & lanes;
  return (warp & 1u) ? (~even_mask & lanes) : even_mask;
}

}  // namespace warptlm
