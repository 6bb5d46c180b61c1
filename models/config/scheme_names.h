// The names a configuration may choose for each pluggable policy. The
// components with a registry (reconvergence schemes: reconvergence_names();
// warp schedulers; lane permutations; compaction units; DRAM schedulers) are
// asked at validation time, so a
// component registered by a user is accepted by name in the configuration,
// the CLI and Python; the other lists are fixed here.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace warptlm {

// Reconvergence schemes come from the simt registry (reconvergence_names()).
std::vector<std::string> scheduler_names();   // warp schedulers of the timing model
std::vector<std::string> compaction_names();  // "none" and the compaction units
// (name, description) of each compaction, "none" first.
std::vector<std::pair<std::string, std::string>> compaction_descriptions();
std::vector<std::string> permutation_names();     // SIMD lane permutations
std::vector<std::string> dram_scheduler_names();  // DRAM request schedulers
std::vector<std::string> write_policy_names();    // cache write policies
std::vector<std::string> scoreboard_names();      // sm.scoreboard granularities
std::vector<std::string> coding_style_names();    // "at", "lt": the GPU's TLM coding style
std::vector<std::string> port_protocol_names();   // the GPU memory socket's protocol

}  // namespace warptlm
