// The per-warp control-flow component. What the scheduler sees of it is the
// set of issuable paths (pc, lane mask, split id); how many there are, and how
// they diverge and reconverge, is each scheme's business.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "frontend/ir.h"
#include "semantics/semantics.h"

namespace warptlm {

struct Path {
  Pc pc = 0;
  LaneMask mask = 0;
  uint32_t split = 0;  // identifies the path to advance()
};

// What an issued instruction did to control flow, in the terms a scheme needs.
struct ControlEvent {
  Control kind = Control::None;  // None and Barrier: go on at `next`
  LaneMask active = 0;           // the issuing path's lanes
  LaneMask executed = 0;         // lanes whose guard held
  Pc next = 0;                   // pc + 8
  Pc target = 0;                 // Branch: taken target; Call: callee entry
  Pc reconv = kExitPc;           // Branch: reconvergence PC (IPDOM) from the finalizer
  bool marker = false;           // the instruction was a Reconverge marker (ppc_explicit)
};

// What a scheme counts about its own work, for the run statistics (RunStats;
// docs/reconvergence.md, "Statistics"). Cumulative since reset(); a scheme
// updates them in advance() with O(1) work unless paths split or merge.
struct ReconvergenceCounters {
  // Merges of paths that a divergent branch split: two paths becoming one
  // count 1, k paths meeting at once k - 1 (so every scheme counts alike for
  // the same lanes). Lanes coming back from a device-function call are not
  // counted: the call completes, no branch split them.
  uint64_t reconvergences = 0;
  // Those merges made before the IPDOM of the divergent branch that split
  // the merging paths (for nested splits, the innermost branch whose lanes
  // include both): at another pc, none of them having been through it yet.
  uint64_t early_reconvergences = 0;
  unsigned peak_entries = 0;  // what max_depth() reports
  // Schemes with two tables report each: mp_ipdom's split and reconvergence
  // tables, sorted_list's hot and cold context tables (0 elsewhere).
  unsigned peak_st_entries = 0, peak_rt_entries = 0;
  unsigned peak_hct_entries = 0, peak_cct_entries = 0;
};

class ReconvergenceUnit {
 public:
  virtual ~ReconvergenceUnit() = default;
  virtual const char* name() const = 0;
  // Starts a warp at `entry` with lanes `mask`.
  virtual void reset(Pc entry, LaneMask mask) = 0;
  virtual bool finished() const = 0;
  // Appends the paths that may issue now to `out`.
  virtual void issuable(std::vector<Path>& out) const = 0;
  // Applies the effect of the instruction that `split` issued. Returns how many
  // call frames completed (every lane of the call returned or exited), so the
  // executor can copy return values out and drop the callee's registers.
  virtual unsigned advance(uint32_t split, const ControlEvent& event) = 0;
  // Deepest the scheme's structure got (stack entries, table entries...).
  virtual unsigned max_depth() const = 0;
  // Not virtual: the executors read it after every issue.
  const ReconvergenceCounters& counters() const { return counters_; }
  // Whether lanes that execute a barrier wait there on their own (sm_70
  // semantics) while the scheme runs the warp's other lanes to it; the
  // executor then stops the warp only when its next path holds a waiting
  // lane. Otherwise a barrier stops the whole warp.
  virtual bool per_thread_barriers() const { return false; }

 protected:
  // Kept by the scheme; reset() clears it.
  ReconvergenceCounters counters_;
};

using ReconvergenceFactory = std::unique_ptr<ReconvergenceUnit> (*)(unsigned warp_size);

// The registry of schemes by name. Filled by register_builtin_reconvergence()
// (called on first use); a new scheme is one class plus one line there.
// `needs_markers`: the scheme only works on a program finalized with
// FinalizeOptions::insert_reconvergence_markers.
void register_reconvergence(const std::string& name, ReconvergenceFactory factory,
                            bool needs_markers = false);
std::vector<std::string> reconvergence_names();
// Throws std::invalid_argument listing the known names.
std::unique_ptr<ReconvergenceUnit> make_reconvergence_unit(const std::string& name,
                                                           unsigned warp_size);
// Whether a program run under scheme `name` must be finalized with
// reconvergence markers; every caller that finalizes a program for a run asks.
// Throws like make_reconvergence_unit() for an unknown name.
bool reconvergence_needs_markers(const std::string& name);

}  // namespace warptlm
