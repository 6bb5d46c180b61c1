// The whole-GPU statistics of a timing run, by name and meaning: the keys of
// Gpu::stats() a sweep keeps (per-SM and per-channel breakdowns and per-port
// lists stay in single runs). A new statistic gets a line here; a test checks
// the table against Gpu::stats() so the two cannot drift apart.
#pragma once

#include <string>
#include <vector>

#include "exec/run_stats.h"

namespace warptlm {

const std::vector<StatInfo>& timing_stat_infos();

// Whether a key of Gpu::stats() is a per-SM, per-channel or per-port entry
// ("sm3.slot_issued", "occupancy.sm0.ctas_max", "dram.channel1.reads",
// "interconnect.output_requests") rather than a whole-GPU one.
bool is_breakdown_stat(const std::string& key);

}  // namespace warptlm
