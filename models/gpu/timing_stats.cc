#include "gpu/timing_stats.h"

#include <cctype>

namespace warptlm {
namespace {

std::vector<StatInfo> build() {
  std::vector<StatInfo> v = {
      {"launches", "launches started"},
      {"cycles", "core cycles of the (last) launch"},
      {"busy_cycles", "core cycles of all launches"},
      {"ipc", "warp instructions per core cycle, whole GPU"},
      {"sm_busy_fraction", "SM-cycles holding a CTA / (num_sms x busy_cycles)"},
      {"memory_transactions_per_instruction",
       "global transactions after coalescing per global memory instruction"},
  };
  const std::pair<const char*, const char*> sm[] = {
      {"cycles", "cycles SMs held at least one CTA, summed over SMs"},
      {"warp_instructions", "warp instructions issued"},
      {"thread_instructions", "active lanes over issued warp instructions"},
      {"ctas_run", "CTAs run"},
      {"warps_run", "warps run"},
      {"resident_warp_cycles", "resident warps summed over cycles"},
      {"slot_issued", "issue slots (scheduler x cycle) that issued"},
      {"slot_idle", "issue slots with no warp, or warps waiting for instruction fetch"},
      {"slot_scoreboard", "issue slots lost to register dependences (RAW/WAW)"},
      {"slot_pipeline", "issue slots lost to a busy execution unit"},
      {"slot_collector", "issue slots lost to no free operand collector"},
      {"slot_barrier", "issue slots lost to warps waiting at a barrier"},
      {"slot_control", "issue slots lost to the reconvergence scheme or a call/return drain"},
      {"slot_memory", "issue slots lost to a full LD/ST unit (MSHRs)"},
      {"register_bank_conflicts", "extra operand-read cycles from register bank conflicts"},
      {"stalls_avoided_by_lane_masks",
       "issues a per-warp scoreboard would have blocked (another split's pending write) that "
       "per-lane masks let through"},
      {"shared_accesses", "shared-memory warp accesses"},
      {"shared_bank_conflicts", "extra cycles from shared-memory bank conflicts"},
      {"memory_instructions", "global memory warp instructions"},
      {"memory_transactions", "global memory transactions after coalescing"},
      {"l1_hits", "L1 line hits"},
      {"l1_misses", "L1 line misses"},
      {"l1_mshr_merges", "L1 misses merged into an outstanding miss"},
      {"l1_writebacks", "dirty L1 lines written to the L2 (evictions and kernel-end flushes)"},
      {"l1_flush_writebacks", "dirty L1 lines written back by kernel-end flushes"},
      {"l1_flush_cycles", "cycles from a kernel-end L1 flush to its last write's answer"},
      {"icache_hits", "instruction cache hits"},
      {"icache_misses", "instruction cache misses"},
      {"compaction_syncs", "compaction: synchronisation points the CTAs passed"},
      {"compaction_sync_cycles",
       "compaction: cycles formed warps waited at synchronisation points (summed over warps)"},
      {"warp_formations", "compaction: sets of warps formed for a new set of threads"},
      {"formed_warps", "compaction: warps in those sets"},
      {"compacted_memory_instructions",
       "compaction: memory instructions of formed warps holding threads of several static warps"},
      {"compacted_memory_transactions", "compaction: their transactions after coalescing"},
      {"capri_bypasses",
       "capri: branch instances whose warps ran on to the reconvergence pc without waiting"},
  };
  for (const auto& [name, meaning] : sm)
    v.push_back({std::string("sm.") + name, std::string(meaning) + " (all SMs)"});
  const std::pair<const char*, const char*> occupancy[] = {
      {"launches", "launches the distributor ran"},
      {"ctas_dispatched", "CTAs dispatched"},
      {"ctas_mean", "time-weighted resident CTAs per SM, mean over SMs"},
      {"ctas_max", "most CTAs resident on one SM"},
      {"warps_mean", "time-weighted resident warps per SM, mean over SMs"},
      {"warps_max", "most warps resident on one SM"},
      {"warp_slots", "warp slots per SM"},
      {"warp_occupancy", "warps_mean / warp_slots"},
      {"theoretical_ctas_per_sm", "CTAs one SM can hold, by its tightest resource"},
  };
  for (const auto& [name, meaning] : occupancy)
    v.push_back({std::string("occupancy.") + name, meaning});
  const std::pair<const char*, const char*> interconnect[] = {
      {"requests", "requests routed to L2 slices"},
      {"reads", "read requests"},
      {"writes", "write requests"},
      {"responses", "responses routed back"},
      {"error_responses", "error responses passed back"},
      {"request_stall_cycles", "cycles requests waited for an output"},
      {"response_stall_cycles", "cycles responses waited for an input"},
  };
  for (const auto& [name, meaning] : interconnect)
    v.push_back({std::string("interconnect.") + name, meaning});
  const std::pair<const char*, const char*> l2[] = {
      {"reads", "reads"},
      {"writes", "writes"},
      {"atomics", "atomics"},
      {"hits", "hits"},
      {"misses", "misses"},
      {"mshr_merges", "misses merged into an MSHR"},
      {"fills", "line fills"},
      {"writebacks", "dirty lines written back"},
      {"write_throughs", "writes forwarded (write-through)"},
      {"passthrough", "requests passed through uncached"},
      {"stalls", "requests held back (MSHRs or memory queue full)"},
      {"errors", "error responses"},
      {"writeback_errors", "writebacks answered with an error"},
  };
  for (const auto& [name, meaning] : l2)
    v.push_back({std::string("l2.") + name, std::string(meaning) + " (all slices)"});
  const std::pair<const char*, const char*> port[] = {
      {"reads", "reads sent to memory"},
      {"writes", "writes sent to memory"},
      {"responses", "responses from memory"},
      {"error_responses", "error responses from memory"},
      {"writes_refreshed", "writes whose data was refreshed from memory before leaving"},
      {"refresh_failures", "writes whose refresh read failed"},
      {"request_stall_cycles", "cycles requests waited for the memory socket"},
      {"response_stall_cycles", "cycles responses waited to go back"},
      {"debug_reads", "debug (functional) reads"},
      {"debug_writes", "debug (functional) writes"},
  };
  for (const auto& [name, meaning] : port)
    v.push_back({std::string("memory_port.") + name, meaning});
  const std::pair<const char*, const char*> dram[] = {
      {"reads", "reads"},
      {"writes", "writes"},
      {"row_hits", "accesses to the open row"},
      {"row_misses", "accesses to a closed bank (activate)"},
      {"row_conflicts", "accesses to another row (precharge + activate)"},
      {"bytes", "bytes moved"},
      {"busy_cycles", "memory cycles the channel buses transferred data"},
      {"latency_cycles", "memory cycles from arrival to response, summed"},
      {"errors", "error responses"},
      {"queue_full", "requests held back by a full channel queue"},
  };
  for (const auto& [name, meaning] : dram)
    v.push_back({std::string("dram.") + name, std::string(meaning) + " (default DRAM)"});
  return v;
}

bool digits_then_dot(const std::string& key, size_t at) {
  size_t i = at;
  while (i < key.size() && std::isdigit(static_cast<unsigned char>(key[i]))) ++i;
  return i > at && i < key.size() && key[i] == '.';
}

}  // namespace

const std::vector<StatInfo>& timing_stat_infos() {
  static const std::vector<StatInfo> infos = build();
  return infos;
}

bool is_breakdown_stat(const std::string& key) {
  if (key.rfind("sm", 0) == 0 && digits_then_dot(key, 2)) return true;
  if (key.rfind("occupancy.sm", 0) == 0 && digits_then_dot(key, 12)) return true;
  if (key.rfind("dram.channel", 0) == 0 && digits_then_dot(key, 12)) return true;
  return key == "interconnect.input_requests" || key == "interconnect.output_requests";
}

}  // namespace warptlm
