// The names a configuration may choose for each pluggable policy. One place
// per list: a new scheme (compaction and lane permutation in issue 7, warp
// schedulers in the timing model) extends its list here or in its registry,
// and configuration validation, the CLI and Python pick it up.
#pragma once

#include <string>
#include <vector>

namespace warptlm {

// Reconvergence schemes come from the simt registry (reconvergence_names()).
std::vector<std::string> scheduler_names();       // warp schedulers of the timing model
std::vector<std::string> compaction_names();      // thread block compaction schemes
std::vector<std::string> permutation_names();     // SIMD lane permutations
std::vector<std::string> dram_scheduler_names();  // DRAM request schedulers
std::vector<std::string> write_policy_names();    // cache write policies
std::vector<std::string> port_protocol_names();   // the GPU memory socket's protocol

}  // namespace warptlm
