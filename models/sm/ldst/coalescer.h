// The global-memory coalescer: which aligned segments (e.g. L1 lines) a warp's
// memory instruction touches, i.e. how many memory transactions it costs.
#pragma once

#include <cstdint>
#include <vector>

#include "semantics/semantics.h"

namespace warptlm {

// The distinct `segment`-aligned segments touched by a warp's accesses: active
// lane l (bit l of `active`, l < warp_size) accesses [addrs[l], addrs[l] + size).
// Written to `out` (cleared first; its capacity is reused, so a caller keeping
// one vector does not allocate per instruction) in order of the lowest lane
// touching each; an access crossing a segment boundary touches both (all) of
// them. addrs must hold warp_size entries; inactive lanes' entries are not read.
// std::invalid_argument naming the parameter: warp_size 0 or > kMaxWarpSize,
// size 0, segment not a power of two.
void coalesce(const uint64_t* addrs, LaneMask active, unsigned warp_size, unsigned size,
              unsigned segment, std::vector<uint64_t>& out);

}  // namespace warptlm
