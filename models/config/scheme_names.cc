#include "config/scheme_names.h"

#include "compaction/lane_permutation.h"
#include "exec/functional_executor.h"

namespace warptlm {

std::vector<std::string> scheduler_names() {
  // lrr: loose round-robin; gto: greedy-then-oldest; two_level: an active set
  // refilled from a pending set; srr: sticky round-robin (stay on the last warp
  // while it can issue, then round-robin), the policy of the SLP paper's Table 2.
  return {"lrr", "gto", "two_level", "srr"};
}

std::vector<std::string> compaction_names() { return compaction_scheme_names(); }

std::vector<std::string> permutation_names() { return lane_permutation_names(); }

std::vector<std::string> dram_scheduler_names() { return {"frfcfs", "fcfs"}; }

std::vector<std::string> port_protocol_names() { return {"at", "lt"}; }

std::vector<std::string> write_policy_names() { return {"write_back", "write_through"}; }

}  // namespace warptlm
