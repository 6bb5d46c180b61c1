#include "sm/sm_stats.h"

namespace warptlm {
namespace {

// Every counter once, by name: to_json() and add() cannot forget one.
template <typename S, typename F>
void each_field(S& s, F&& f) {
  f("cycles", s.cycles);
  f("warp_instructions", s.warp_instructions);
  f("thread_instructions", s.thread_instructions);
  f("ctas_run", s.ctas);
  f("warps_run", s.warps);
  f("resident_warp_cycles", s.resident_warp_cycles);
  f("slot_issued", s.slot_issued);
  f("slot_idle", s.slot_idle);
  f("slot_scoreboard", s.slot_scoreboard);
  f("slot_pipeline", s.slot_pipeline);
  f("slot_collector", s.slot_collector);
  f("slot_barrier", s.slot_barrier);
  f("slot_control", s.slot_control);
  f("slot_memory", s.slot_memory);
  f("register_bank_conflicts", s.register_bank_conflicts);
  f("stalls_avoided_by_lane_masks", s.stalls_avoided_by_lane_masks);
  f("shared_accesses", s.shared_accesses);
  f("shared_bank_conflicts", s.shared_bank_conflicts);
  f("memory_instructions", s.memory_instructions);
  f("memory_transactions", s.memory_transactions);
  f("l1_hits", s.l1_hits);
  f("l1_misses", s.l1_misses);
  f("l1_mshr_merges", s.l1_mshr_merges);
  f("l1_writebacks", s.l1_writebacks);
  f("l1_flush_writebacks", s.l1_flush_writebacks);
  f("l1_flush_cycles", s.l1_flush_cycles);
  f("icache_hits", s.icache_hits);
  f("icache_misses", s.icache_misses);
  f("compaction_syncs", s.compaction_syncs);
  f("compaction_sync_cycles", s.compaction_sync_cycles);
  f("warp_formations", s.warp_formations);
  f("formed_warps", s.formed_warps);
  f("compacted_memory_instructions", s.compacted_memory_instructions);
  f("compacted_memory_transactions", s.compacted_memory_transactions);
  f("capri_bypasses", s.capri_bypasses);
}

}  // namespace

void SmStats::add(const SmStats& other) {
  SmStats copy = other;
  std::vector<uint64_t> theirs;
  each_field(copy, [&](const char*, uint64_t& v) { theirs.push_back(v); });
  size_t i = 0;
  each_field(*this, [&](const char*, uint64_t& v) { v += theirs[i++]; });
}

nlohmann::json SmStats::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  SmStats copy = *this;
  each_field(copy, [&](const char* name, uint64_t& v) { j[name] = v; });
  return j;
}

}  // namespace warptlm
