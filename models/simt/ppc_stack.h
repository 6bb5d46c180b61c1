// Paired-path comparison (PPC) on the dual-path stack, Huang et al., "Dynamic
// SIMD Re-convergence with Paired-Path Comparison" (seed 000, Fig. 4 and 5).
// A divergent branch pushes an entry with its taken and not-taken (pc, mask);
// of the top entry's two paths the one with the smaller PC runs and its PC is
// updated in the entry; when the two PCs are equal the entry is deleted and
// the parent's running path continues at that PC with the union of the lanes.
// No reconvergence PC is used: paths meet wherever their PCs first coincide,
// which on unstructured CFGs can be before the IPDOM.
//
// Implicit mode (`ppc_implicit`) compares after every instruction. On clang's
// block layout the smaller PC is not always the earlier block (a rotated
// loop's latch precedes its body), so it compares the finalizer's layout
// ranks (Program::layout_rank, given through set_layout_ranks(); raw PCs
// without them): a topological order in which a branch's IPDOM comes after
// both sides and a loop's blocks before its exits. Explicit mode compares only after a
// Reconverge marker issued (the finalizer inserts one at each IPDOM,
// FinalizeOptions::insert_reconvergence_markers) and when a divergent branch
// pushes an entry (the paper invokes PPC after the push to pick the first
// path); in between, the running path keeps running whatever its PC. A side
// that reaches its branch's IPDOM marker parks there until the other side
// arrives, so paths meet at the marker even where the layout puts it first.
#pragma once

#include <vector>

#include "simt/dual_path_entries.h"
#include "simt/reconvergence_unit.h"

namespace warptlm {

class PairedPathStack : public ReconvergenceUnit {
 public:
  enum class Mode { Implicit, Explicit };
  explicit PairedPathStack(Mode mode) : mode_(mode) {}

  const char* name() const override {
    return mode_ == Mode::Implicit ? "ppc_implicit" : "ppc_explicit";
  }
  void reset(Pc entry, LaneMask mask) override;
  bool finished() const override { return stack_.empty(); }
  // One path: the running side of the top entry.
  void issuable(std::vector<Path>& out) const override;
  unsigned advance(uint32_t split, const ControlEvent& event) override;
  unsigned max_depth() const override { return counters_.peak_entries; }

  const std::vector<DpsEntry>& entries() const { return stack_.entries(); }
  // Entries deleted because their two PCs met (Fig. 4, line 3); early when
  // they met elsewhere than at their branch's IPDOM.
  uint64_t reconvergences() const { return counters_.reconvergences; }

 private:
  // Hands the top entry's remaining path to the parent's running side and
  // deletes the entry.
  void merge_into_parent(Pc pc);
  // Deletes top entries left with one non-empty side (the other side's lanes
  // exited or returned): their survivor needs nobody to wait for.
  void drop_one_sided();
  // Fig. 4: delete the top entry while its two PCs are equal, then run the
  // side with the smaller PC, unless that side is parked.
  void compare();
  // Explicit mode: the side has reached the marker that the finalizer put at
  // its branch's IPDOM, and waits there for the other side.
  static bool parked(const DpsEntry& e, unsigned side) {
    return e.split() && e.rpc != kExitPc && e.side[side].pc == e.rpc;
  }

  Mode mode_;
  DpsEntries stack_;
};

}  // namespace warptlm
