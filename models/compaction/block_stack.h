// The block-wide reconvergence stack of thread block compaction (Fung &
// Aamodt, HPCA 2011; SLP paper section 2.3): one IPDOM stack per CTA whose
// entries hold CTA-wide masks, so the CTA's threads run one path at a time in
// lockstep and a new set of warps can be formed at every divergence and
// reconvergence. Same push order and pop rule as IpdomStack (taken path
// first; an entry pops when its pc reaches its reconvergence pc), with a
// branch divergent when the CTA's active threads go both ways.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "compaction/cta_mask.h"
#include "simt/reconvergence_unit.h"

namespace warptlm {

// What one lockstep instruction did to control flow: ControlEvent with a
// CTA-wide mask. The stack's top entry is the issuing path (its mask is the
// active threads).
struct CtaControlEvent {
  Control kind = Control::None;  // None and Barrier: go on at `next`
  CtaMask executed;              // threads whose guard held (Branch: those taking it)
  Pc next = 0;                   // pc + 8
  Pc target = 0;                 // Branch: taken target; Call: callee entry
  Pc reconv = kExitPc;           // Branch: reconvergence PC (IPDOM) from the finalizer
  // Branch: whether the paths of a divergent branch are compacted (their
  // entries' `compact`); CAPRI's prediction, always true under TBC.
  bool compact_paths = true;
};

class BlockStack {
 public:
  struct Entry {
    Pc pc = 0;
    Pc rpc = kExitPc;
    bool call_frame = false;  // the bottom entry of a device-function call
    bool arrived = false;     // a path already reconverged into this entry (statistics)
    // Warps are formed by compaction for this entry's threads. A divergent
    // branch's paths take CtaControlEvent::compact_paths, a call's entry its
    // caller's; a reconvergence entry keeps what it had before the branch.
    bool compact = true;
  };

  // Starts the CTA at `entry` with threads `mask` (one LaneMask per static
  // warp); sizes every scratch buffer, so advance() allocates only when the
  // stack grows deeper than it has been.
  void reset(Pc entry, const CtaMask& mask);
  bool finished() const { return entries_.empty(); }
  unsigned warps() const { return warps_; }
  size_t depth() const { return entries_.size(); }
  const Entry& entry(size_t i) const { return entries_[i]; }
  // The CTA-wide mask of entry i: warps() words.
  const LaneMask* mask(size_t i) const { return masks_.data() + i * warps_; }
  CtaMask mask_copy(size_t i) const { return CtaMask(mask(i), mask(i) + warps_); }
  const Entry& top() const { return entries_.back(); }
  const LaneMask* top_mask() const { return mask(entries_.size() - 1); }
  // Changes whenever the top entry's threads may have changed (a push, pop or
  // retire), not when only its pc moves: callers cache what they derive from
  // the top mask (the formed warps) under it.
  uint64_t top_version() const { return version_; }
  // Device-function calls open (call-frame entries on the stack).
  unsigned call_depth() const { return call_depth_; }

  // Applies the effect of the instruction the top entry issued. Returns how
  // many call frames completed (every thread of the call returned or exited).
  unsigned advance(const CtaControlEvent& event);

  const ReconvergenceCounters& counters() const { return counters_; }
  unsigned max_depth() const { return counters_.peak_entries; }

 private:
  void push(const Entry& e, const LaneMask* mask);
  void erase(size_t i);
  // Removes `threads` from the entries from the top down to the innermost
  // call frame (ret) or to the bottom (exit); erases the emptied entries.
  unsigned retire(const LaneMask* threads, bool whole_kernel);
  void pop_reconverged();

  unsigned warps_ = 0;
  std::vector<Entry> entries_;
  std::vector<LaneMask> masks_;              // masks_[i * warps_ + w]: entry i, static warp w
  std::vector<LaneMask> taken_, not_taken_;  // branch scratch, warps_ words each
  unsigned call_depth_ = 0;
  uint64_t version_ = 0;
  ReconvergenceCounters counters_;
};

}  // namespace warptlm
