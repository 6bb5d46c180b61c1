// The shared-memory bank-conflict model: how many cycles one warp access to
// shared memory occupies the banks.
#pragma once

#include <cstdint>
#include <vector>

#include "semantics/semantics.h"

namespace warptlm {

// Cycles one shared-memory warp access takes with `banks` 4-byte-wide banks
// (word w lives in bank w % banks): the maximum over banks of the distinct
// 4-byte words accessed in that bank. Lanes reading the same word share one
// access (broadcast). Active lane l (l < warp_size) accesses
// [addrs[l], addrs[l] + size), so an access of size 8 or 16 touches size/4
// consecutive words (and an unaligned one every word it overlaps). 0 when no
// lane is active. Does not allocate. std::invalid_argument naming the
// parameter: warp_size 0 or > kMaxWarpSize, size not 1/2/4/8/16, banks 0.
unsigned shared_access_cycles(const uint64_t* addrs, LaneMask active, unsigned warp_size,
                              unsigned size, unsigned banks);

// The same for an instruction that makes several accesses per lane (the
// tensor-core loads and stores, ldmatrix): `words` holds the 4-byte word
// index (byte address / 4) of every word each access touches, in any order
// and with repeats; it is sorted and deduplicated in place. 0 when empty.
// std::invalid_argument for banks 0.
unsigned shared_word_cycles(std::vector<uint64_t>& words, unsigned banks);

}  // namespace warptlm
