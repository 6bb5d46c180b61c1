// The per-warp control-flow component. What the scheduler sees of it is the
// set of issuable paths (pc, lane mask, split id); how many there are, and how
// they diverge and reconverge, is each scheme's business.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
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
  // Side-table traffic (docs/timing-model.md, "Reconvergence table costs"):
  // sorted_list's CCT inserts and extracts (a background-sorter swap counts as
  // one of each), mp_ipdom's RT accesses; and the control cycles they cost.
  uint64_t cct_inserts = 0, cct_extracts = 0, rt_accesses = 0;
  // mp_ipdom's full tables (mp_ipdom.st_entries / rt_entries): splits
  // deferred with the ST full, branches that found the RT full.
  uint64_t st_overflows = 0, rt_overflows = 0;
  uint64_t table_cycles = 0;
};

// What one access to a scheme's side table costs in the timing model, in core
// cycles during which the warp cannot issue (PlatformConfig sm.cct_access_cycles,
// sm.rt_access_cycles; both 1 by default). Zero, this struct's default and
// what functional mode keeps, makes the tables free.
struct TableTiming {
  unsigned cct_access = 0;  // sorted_list: one CCT insert or extract (a sorter swap is both)
  unsigned rt_access = 0;   // mp_ipdom: one RT entry written or updated
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

  // Timing of the scheme's own tables. The schemes that keep side tables off
  // the issue path (sorted_list's CCT, mp_ipdom's RT) charge what the last
  // advance() did to them; every other scheme reports 0.
  void set_table_timing(const TableTiming& timing) { timing_ = timing; }
  // Cycles after the issue during which the warp may not issue again, because
  // the last advance() is still using the scheme's tables. Not virtual: the
  // timing model reads it after every issue.
  unsigned control_cycles() const { return control_cycles_; }

  // The program's layout ranks (Program::layout_rank, per pc / kInstrBytes),
  // for schemes that order paths by their place in the code; without them
  // (nullptr or empty: hand-made events in unit tests) raw PCs are the order.
  void set_layout_ranks(const std::vector<uint32_t>* ranks) {
    ranks_ = ranks && !ranks->empty() ? ranks : nullptr;
  }

 protected:
  // A scheme with side tables sets control_cycles_ in every advance() and
  // adds it to counters_.table_cycles.
  void charge(unsigned cycles) {
    control_cycles_ = cycles;
    counters_.table_cycles += cycles;
  }
  // Where `pc` is in the layout order: its rank, or the pc itself without
  // ranks; a pc outside the program (kExitPc) comes last.
  uint64_t layout_order(Pc pc) const {
    if (!ranks_) return pc;
    const uint64_t i = pc / kInstrBytes;
    return i < ranks_->size() ? (*ranks_)[i] : ~uint64_t(0);
  }
  // Kept by the scheme; reset() clears it.
  ReconvergenceCounters counters_;
  TableTiming timing_;
  unsigned control_cycles_ = 0;

 private:
  const std::vector<uint32_t>* ranks_ = nullptr;
};

// Options of individual schemes (PlatformConfig mp_ipdom.*). 0 means the
// scheme's own default, so a scheme that has no such option never sees a
// value set for another (ExecConfig::validate() rejects that combination).
// Passed to the factory: an option that sizes a table is fixed when the unit
// is built, and the tables are allocated then, not on the issue path.
struct SchemeOptions {
  unsigned mp_ipdom_st_entries = 0;  // split table entries (0: the warp size)
  unsigned mp_ipdom_rt_entries = 0;  // reconvergence table divergence entries (0: 32)
};

using ReconvergenceFactory = std::unique_ptr<ReconvergenceUnit> (*)(unsigned warp_size,
                                                                    const SchemeOptions& options);

// The registry of schemes by name (registry/component_registry.h): the
// built-ins (simt/registry.cc) first, then those registered here, in order. A
// new scheme is one class plus one registration. `needs_markers`: the scheme
// only works on a program finalized with
// FinalizeOptions::insert_reconvergence_markers. std::invalid_argument for an
// empty name, a null factory or a name already registered.
void register_reconvergence(const std::string& name, ReconvergenceFactory factory,
                            bool needs_markers = false, const std::string& description = "");
std::vector<std::string> reconvergence_names();
// (name, description) of each, in the same order.
std::vector<std::pair<std::string, std::string>> reconvergence_descriptions();
// Throws std::invalid_argument listing the known names, or naming the option
// the scheme rejects.
std::unique_ptr<ReconvergenceUnit> make_reconvergence_unit(const std::string& name,
                                                           unsigned warp_size,
                                                           const SchemeOptions& options = {});
// Whether a program run under scheme `name` must be finalized with
// reconvergence markers; every caller that finalizes a program for a run asks.
// Throws like make_reconvergence_unit() for an unknown name.
bool reconvergence_needs_markers(const std::string& name);

}  // namespace warptlm
