// Statistics of one kernel run.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace warptlm {

struct RunStats {
  uint64_t warp_instructions = 0;    // issued warp instructions (guarded-off lanes still issue)
  uint64_t thread_instructions = 0;  // sum of active lanes over issued warp instructions
  uint64_t branches = 0;             // conditional branch warp instructions issued
  uint64_t divergent_branches = 0;   // ... whose active lanes went both ways
  uint64_t ctas = 0;
  uint64_t warps = 0;
  unsigned warp_size = 0;
  // mean active lanes over warp size, over issued warp instructions
  double simd_utilisation() const {
    return warp_instructions == 0
               ? 0.0
               : double(thread_instructions) / double(warp_instructions) / double(warp_size);
  }
  nlohmann::json to_json() const;
};

// Every statistic to_json() writes, in its order, with its meaning: what the
// Python package and CLIs list. A new statistic gets a line here.
struct StatInfo {
  std::string name;
  std::string meaning;
};
const std::vector<StatInfo>& run_stat_infos();

}  // namespace warptlm
