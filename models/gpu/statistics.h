// The registry of every statistic a run can report: one name, one unit, one
// meaning each, gathered from the tables the counting components keep next to
// their counters (RunStats, SmStats, DistributorStats, InterconnectStats,
// MemoryPortStats, L2Stats, DramStats) under the prefixes Gpu::stats() gives
// them, plus the whole-GPU figures of gpu_stats.cc. The CLIs, the Python
// package (warptlm.statistics()) and docs/statistics.md list it; tests check it
// against what functional and timing runs actually report.
#pragma once

#include <string>
#include <vector>

#include "stats/stat_info.h"

namespace warptlm {

struct Statistic {
  std::string name;  // "<N>" stands for an SM, channel or slice index
  std::string unit;
  std::string meaning;
  bool timing_only = false;  // false: functional and timing runs report it
  bool breakdown = false;    // a per-SM, per-channel or per-port entry (not a sweep column)
};

// Every statistic, in report order: those of both modes first, then timing's.
const std::vector<Statistic>& statistics();

// The registry entry a key of a run's statistics belongs to ("sm3.slot_issued"
// -> "sm<N>.slot_issued"); nullptr for a key no component declares.
const Statistic* find_statistic(const std::string& key);

// Whether a key of Gpu::stats() is a per-SM, per-channel or per-port entry
// ("sm3.slot_issued", "occupancy.sm0.ctas_max", "dram.channel1.reads",
// "interconnect.output_requests") rather than a whole-GPU one.
bool is_breakdown_stat(const std::string& key);

}  // namespace warptlm
