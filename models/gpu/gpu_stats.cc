// Gpu::stats(): one flat JSON object over the whole GPU. Whole-GPU figures
// first, then the SM statistics summed ("sm.<field>") and per SM
// ("sm<N>.<field>"), occupancy from the distributor ("occupancy.<field>"), and
// the memory side ("interconnect.", "l2." summed over slices, "memory_port.",
// "dram." when the default DRAM is bound).
#include <algorithm>
#include <vector>

#include "exec/run_stats.h"
#include "gpu/gpu.h"

namespace warptlm {
namespace {

// Copies `in` under `prefix`; nested objects flatten to dotted keys.
void put(nlohmann::json& out, const std::string& prefix, const nlohmann::json& in) {
  for (auto it = in.begin(); it != in.end(); ++it) {
    if (it.value().is_object())
      put(out, prefix + it.key() + ".", it.value());
    else
      out[prefix + it.key()] = it.value();
  }
}

// Adds the integer counters of `in` into `sum`. Ratios and other floating
// figures do not add up across slices and are left out of the sum.
void add_counters(nlohmann::json& sum, const nlohmann::json& in) {
  for (auto it = in.begin(); it != in.end(); ++it) {
    const nlohmann::json& v = it.value();
    if (v.is_object()) {
      add_counters(sum[it.key()], v);
    } else if (v.is_number_unsigned()) {
      sum[it.key()] =
          (sum.contains(it.key()) ? sum[it.key()].get<uint64_t>() : 0) + v.get<uint64_t>();
    } else if (v.is_number_integer()) {
      sum[it.key()] =
          (sum.contains(it.key()) ? sum[it.key()].get<int64_t>() : 0) + v.get<int64_t>();
    }
  }
}

nlohmann::json l2_json(const L2Stats& s) {
  return {{"reads", s.reads},
          {"writes", s.writes},
          {"atomics", s.atomics},
          {"hits", s.hits},
          {"misses", s.misses},
          {"mshr_merges", s.mshr_merges},
          {"fills", s.fills},
          {"writebacks", s.writebacks},
          {"write_throughs", s.write_throughs},
          {"passthrough", s.passthrough},
          {"stalls", s.stalls},
          {"errors", s.errors},
          {"writeback_errors", s.writeback_errors}};
}

nlohmann::json dram_json(const DramStats& s) {
  nlohmann::json j = {{"reads", s.reads},
                      {"writes", s.writes},
                      {"row_hits", s.row_hits},
                      {"row_misses", s.row_misses},
                      {"row_conflicts", s.row_conflicts},
                      {"bytes", s.bytes},
                      {"busy_cycles", s.busy_cycles},
                      {"latency_cycles", s.latency_cycles},
                      {"errors", s.errors},
                      {"queue_full", s.queue_full}};
  for (size_t i = 0; i < s.channels.size(); ++i) {
    const DramChannelStats& c = s.channels[i];
    const std::string p = "channel" + std::to_string(i) + ".";
    j[p + "reads"] = c.reads;
    j[p + "writes"] = c.writes;
    j[p + "row_hits"] = c.row_hits;
    j[p + "row_misses"] = c.row_misses;
    j[p + "row_conflicts"] = c.row_conflicts;
    j[p + "busy_cycles"] = c.busy_cycles;
  }
  return j;
}

}  // namespace

RunStats Gpu::run_stats() const {
  RunStats total;
  if (lt_) total.add(lt_->run_stats());
  for (const StreamingMultiprocessor& sm : sms_) total.add(sm.run_stats());
  total.warp_size = config_.warp_size;
  total.simd_width = config_.simd_width;
  return total;
}

nlohmann::json Gpu::stats() const {
  nlohmann::json j = nlohmann::json::object();
  const RunStats run = run_stats();
  SmStats total;
  uint64_t active_cycles = 0;
  std::vector<SmStats> per_sm;  // each SM's, copied once
  per_sm.reserve(sms_.size());
  for (const StreamingMultiprocessor& sm : sms_) {
    per_sm.push_back(sm.stats());
    total.add(per_sm.back());
    active_cycles += per_sm.back().cycles;
  }
  // Mode lt: the runner's counts (the SMs hold nothing).
  const uint64_t launches = lt_ ? lt_->stats().launches : distributor_.stats().launches;
  const uint64_t warp_instructions = lt_ ? run.warp_instructions : total.warp_instructions;
  j["launches"] = launches;
  j["cycles"] = last_launch_cycles_;
  j["busy_cycles"] = busy_cycles_;
  j["warp_instructions"] = warp_instructions;
  j["thread_instructions"] = lt_ ? run.thread_instructions : total.thread_instructions;
  j["ctas"] = lt_ ? run.ctas : total.ctas;
  j["warps"] = lt_ ? run.warps : total.warps;
  j["branches"] = run.branches;
  j["divergent_branches"] = run.divergent_branches;
  j["ipc"] = busy_cycles_ ? double(warp_instructions) / double(busy_cycles_) : 0.0;
  // One definition for both modes (RunStats); the SMs' issue counts are the run's.
  j["simd_utilisation"] = run.simd_utilisation();
  j["activity_factor"] = run.activity_factor();
  // Fraction of SM-cycles in which an SM held work.
  j["sm_busy_fraction"] =
      busy_cycles_ ? double(active_cycles) / (double(busy_cycles_) * config_.num_sms) : 0.0;
  j["memory_transactions_per_instruction"] =
      total.l1.memory_instructions
          ? double(total.l1.memory_transactions) / double(total.l1.memory_instructions)
          : 0.0;

  total.put(j, "sm.");
  for (size_t i = 0; i < per_sm.size(); ++i) per_sm[i].put(j, "sm" + std::to_string(i) + ".");
  put(j, "occupancy.", distributor_.stats().to_json());
  put(j, "interconnect.", interconnect_.stats().to_json());
  nlohmann::json l2 = nlohmann::json::object();
  for (const L2Slice& slice : l2_) add_counters(l2, l2_json(slice.stats()));
  put(j, "l2.", l2);
  put(j, "memory_port.", port_.stats().to_json());
  if (dram_) put(j, "dram.", dram_json(dram_->stats()));
  // Present in both coding styles (zeros in at), as the SMs' are in coding style lt.
  put(j, "lt.", lt_ ? lt_->stats().to_json() : LtStats().to_json());
  return j;
}

}  // namespace warptlm
