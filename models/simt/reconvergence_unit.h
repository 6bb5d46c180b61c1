// The per-warp control-flow component. What the scheduler sees of it is the
// set of issuable paths (pc, lane mask, split id); how many there are, and how
// they diverge and reconverge, is each scheme's business.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "frontend/ir.h"
#include "registry/component_options.h"
#include "semantics/semantics.h"
#include "stats/stat_info.h"

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
  bool lowered = false;          // ... was written by the exec-mask lowering (exec_mask)
};

// What every scheme counts about its own work, for the run statistics
// (RunStats; docs/reconvergence.md, "Statistics"). Cumulative since reset(); a
// scheme updates them in advance() with O(1) work unless paths split or merge.
// What only one scheme counts (mp_ipdom's table traffic, sorted_list's CCT)
// is the scheme's own: it registers those statistics with its name and
// reports them through own_counters().
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
  // Control cycles the scheme's side tables cost (charge()).
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
  // Straight runs, the functional executor's fast path (exec/grid_runner.h):
  // whether path `split` may go on by itself, its pc moving and nothing else
  // changing, through instructions without control effect and branches that
  // all of its lanes take the same way, until its pc becomes `*stop` (where
  // the scheme acts: a reconvergence pc). move_straight() then puts the path
  // at `pc`, exactly as advance() of each of those instructions would have.
  // The default offers no runs: every instruction goes through advance().
  virtual bool straight_run(uint32_t /*split*/, Pc* /*stop*/) const { return false; }
  virtual void move_straight(uint32_t /*split*/, Pc /*pc*/) {}
  // Deepest the scheme's structure got (stack entries, table entries...).
  virtual unsigned max_depth() const = 0;
  // The scheme's own statistics (the `stats` it was registered with),
  // cumulative since reset(): writes out[i] for stats[i]. Called once per warp
  // at its end.
  virtual void own_counters(uint64_t* /*out*/) const {}
  // The statistics own_counters() reports, as registered (empty for most);
  // make_reconvergence_unit() sets them.
  const std::shared_ptr<const std::vector<StatInfo>>& own_stats() const { return own_stats_; }
  void set_own_stats(std::shared_ptr<const std::vector<StatInfo>> stats) {
    own_stats_ = std::move(stats);
  }
  // One own statistic by name (0 when the scheme has none by that name).
  uint64_t own_counter(const std::string& stat) const;
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
  std::shared_ptr<const std::vector<StatInfo>> own_stats_;
};

// What a scheme throws for a program it cannot run as written (exec_mask: a
// bra.uni whose lanes disagree, which it runs as a scalar branch). The
// executor reports it as a kernel fault at the issuing instruction; any other
// exception from advance() is a defect of the scheme.
class ControlFault : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// For a scheme that met an exec-mask instruction (Control::Mask*): those exist
// only in programs lowered for the exec_mask scheme. Inline: plug-ins use it.
[[noreturn]] inline void throw_not_lowered_for(const char* scheme) {
  throw std::logic_error(std::string("reconvergence scheme '") + scheme +
                         "' met an exec-mask instruction: those exist only in programs lowered "
                         "for compiler-side reconvergence");
}

// Most own statistics one scheme may register.
constexpr size_t kMaxOwnStats = 16;

inline uint64_t ReconvergenceUnit::own_counter(const std::string& stat) const {
  if (!own_stats_) return 0;
  const size_t i = stat_index(*own_stats_, stat);
  if (i == own_stats_->size()) return 0;
  uint64_t values[kMaxOwnStats];
  own_counters(values);
  return values[i];
}

// A scheme's factory gets the options it declared at registration
// (registry/component_options.h), with the configured values: an option that
// sizes a table is fixed when the unit is built, and the tables are allocated
// then, not on the issue path.
using ReconvergenceFactory =
    std::unique_ptr<ReconvergenceUnit> (*)(unsigned warp_size, const ComponentOptions& options);

// What a scheme needs of the program it runs (exec/prepared_program.h makes it).
enum class ProgramForm {
  Plain,     // finalized as parsed
  Markers,   // finalized with Reconverge markers at every reconvergence point
  ExecMask,  // lowered to a reconverging CFG with exec-mask instructions (exec_mask)
};
const char* program_form_name(ProgramForm form);

// The registry of schemes by name (registry/component_registry.h): the
// built-ins (simt/registry.cc) first, then those registered here, in order. A
// new scheme is one class plus one registration. `needs_markers`: the scheme
// only works on a program finalized with
// FinalizeOptions::insert_reconvergence_markers (ProgramForm::Markers;
// otherwise Plain). `stats`: the statistics only
// this scheme counts (ReconvergenceUnit::own_counters()); every run reports
// every registered scheme's, 0 under the others, so runs under different
// schemes have the same columns. `options`: the scheme's options, configured
// as the fields "<name>.<option>". std::invalid_argument for an empty name, a
// null factory, a name already registered, more than kMaxOwnStats statistics,
// a statistic another scheme registered with another unit or combination, or
// a bad option declaration.
void register_reconvergence(const std::string& name, ReconvergenceFactory factory,
                            bool needs_markers = false, const std::string& description = "",
                            const std::vector<StatInfo>& stats = {},
                            const std::vector<OptionInfo>& options = {});
std::vector<std::string> reconvergence_names();
// (name, description) of each, in the same order.
std::vector<std::pair<std::string, std::string>> reconvergence_descriptions();
// Scheme `name`'s options with the values `values` sets ("mp_ipdom.st_entries"
// keys; others are ignored). Throws std::invalid_argument listing the known
// names for an unknown scheme, or naming the field of a value out of range.
ComponentOptions reconvergence_options(const std::string& name, const OptionValues& values);
// Every scheme's declared options, in registration order (those without none).
std::vector<DeclaredOptions> reconvergence_declared_options();
// A unit with its options at their defaults, or with `options`
// (reconvergence_options(name, ...)). Throws std::invalid_argument listing the
// known names, or naming the option the scheme rejects.
std::unique_ptr<ReconvergenceUnit> make_reconvergence_unit(const std::string& name,
                                                           unsigned warp_size);
std::unique_ptr<ReconvergenceUnit> make_reconvergence_unit(const std::string& name,
                                                           unsigned warp_size,
                                                           const ComponentOptions& options);
// The statistics scheme `name` registered (throws like make_reconvergence_unit()).
std::shared_ptr<const std::vector<StatInfo>> reconvergence_stats(const std::string& name);
// Every registered scheme's own statistics, in registration order, each name once.
std::vector<StatInfo> all_reconvergence_stats();
// The form of program scheme `name` runs; every caller that prepares a
// program for a run asks (through prepare_program()). Throws like
// make_reconvergence_unit() for an unknown name.
ProgramForm reconvergence_program_form(const std::string& name);

}  // namespace warptlm
