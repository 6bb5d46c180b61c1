// The dual-path stack (DPS) of Rhu & Erez, "The dual-path execution model for
// efficient GPU control flow" (HPCA 2013), as seed 000 describes it: a
// divergent branch pushes one entry holding both of its paths, the taken and
// the not-taken (pc, mask); both paths of the top entry may issue, so a
// scheduler can interleave them; each waits at the branch's IPDOM (from the
// finalizer) and the entry pops when both have arrived. Divergence inside one
// of the two paths parks that path at the new branch's IPDOM and pushes a new
// entry, so only the innermost pair is issuable.
#pragma once

#include <vector>

#include "simt/dual_path_entries.h"
#include "simt/reconvergence_unit.h"

namespace warptlm {

class DualPathStack : public ReconvergenceUnit {
 public:
  const char* name() const override { return "dual_path"; }
  void reset(Pc entry, LaneMask mask) override {
    stack_.reset(entry, mask);
    counters_ = {};
    counters_.peak_entries = stack_.max_depth();
  }
  bool finished() const override { return stack_.empty(); }
  // The top entry's paths that have not reached its reconvergence PC, taken
  // path first, then the not-taken path (the functional executor issues the
  // first, so it runs the taken path to the IPDOM first, like `ipdom`).
  void issuable(std::vector<Path>& out) const override;
  unsigned advance(uint32_t split, const ControlEvent& event) override;
  unsigned max_depth() const override { return counters_.peak_entries; }

  const std::vector<DpsEntry>& entries() const { return stack_.entries(); }

 private:
  static bool waiting(const DpsEntry& e, unsigned side) {
    return e.split() && e.side[side].pc == e.rpc;
  }
  // Pops the top entries whose remaining paths all wait at their rpc.
  void pop_reconverged();

  DpsEntries stack_;
};

}  // namespace warptlm
