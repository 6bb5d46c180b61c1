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
  f("slot_sleep", s.slot_sleep);
  f("register_bank_conflicts", s.register_bank_conflicts);
  f("stalls_avoided_by_lane_masks", s.stalls_avoided_by_lane_masks);
  f("shared_accesses", s.shared_accesses);
  f("shared_bank_conflicts", s.shared_bank_conflicts);
  f("texture_instructions", s.texture_instructions);
  f("texture_transactions", s.texture_transactions);
  f("memory_instructions", s.l1.memory_instructions);
  f("memory_transactions", s.l1.memory_transactions);
  f("l1_hits", s.l1.hits);
  f("l1_misses", s.l1.misses);
  f("l1_mshr_merges", s.l1.mshr_merges);
  f("l1_writebacks", s.l1.writebacks);
  f("l1_flush_writebacks", s.l1.flush_writebacks);
  f("l1_flush_cycles", s.l1.flush_cycles);
  f("icache_hits", s.icache_hits);
  f("icache_misses", s.icache_misses);
  f("compaction_syncs", s.compaction_syncs);
  f("compaction_sync_cycles", s.compaction_sync_cycles);
  f("compaction_uniform_syncs", s.compaction_uniform_syncs);
  f("compaction_uniform_sync_cycles", s.compaction_uniform_sync_cycles);
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
  put(j, "");
  return j;
}

void SmStats::put(nlohmann::json& out, const std::string& prefix) const {
  SmStats copy = *this;
  std::string key = prefix;
  each_field(copy, [&](const char* name, uint64_t& v) {
    key.resize(prefix.size());
    key += name;
    out[key] = v;
  });
}

const std::vector<StatInfo>& SmStats::infos() {
  static const std::vector<StatInfo> infos = {
      {"cycles", "cycles", "cycles the SM held at least one CTA"},
      {"warp_instructions", "warp instructions", "warp instructions issued"},
      {"thread_instructions", "thread instructions", "active lanes over issued warp instructions"},
      {"ctas_run", "CTAs", "CTAs run"},
      {"warps_run", "warps", "warps run"},
      {"resident_warp_cycles", "warp cycles", "resident warps summed over cycles"},
      {"slot_issued", "issue slots", "issue slots (scheduler x cycle) that issued"},
      {"slot_idle", "issue slots",
       "issue slots with no warp, or warps waiting for instruction fetch"},
      {"slot_scoreboard", "issue slots", "issue slots lost to register dependences (RAW/WAW)"},
      {"slot_pipeline", "issue slots", "issue slots lost to a busy execution unit"},
      {"slot_collector", "issue slots", "issue slots lost to no free operand collector"},
      {"slot_barrier", "issue slots", "issue slots lost to warps waiting at a barrier"},
      {"slot_control", "issue slots",
       "issue slots lost to the reconvergence scheme or a call/return drain"},
      {"slot_memory", "issue slots", "issue slots lost to a full LD/ST unit (MSHRs)"},
      {"slot_sleep", "issue slots", "issue slots lost to warps sleeping (nanosleep)"},
      {"register_bank_conflicts", "cycles",
       "extra operand-read cycles from register bank conflicts"},
      {"stalls_avoided_by_lane_masks", "issues",
       "issues a per-warp scoreboard would have blocked (another split's pending write) that "
       "per-lane masks let through"},
      {"shared_accesses", "warp accesses", "shared-memory warp accesses"},
      {"shared_bank_conflicts", "cycles", "extra cycles from shared-memory bank conflicts"},
      {"texture_instructions", "warp instructions",
       "texture fetches (tex, tld4), also counted as memory instructions"},
      {"texture_transactions", "transactions", "L1 lines the texels of texture fetches touched"},
      {"memory_instructions", "warp instructions", "global memory warp instructions"},
      {"memory_transactions", "transactions", "global memory transactions after coalescing"},
      {"l1_hits", "lines", "L1 line hits"},
      {"l1_misses", "lines", "L1 line misses"},
      {"l1_mshr_merges", "lines", "L1 misses merged into an outstanding miss"},
      {"l1_writebacks", "lines",
       "dirty L1 lines written to the L2 (evictions and kernel-end flushes)"},
      {"l1_flush_writebacks", "lines", "dirty L1 lines written back by kernel-end flushes"},
      {"l1_flush_cycles", "cycles", "cycles from a kernel-end L1 flush to its last write's answer"},
      {"icache_hits", "accesses", "instruction cache hits"},
      {"icache_misses", "accesses", "instruction cache misses"},
      {"compaction_syncs", "synchronisations",
       "compaction: synchronisation points the CTAs passed"},
      {"compaction_sync_cycles", "warp cycles",
       "compaction: cycles formed warps waited at synchronisation points (summed over warps)"},
      {"compaction_uniform_syncs", "synchronisations",
       "compaction: of compaction_syncs, those at a conditional branch all the set's threads took "
       "the same way"},
      {"compaction_uniform_sync_cycles", "warp cycles",
       "compaction: of compaction_sync_cycles, those waited at such branches"},
      {"warp_formations", "formations",
       "compaction: sets of warps formed for a new set of threads"},
      {"formed_warps", "warps", "compaction: warps in those sets"},
      {"compacted_memory_instructions", "warp instructions",
       "compaction: memory instructions of formed warps holding threads of several static warps"},
      {"compacted_memory_transactions", "transactions",
       "compaction: their transactions after coalescing"},
      {"capri_bypasses", "branches",
       "capri: branch instances whose warps ran on to the reconvergence pc without waiting"},
  };
  return infos;
}

}  // namespace warptlm
