// The counters of an SM's global-memory path (L1DataPath), kept inside the
// SM's statistics so that they report as sm.l1_hits and so on.
#pragma once

#include <cstdint>

namespace warptlm {

struct L1Stats {
  uint64_t memory_instructions = 0;  // warp instructions with global accesses
  uint64_t memory_transactions = 0;  // their line requests after coalescing
  uint64_t hits = 0, misses = 0, mshr_merges = 0;
  // Write-back L1: lines written to the L2 (dirty evictions and kernel-end
  // flush writes), the flush writes among them, and the cycles from each
  // kernel-end flush to its last write's answer.
  uint64_t writebacks = 0, flush_writebacks = 0, flush_cycles = 0;
};

}  // namespace warptlm
