// Reconvergence counting for the one-path-at-a-time stacks (ipdom,
// minority_first): an entry popped at its reconvergence pc hands its lanes to
// its parent, the reconvergence entry waiting at that pc. Every arrival after
// the parent's first is one more path merged into it.
#pragma once

#include <cstddef>
#include <vector>

#include "simt/reconvergence_unit.h"

namespace warptlm {

// `lanes` (a popped entry's, nonzero) arrived at their reconvergence entry.
// `Entry` has `mask` and a bool `arrived` that the scheme clears whenever the
// entry becomes a reconvergence entry again (a divergent branch parks it).
// The parent is the nearest entry left on the stack that holds any of the
// lanes: the ones in between are the popped entry's siblings, disjoint from
// it. Runs only when an entry pops, so a warp that never diverges pays nothing.
template <class Entry>
void note_arrival(std::vector<Entry>& stack, LaneMask lanes, ReconvergenceCounters& counters) {
  for (size_t i = stack.size(); i-- > 0;) {
    Entry& parent = stack[i];
    if ((parent.mask & lanes) == 0) continue;
    if (parent.arrived) ++counters.reconvergences;  // at the IPDOM: never early
    parent.arrived = true;
    return;
  }
}

}  // namespace warptlm
