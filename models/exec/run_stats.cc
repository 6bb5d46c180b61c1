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

}  // namespace warptlm
