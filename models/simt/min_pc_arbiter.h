// Per-thread PC arbitration, the baseline Simty's sorted list was compared
// against (Collange & Brunie, CompAS 2017, Sec. 3.1; Collange, SympA 2011):
// every thread keeps its own PC and call depth; each issue selects the threads
// at the maximal call depth, then among them those at the minimal PC, and runs
// them together. No reconvergence PC and no stack: threads that reach the
// same PC at the same depth simply get selected together.
//
// Barriers are per thread, as on sm_70: lanes that execute bar.sync while other
// live lanes of the warp are elsewhere are set aside (not selected) until every
// live lane has arrived or exited; the executor holds them until the barrier
// completes.
//
// The hardware does that reduction over the PC vector every cycle. Here the
// vector is written only once the warp has diverged: while every live thread
// is at the selected PC, the selection itself stands for the whole vector.
#pragma once

#include <vector>

#include "simt/divergence_joins.h"
#include "simt/reconvergence_unit.h"
#include "simt/thread_call_frames.h"

namespace warptlm {

class MinPcArbiter : public ReconvergenceUnit {
 public:
  explicit MinPcArbiter(unsigned warp_size);
  const char* name() const override { return "min_pc"; }
  void reset(Pc entry, LaneMask mask) override;
  bool finished() const override { return live_ == 0; }
  void issuable(std::vector<Path>& out) const override;
  unsigned advance(uint32_t split, const ControlEvent& event) override;
  // Peak number of distinct (pc, depth) groups among the live threads.
  unsigned max_depth() const override { return counters_.peak_entries; }
  bool per_thread_barriers() const override { return true; }

  // A live lane's PC and call depth (for tests).
  Pc pc_of(unsigned lane) const { return converged_ ? sel_pc_ : pc_[lane]; }
  unsigned depth_of(unsigned lane) const { return converged_ ? sel_depth_ : depth_[lane]; }
  unsigned max_call_depth() const { return calls_.max_open(); }

 private:
  // Writes the selection into the per-thread vectors (first divergence).
  void spread();
  // The arbitration: maximal depth, then minimal PC, over the live threads.
  void select();
  unsigned count_paths() const;
  // Lanes `moved` (one group) now at (pc, depth): merges them with the lanes
  // already there, if any, for the statistics.
  void arrived(LaneMask moved, Pc pc, unsigned depth);

  unsigned warp_size_;
  LaneMask live_ = 0;
  // The selected group; with converged_, also every live thread's state.
  Pc sel_pc_ = 0;
  LaneMask sel_mask_ = 0;
  unsigned sel_depth_ = 0;
  bool converged_ = true;
  LaneMask parked_ = 0;  // lanes that arrived at a barrier while others had not
  std::vector<Pc> pc_;   // per lane, valid when !converged_
  std::vector<unsigned> depth_;
  ThreadCallFrames calls_;
  DivergenceJoins joins_;
};

}  // namespace warptlm
