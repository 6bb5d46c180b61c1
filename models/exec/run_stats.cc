#include "exec/run_stats.h"

namespace warptlm {

nlohmann::json RunStats::to_json() const {
  return nlohmann::json{{"warp_instructions", warp_instructions},
                        {"thread_instructions", thread_instructions},
                        {"branches", branches},
                        {"divergent_branches", divergent_branches},
                        {"simd_utilisation", simd_utilisation()},
                        {"ctas", ctas},
                        {"warps", warps},
                        {"warp_size", warp_size}};
}

const std::vector<StatInfo>& run_stat_infos() {
  static const std::vector<StatInfo> infos = {
      {"warp_instructions", "issued warp instructions (a guarded-off instruction still issues)"},
      {"thread_instructions", "active lanes summed over issued warp instructions"},
      {"branches", "issued conditional (guarded) branch warp instructions"},
      {"divergent_branches", "conditional branches whose active lanes went both ways"},
      {"simd_utilisation", "thread_instructions / (warp_instructions x warp_size)"},
      {"ctas", "CTAs run"},
      {"warps", "warps launched (over all CTAs)"},
      {"warp_size", "lanes per warp of the run"},
  };
  return infos;
}

}  // namespace warptlm
