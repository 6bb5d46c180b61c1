// Statistics of one SM over a launch. The GPU sums them over its SMs and also
// reports them per SM.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "sm/ldst/l1_stats.h"
#include "stats/stat_info.h"

namespace warptlm {

struct SmStats {
  uint64_t cycles = 0;  // cycles the SM held at least one CTA
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  uint64_t ctas = 0, warps = 0;
  uint64_t resident_warp_cycles = 0;  // sum over cycles of resident warps (occupancy)
  // Issue slots: one per scheduler per cycle, each put in exactly one bin.
  uint64_t slot_issued = 0;
  uint64_t slot_idle = 0;        // no warp, or every warp finished or waiting to fetch
  uint64_t slot_scoreboard = 0;  // the ready instructions wait on registers
  uint64_t slot_pipeline = 0;    // the needed execution unit is busy
  uint64_t slot_collector = 0;   // no free operand collector
  uint64_t slot_barrier = 0;     // warps wait at a barrier
  uint64_t slot_control = 0;  // a path waits on its reconvergence scheme (or a call/return drains)
  uint64_t slot_memory = 0;   // the LD/ST unit cannot take the access (MSHRs, queue)
  uint64_t slot_sleep = 0;    // the warps sleep (nanosleep)
  uint64_t register_bank_conflicts = 0;  // extra operand-read cycles
  // Bumped by fetches and memory instructions: next to the per-cycle counters
  // above, so that an SM's tick touches few host cache lines of its
  // statistics (SmCore aligns them to a line).
  uint64_t icache_hits = 0, icache_misses = 0;
  L1Stats l1;  // the global-memory path's (sm/ldst/l1_data_path.h)
  // Issues a per-warp scoreboard would have blocked (a pending write to one of
  // the instruction's registers on other lanes: another split's) but the
  // per-lane masks let through.
  uint64_t stalls_avoided_by_lane_masks = 0;
  uint64_t shared_accesses = 0, shared_bank_conflicts = 0;  // conflicts: extra cycles
  // tex and tld4 (also counted as memory instructions) and the lines their
  // texels touched.
  uint64_t texture_instructions = 0, texture_transactions = 0;
  // Thread block compaction (compaction tbc or ideal): synchronisation points
  // the CTAs passed, the cycles formed warps waited at them (summed over
  // warps), the sets of warps formed for a new set of threads and the warps
  // in them, and the memory instructions of formed warps that hold threads of
  // more than one static warp, with their transactions after coalescing.
  uint64_t compaction_syncs = 0, compaction_sync_cycles = 0;
  // Of them, those at a conditional branch every thread of the set took the
  // same way (no split: the wait bought nothing), and their waiting cycles.
  uint64_t compaction_uniform_syncs = 0, compaction_uniform_sync_cycles = 0;
  uint64_t warp_formations = 0, formed_warps = 0;
  uint64_t compacted_memory_instructions = 0, compacted_memory_transactions = 0;
  // CAPRI: branch instances whose warps ran on without synchronising (each
  // set's rejoin at the reconvergence pc also counts in compaction_syncs).
  uint64_t capri_bypasses = 0;

  void add(const SmStats& other);
  nlohmann::json to_json() const;  // flat: {"cycles": ..., "slot_issued": ...}
  // to_json()'s entries written into `out` as "<prefix><name>", without the
  // intermediate object (the GPU's statistics hold one set per SM).
  void put(nlohmann::json& out, const std::string& prefix) const;
  // The keys of to_json(), in order, with unit and meaning.
  static const std::vector<StatInfo>& infos();
};

}  // namespace warptlm
