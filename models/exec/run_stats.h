// Statistics of one kernel run.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "simt/reconvergence_unit.h"
#include "stats/stat_info.h"

namespace warptlm {

struct RunStats {
  uint64_t warp_instructions = 0;    // issued warp instructions (guarded-off lanes still issue)
  uint64_t thread_instructions = 0;  // sum of active lanes over issued warp instructions
  uint64_t branches = 0;             // conditional branch warp instructions issued
  uint64_t divergent_branches = 0;   // ... whose active lanes went both ways
  uint64_t ctas = 0;
  uint64_t warps = 0;
  unsigned warp_size = 0;
  unsigned simd_width = 0;  // SIMD lanes a warp instruction passes over (0: warp_size)

  // Reconvergence (ReconvergenceCounters, summed over warps).
  uint64_t reconvergences = 0;        // paths merged into one (k paths at once: k - 1)
  uint64_t early_reconvergences = 0;  // ... before their branch's IPDOM
  uint64_t marker_instructions = 0;   // Reconverge markers issued (in warp_instructions)
  // exec_mask: instructions the exec-mask lowering wrote, issued (in
  // warp_instructions); and, of the program run, its inserted flow blocks and
  // written instructions (static: the same in every part, add() keeps one).
  uint64_t mask_instructions = 0;
  uint64_t flow_blocks = 0;
  uint64_t mask_instructions_static = 0;
  // Issuable paths of the issuing warp, sampled at every issue (note_issuable()).
  uint64_t issuable_paths_sum = 0;
  unsigned max_issuable_paths = 0;
  // Peak occupancy of the scheme's structure, max over warps.
  unsigned peak_entries = 0;
  // Timing mode: cycles warps were held while their scheme's side tables worked.
  uint64_t table_cycles = 0;
  // The scheme's own statistics (reconvergence_stats(): mp_ipdom's table
  // traffic, sorted_list's CCT...): what they are, and their values, combined
  // over warps and parts as each StatInfo::peak says. Null: none counted yet.
  std::shared_ptr<const std::vector<StatInfo>> own_stats;
  std::array<uint64_t, kMaxOwnStats> own_values{};
  // CAPRI (compaction "capri"): CTA-level divergent branches predicted, those
  // predicted worth compacting, and predictions their outcome contradicted.
  uint64_t capri_predictions = 0, capri_compactions = 0, capri_mispredictions = 0;

  // Mean active lanes over the SIMD lanes an instruction occupies: a warp
  // instruction passes warp_size / simd_width times over simd_width lanes
  // (at least once), so a warp narrower than the SIMD width leaves lanes idle.
  double simd_utilisation() const {
    const unsigned width = simd_width ? simd_width : warp_size;
    const double passes = double(std::max(1u, width ? warp_size / width : 1u));
    return warp_instructions == 0
               ? 0.0
               : double(thread_instructions) / (double(warp_instructions) * passes * double(width));
  }
  // Activity factor (Kerr et al.): mean fraction of a warp's threads active
  // per issued warp instruction.
  double activity_factor() const {
    return warp_instructions == 0
               ? 0.0
               : double(thread_instructions) / double(warp_instructions) / double(warp_size);
  }
  double mean_issuable_paths() const {
    return warp_instructions == 0 ? 0.0 : double(issuable_paths_sum) / double(warp_instructions);
  }
  // The issuing warp offered `paths` issuable paths (the size of its
  // ReconvergenceUnit::issuable()). Whoever issues calls it once per issue.
  void note_issuable(size_t paths) {
    issuable_paths_sum += paths;
    max_issuable_paths = std::max(max_issuable_paths, static_cast<unsigned>(paths));
  }
  // Sets the program's static figures (flow_blocks, mask_instructions_static)
  // from the module the run executed.
  void note_program(const Module& module);
  // Adds the statistics of another part of the same run (an SM's): counts
  // add up, peaks take the maximum; warp_size is kept unless unset.
  void add(const RunStats& other);
  // Adds one warp's (or part's) values of the scheme's own statistics
  // `stats`. std::logic_error for another scheme's than those counted so far.
  void add_own(const std::shared_ptr<const std::vector<StatInfo>>& stats, const uint64_t* values);
  // The value of the scheme's own statistic `name`; 0 when the scheme has none by that name.
  uint64_t own(const std::string& name) const;
  nlohmann::json to_json() const;
};

// Every statistic to_json() writes, in its order, with its unit and meaning
// (part of the registry in gpu/statistics.h), but the schemes' own
// (all_reconvergence_stats(), which to_json() writes after these, 0 when the
// run's scheme is another). A new statistic gets a line here.
const std::vector<StatInfo>& run_stat_infos();

}  // namespace warptlm
