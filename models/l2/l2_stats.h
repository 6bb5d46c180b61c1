// What an L2 slice counts.
#pragma once

#include <cstdint>
#include <vector>

#include "stats/stat_info.h"

namespace warptlm {

struct L2Stats {
  uint64_t reads = 0;    // requests taken in, by kind (loads and fetches)
  uint64_t writes = 0;   // stores and L1 writebacks
  uint64_t atomics = 0;  // GpuExtension kind Atomic
  uint64_t hits = 0;
  uint64_t misses = 0;            // merged requests included
  uint64_t mshr_merges = 0;       // misses that joined a fill already in flight
  uint64_t fills = 0;             // line reads sent to memory
  uint64_t writebacks = 0;        // dirty victims written to memory
  uint64_t write_throughs = 0;    // writes and atomics forwarded under write_through
  uint64_t passthrough = 0;       // requests forwarded by an uncached slice (size 0)
  uint64_t stalls = 0;            // requests held at the socket for an MSHR or a queue slot
  uint64_t errors = 0;            // error responses sent upstream
  uint64_t writeback_errors = 0;  // writebacks memory answered with an error
  // The keys of its statistics, in order, with unit and meaning ("<N>" stands
  // for an index in per-part keys).
  static const std::vector<StatInfo>& infos();
};

}  // namespace warptlm
