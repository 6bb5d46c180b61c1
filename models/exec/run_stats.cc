#include "exec/run_stats.h"

#include <stdexcept>

namespace warptlm {

void RunStats::add(const RunStats& o) {
  warp_instructions += o.warp_instructions;
  thread_instructions += o.thread_instructions;
  branches += o.branches;
  divergent_branches += o.divergent_branches;
  ctas += o.ctas;
  warps += o.warps;
  if (warp_size == 0) warp_size = o.warp_size;
  if (simd_width == 0) simd_width = o.simd_width;
  reconvergences += o.reconvergences;
  early_reconvergences += o.early_reconvergences;
  marker_instructions += o.marker_instructions;
  mask_instructions += o.mask_instructions;
  flow_blocks = std::max(flow_blocks, o.flow_blocks);
  mask_instructions_static = std::max(mask_instructions_static, o.mask_instructions_static);
  issuable_paths_sum += o.issuable_paths_sum;
  max_issuable_paths = std::max(max_issuable_paths, o.max_issuable_paths);
  peak_entries = std::max(peak_entries, o.peak_entries);
  table_cycles += o.table_cycles;
  if (o.own_stats) add_own(o.own_stats, o.own_values.data());
  capri_predictions += o.capri_predictions;
  capri_compactions += o.capri_compactions;
  capri_mispredictions += o.capri_mispredictions;
}

void RunStats::note_program(const Module& module) {
  flow_blocks = module.flow_blocks;
  mask_instructions_static = 0;
  for (const Instruction& in : module.code) mask_instructions_static += in.lowered;
}

void RunStats::add_own(const std::shared_ptr<const std::vector<StatInfo>>& stats,
                       const uint64_t* values) {
  if (!own_stats) {
    own_stats = stats;
    std::copy(values, values + stats->size(), own_values.begin());
    return;
  }
  if (own_stats != stats)
    throw std::logic_error("statistics of two reconvergence schemes in one run");
  for (size_t i = 0; i < stats->size(); ++i)
    own_values[i] =
        (*stats)[i].peak ? std::max(own_values[i], values[i]) : own_values[i] + values[i];
}

uint64_t RunStats::own(const std::string& name) const {
  if (!own_stats) return 0;
  const size_t i = stat_index(*own_stats, name);
  return i < own_stats->size() ? own_values[i] : 0;
}

nlohmann::json RunStats::to_json() const {
  nlohmann::json j = nlohmann::json{{"warp_instructions", warp_instructions},
                                    {"thread_instructions", thread_instructions},
                                    {"branches", branches},
                                    {"divergent_branches", divergent_branches},
                                    {"simd_utilisation", simd_utilisation()},
                                    {"activity_factor", activity_factor()},
                                    {"ctas", ctas},
                                    {"warps", warps},
                                    {"reconvergences", reconvergences},
                                    {"early_reconvergences", early_reconvergences},
                                    {"marker_instructions", marker_instructions},
                                    {"mask_instructions", mask_instructions},
                                    {"flow_blocks", flow_blocks},
                                    {"mask_instructions_static", mask_instructions_static},
                                    {"issuable_paths_sum", issuable_paths_sum},
                                    {"mean_issuable_paths", mean_issuable_paths()},
                                    {"max_issuable_paths", max_issuable_paths},
                                    {"peak_entries", peak_entries},
                                    {"table_cycles", table_cycles},
                                    {"capri_predictions", capri_predictions},
                                    {"capri_compactions", capri_compactions},
                                    {"capri_mispredictions", capri_mispredictions}};
  // Every scheme's own statistics, so runs under different schemes have the
  // same columns; the run's scheme's hold its values.
  for (const StatInfo& s : all_reconvergence_stats()) j[s.name] = 0;
  if (own_stats)
    for (size_t i = 0; i < own_stats->size(); ++i) j[(*own_stats)[i].name] = own_values[i];
  return j;
}

const std::vector<StatInfo>& run_stat_infos() {
  static const std::vector<StatInfo> infos = {
      {"warp_instructions", "warp instructions",
       "issued warp instructions (a guarded-off instruction still issues; Reconverge markers "
       "included)"},
      {"thread_instructions", "thread instructions",
       "active lanes summed over issued warp instructions"},
      {"branches", "warp instructions",
       "issued conditional (guarded) branch warp instructions (exec_mask: guarded emask.defer, "
       "the lowered form of a divergent branch)"},
      {"divergent_branches", "warp instructions",
       "conditional branches whose active lanes went both ways (exec_mask: emask.defer that "
       "deferred some but not all active lanes)"},
      {"simd_utilisation", "fraction",
       "mean active lanes over the SIMD lanes a warp instruction occupies: thread_instructions / "
       "(warp_instructions x max(1, warp_size / simd_width) x simd_width)"},
      {"activity_factor", "fraction",
       "mean fraction of a warp's threads active per issued warp instruction (Kerr et al.): "
       "thread_instructions / (warp_instructions x warp_size)"},
      {"ctas", "CTAs", "CTAs run"},
      {"warps", "warps", "warps launched (over all CTAs)"},
      {"reconvergences", "paths",
       "paths that a divergent branch split merged back into one (k paths meeting at once "
       "count k-1; lanes returning from a call do not count)"},
      {"early_reconvergences", "paths",
       "reconvergences before the IPDOM of the innermost branch that split the merging paths "
       "(at another pc, none of them having been through it; possible under sorted_list, "
       "min_pc, breadth_first, ppc_explicit, ppc_implicit)"},
      {"marker_instructions", "warp instructions",
       "Reconverge marker instructions issued (ppc_explicit; part of warp_instructions)"},
      {"mask_instructions", "warp instructions",
       "exec_mask: instructions the exec-mask lowering wrote (emask.*, intent and route "
       "setting, jumps, the exit's ret) issued; part of warp_instructions"},
      {"flow_blocks", "blocks",
       "exec_mask: flow blocks the lowering inserted into the program (static, all functions)"},
      {"mask_instructions_static", "instructions",
       "exec_mask: instructions the lowering wrote into the program (static)"},
      {"issuable_paths_sum", "paths", "issuable paths of the issuing warp, summed over issues"},
      {"mean_issuable_paths", "paths per warp instruction",
       "issuable_paths_sum / warp_instructions"},
      {"max_issuable_paths", "paths", "most issuable paths a warp offered at an issue"},
      {"peak_entries", "entries",
       "peak occupancy of the scheme's structure, max over warps (ipdom, dual_path, "
       "ppc_explicit, ppc_implicit: stack entries; mp_ipdom: ST + RT + deferred; "
       "sorted_list: HCT + CCT paths; min_pc: distinct (pc, depth) groups; minority_first: "
       "saved paths; breadth_first: queued paths)"},
      {"table_cycles", "warp cycles",
       "timing mode: cycles warps could not issue while their scheme's side tables worked "
       "(cct_inserts + cct_extracts) x sm.cct_access_cycles + rt_accesses x "
       "sm.rt_access_cycles; 0 in functional mode"},
      {"capri_predictions", "branches",
       "compaction capri: branches divergent across a CTA whose compaction CAPRI's table "
       "predicted"},
      {"capri_compactions", "branches",
       "compaction capri: ... predicted adequate, so the CTA's warps synchronised and compacted"},
      {"capri_mispredictions", "branches",
       "compaction capri: predictions that compaction's outcome at that branch contradicted"},
  };
  return infos;
}

}  // namespace warptlm
