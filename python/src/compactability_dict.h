// The compactability analysis (compaction/compactability.h) as Python values:
// {"warp_size", "permutations", "paths": {column: [values]} with one row per
// (branch pc, direction, activity bucket, permutation), "totals": sums over
// every lockstep instruction}.
#pragma once

#include "compaction/compactability.h"
#include "core.h"

namespace warptlm::python {

py::dict compactability_dict(const CompactionAnalysis& analysis);

}  // namespace warptlm::python
