// What the DRAM model counts: accesses, row-buffer outcomes, data-bus
// occupancy and latency, in total and per channel.
#pragma once

#include <cstdint>
#include <vector>

#include "stats/stat_info.h"

namespace warptlm {

struct DramChannelStats {
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t row_hits = 0;
  uint64_t row_misses = 0;     // the bank had no open row (activate only)
  uint64_t row_conflicts = 0;  // another row was open (precharge + activate)
  uint64_t busy_cycles = 0;    // memory cycles its data bus carried data
};

struct DramStats {
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t row_hits = 0;
  uint64_t row_misses = 0;
  uint64_t row_conflicts = 0;
  uint64_t bytes = 0;           // data moved by timed reads and writes
  uint64_t busy_cycles = 0;     // data-bus cycles, summed over channels
  uint64_t latency_cycles = 0;  // arrival to last data beat, summed over timed accesses
  uint64_t errors = 0;          // requests answered with an error response
  uint64_t queue_full = 0;      // requests that waited for a slot in a full channel queue
  std::vector<DramChannelStats> channels;
  // The keys of its statistics, in order, with unit and meaning ("<N>" stands
  // for an index in per-part keys).
  static const std::vector<StatInfo>& infos();
};

}  // namespace warptlm
