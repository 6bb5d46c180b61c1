// Balanced, the SLP paper's permutation (Rhu & Erez ISCA 2013, section 4.3, Equation 2, Figure
// 9(a)): even warp w XORs its lanes with (w / 2) mod warp_size, odd warp w with the bitwise inverse
// of its even partner's mask over log2(warp_size) bits. Each even/odd pair thus covers both
// half-warps, and the warps [j * warp_size, (j + 1) * warp_size) use every mask exactly once, so
// within such a group each home lane holds each logical lane once ("vertical balance").
#pragma once

#include "compaction/xor_permutations.h"

namespace warptlm {

class BalancedPermutation final : public XorMaskPermutation {
 public:
  explicit BalancedPermutation(unsigned warp_size);
  const char* name() const override { return "balanced"; }
  unsigned mask(unsigned warp) const override;
};

}  // namespace warptlm
