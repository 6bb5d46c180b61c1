// The XOR-mask lane permutations: home_lane(w, l) = l XOR mask(w), a bijection for any mask below
// the warp size. none, odd_even and xor_half come from the SLP paper's section 4.2 / Figure 7 and
// Fung & Aamodt; wid and rev_wid from Brunie et al. (SLP Figure 7 (g-h), Figure 9). Balanced, the
// paper's own XOR permutation, has its own file.
#pragma once

#include "compaction/lane_permutation.h"

namespace warptlm {

// A permutation that XORs each warp's logical lanes with a per-warp mask.
class XorMaskPermutation : public LanePermutation {
 public:
  unsigned home_lane(unsigned warp, unsigned lane) const final;
  // The mask XORed into every logical lane of `warp`; always below warp_size().
  virtual unsigned mask(unsigned warp) const = 0;

 protected:
  using LanePermutation::LanePermutation;
};

// No permutation: the home lane is the logical lane (the baseline TBC mapping).
class IdentityPermutation final : public XorMaskPermutation {
 public:
  explicit IdentityPermutation(unsigned warp_size);
  const char* name() const override { return "none"; }
  unsigned mask(unsigned warp) const override;
};

// Odd_Even (Fung & Aamodt): odd warps swap even and odd lanes (XOR 1).
class OddEvenPermutation final : public XorMaskPermutation {
 public:
  explicit OddEvenPermutation(unsigned warp_size);
  const char* name() const override { return "odd_even"; }
  unsigned mask(unsigned warp) const override;
};

// XOR_half (SLP section 4.2): odd warps swap their two half-warps (XOR warp_size / 2).
class XorHalfPermutation final : public XorMaskPermutation {
 public:
  explicit XorHalfPermutation(unsigned warp_size);
  const char* name() const override { return "xor_half"; }
  unsigned mask(unsigned warp) const override;
};

// WID (Brunie et al.): XOR with the warp id, taken mod warp_size.
class WidPermutation final : public XorMaskPermutation {
 public:
  explicit WidPermutation(unsigned warp_size);
  const char* name() const override { return "wid"; }
  unsigned mask(unsigned warp) const override;
};

// Rev_WID (Brunie et al.): XOR with the warp id (mod warp_size) bit-reversed over log2(warp_size)
// bits.
class RevWidPermutation final : public XorMaskPermutation {
 public:
  explicit RevWidPermutation(unsigned warp_size);
  const char* name() const override { return "rev_wid"; }
  unsigned mask(unsigned warp) const override;

 private:
  unsigned bits_;
};

// `value` bit-reversed over its low `bits` bits (bits in [1, 6]).
unsigned reverse_bits(unsigned value, unsigned bits);

}  // namespace warptlm
