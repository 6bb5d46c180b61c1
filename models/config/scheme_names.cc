#include "config/scheme_names.h"

#include "compaction/compaction_unit.h"
#include "compaction/lane_permutation.h"
#include "dram/scheduler/dram_scheduler.h"
#include "exec/functional_executor.h"
#include "sm/scheduler/warp_scheduler.h"

namespace warptlm {

std::vector<std::string> scheduler_names() { return warp_scheduler_names(); }

std::vector<std::string> compaction_names() { return compaction_scheme_names(); }

std::vector<std::pair<std::string, std::string>> compaction_descriptions() {
  std::vector<std::pair<std::string, std::string>> out{{"none", "no compaction: static warps"}};
  for (auto& d : compaction_unit_descriptions()) out.push_back(std::move(d));
  return out;
}

std::vector<std::string> permutation_names() { return lane_permutation_names(); }

std::vector<std::string> dram_scheduler_names() { return dram_scheduler_registry_names(); }

std::vector<std::string> coding_style_names() { return {"at", "lt"}; }
std::vector<std::string> port_protocol_names() { return {"at", "lt"}; }

std::vector<std::string> write_policy_names() { return {"write_back", "write_through"}; }

std::vector<std::string> scoreboard_names() { return {"lane_masks", "registers"}; }

}  // namespace warptlm
