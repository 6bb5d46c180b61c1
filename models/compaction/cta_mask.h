// CtaMask: the active threads of a whole CTA, one LaneMask per static warp (bit l of mask[w] is
// logical lane l of warp w, i.e. CTA thread w * warp_size + l). Compaction and the compactability
// analysis reason about CTA-wide masks rather than per-warp ones.
#pragma once

#include <vector>

#include "semantics/semantics.h"

namespace warptlm {

using CtaMask = std::vector<LaneMask>;

// Number of active threads (set bits over all warps).
unsigned active_threads(const CtaMask& mask);
// True when at least one thread is active.
bool any(const CtaMask& mask);

}  // namespace warptlm
