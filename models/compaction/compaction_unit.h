// The compaction-unit interface: how thread block compaction forms the warps
// of a CTA's threads that run one block-stack entry, and, for a unit that
// chooses per branch (CAPRI), which divergent branches compact at all.
//
// Everything else of compaction is shared and stays out of the unit: the
// CTA-wide block stack, the lockstep execution of synchronising instructions
// (exec/compacting_cta_runner.h), and in the timing model the formed warps'
// issue and synchronisation (sm/compaction_issue.h). A unit is added by
// writing one class and registering its name (register_compaction_unit, or a
// plug-in: config/plugins.h); compaction "none" is no unit at all.
//
// A unit is made once per functional run and once per SM in the timing model,
// and is asked about every CTA that runs there: state it keeps (a prediction
// table) is shared by those CTAs, as CAPRI's table is by an SM's.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compaction/cta_mask.h"
#include "compaction/warp_formation.h"
#include "frontend/ir.h"
#include "registry/component_options.h"

namespace warptlm {

// What a unit's factory is given: the configuration it may read.
struct CompactionSetup {
  unsigned warp_size = 32;
  std::string permutation = "none";  // SIMD lane permutation (lane_permutation.h)
  uint64_t seed = 1;                 // for a seeded permutation
  // The options the unit declared at registration, with their configured
  // values (compaction_unit_options()); make_compaction_unit() fills in the
  // defaults when they are not given.
  ComponentOptions options;
};

// A selective unit's decisions, reported as the statistics capri_predictions,
// capri_compactions and capri_mispredictions.
struct CompactionDecisions {
  uint64_t predictions = 0;     // CTA-wide divergent branches decided
  uint64_t compactions = 0;     // ... decided to compact
  uint64_t mispredictions = 0;  // decisions the branch's outcome contradicted
};

class CompactionUnit {
 public:
  virtual ~CompactionUnit() = default;

  // How many warps (NW) the unit forms for the CTA threads `active` of a
  // compacted entry, and the warps themselves: out.size() == count_warps().
  // Each active thread runs in exactly one formed warp, at a SIMD lane no
  // other thread of that warp holds.
  virtual unsigned count_warps(const CtaMask& active) const = 0;
  virtual void form_warps(const CtaMask& active, std::vector<FormedWarp>& out) const = 0;

  // Whether the unit decides per divergent branch whether its paths compact
  // (the three calls below); one that does not compacts every entry.
  virtual bool selective() const { return false; }
  // A branch divergent across the CTA at `pc` split its threads into `taken`
  // and `not_taken`: whether both paths compact (else each runs as the
  // static warps it arrived in). Called once per dynamic instance, after all
  // the CTA's threads executed the branch.
  virtual bool compact_paths(Pc /*pc*/, const CtaMask& /*taken*/, const CtaMask& /*not_taken*/,
                             CompactionDecisions& /*decisions*/) {
    return true;
  }
  // Timing model: before the branch at `pc` executes, whether compact_paths()
  // may answer true for it. False lets the CTA's warps run past the branch
  // without waiting for each other (CAPRI's bypass); learn_bypassed() then
  // tells the unit the branch's outcome. Must not change the unit's state.
  virtual bool may_compact(Pc /*pc*/) const { return true; }
  // The branch at `pc` ran without synchronising (may_compact() was false)
  // and split the CTA's threads into `taken` and `not_taken`.
  virtual void learn_bypassed(Pc /*pc*/, const CtaMask& /*taken*/, const CtaMask& /*not_taken*/,
                              CompactionDecisions& /*decisions*/) {}
};

using CompactionUnitFactory = std::unique_ptr<CompactionUnit> (*)(const CompactionSetup& setup);

// Adds compaction unit `name` (registry/component_registry.h) with its
// options (configured as the fields "<name>.<option>"): std::invalid_argument
// for an empty name, "none", a null factory, a name already registered or a
// bad option declaration.
void register_compaction_unit(const std::string& name, CompactionUnitFactory factory,
                              const std::string& description = "",
                              const std::vector<OptionInfo>& options = {});
// The registered units, in registration order (built-ins first: tbc, capri,
// ideal), without "none".
std::vector<std::string> compaction_unit_names();
std::vector<std::pair<std::string, std::string>> compaction_unit_descriptions();
// Unit `name`'s options with the values `values` sets ("capri.entries" keys;
// others are ignored): std::invalid_argument for an unknown unit or naming the
// field of a value out of range.
ComponentOptions compaction_unit_options(const std::string& name, const OptionValues& values);
// Every unit's declared options, in registration order (those without none).
std::vector<DeclaredOptions> compaction_declared_options();
// Null for "none"; std::invalid_argument naming `compaction` and listing the
// known names for an unknown one, and what the factory throws for a bad
// setup (an unknown permutation). setup.options are used when they are this
// unit's (compaction_unit_options(name, ...)); otherwise it gets its defaults.
std::unique_ptr<CompactionUnit> make_compaction_unit(const std::string& name,
                                                     CompactionSetup setup);

}  // namespace warptlm
