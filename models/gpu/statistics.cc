#include "gpu/statistics.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "dram/dram_stats.h"
#include "exec/run_stats.h"
#include "gpu/lt_runner.h"
#include "gpu/workgroup_distributor.h"
#include "interconnect/interconnect.h"
#include "interconnect/memory_port.h"
#include "l2/l2_stats.h"
#include "registry/component_registry.h"
#include "sm/sm_stats.h"

namespace warptlm {
namespace {

// The whole-GPU figures Gpu::stats() derives itself (gpu_stats.cc).
const std::vector<StatInfo>& gpu_infos() {
  static const std::vector<StatInfo> infos = {
      {"launches", "launches", "launches started"},
      {"cycles", "cycles", "core cycles of the (last) launch"},
      {"busy_cycles", "cycles", "core cycles of all launches"},
      {"ipc", "warp instructions per cycle",
       "warp instructions per core cycle, whole GPU: warp_instructions / busy_cycles"},
      {"sm_busy_fraction", "fraction", "SM-cycles holding a CTA / (num_sms x busy_cycles)"},
      {"memory_transactions_per_instruction", "transactions per warp instruction",
       "global transactions after coalescing per global memory instruction: "
       "sm.memory_transactions / sm.memory_instructions"},
  };
  return infos;
}

bool per_part(const std::string& name) {
  return name.find("<N>") != std::string::npos || name == "interconnect.input_requests" ||
         name == "interconnect.output_requests";
}

void add(std::vector<Statistic>& out, const std::string& prefix, const std::vector<StatInfo>& infos,
         bool timing_only, bool breakdown = false) {
  for (const StatInfo& i : infos) {
    Statistic s{prefix + i.name, i.unit, i.meaning, timing_only, false};
    s.breakdown = breakdown || per_part(s.name);
    out.push_back(s);
  }
}

std::vector<Statistic> build() {
  std::vector<Statistic> v;
  // The schemes' own statistics right after peak_entries, the occupancy of
  // every scheme's structure, which they detail.
  std::vector<StatInfo> run = run_stat_infos();
  const auto peak = std::find_if(run.begin(), run.end(),
                                 [](const StatInfo& i) { return i.name == "peak_entries"; });
  const std::vector<StatInfo> own = all_reconvergence_stats();
  run.insert(peak == run.end() ? run.end() : peak + 1, own.begin(), own.end());
  add(v, "", run, false);
  add(v, "", gpu_infos(), true);
  std::vector<StatInfo> summed = SmStats::infos();
  for (StatInfo& i : summed) i.meaning += " (all SMs)";
  add(v, "sm.", summed, true);
  add(v, "occupancy.", DistributorStats::infos(), true);
  add(v, "interconnect.", InterconnectStats::infos(), true);
  add(v, "l2.", L2Stats::infos(), true);
  add(v, "memory_port.", MemoryPortStats::infos(), true);
  add(v, "dram.", DramStats::infos(), true);
  add(v, "lt.", LtStats::infos(), true);
  std::vector<StatInfo> per_sm = SmStats::infos();
  for (StatInfo& i : per_sm) i.meaning += " (SM N)";
  add(v, "sm<N>.", per_sm, true, true);
  return v;
}

// `key` with every run of digits that follows a letter and ends at a '.' or
// '_' replaced by "<N>": "sm12.cycles" -> "sm<N>.cycles",
// "dram.channel3.reads" -> "dram.channel<N>.reads"; "sm.l1_hits" stays.
std::string pattern_of(const std::string& key) {
  std::string out;
  for (size_t i = 0; i < key.size();) {
    if (std::isdigit(static_cast<unsigned char>(key[i])) && i > 0 &&
        std::isalpha(static_cast<unsigned char>(key[i - 1]))) {
      size_t j = i;
      while (j < key.size() && std::isdigit(static_cast<unsigned char>(key[j]))) ++j;
      if (j < key.size() && key[j] == '.') {
        out += "<N>";
        i = j;
        continue;
      }
    }
    out += key[i++];
  }
  return out;
}

struct Table {
  std::vector<Statistic> all;
  std::unordered_map<std::string, size_t> by_name;  // index into `all`
};

Table build_table() {
  Table t;
  t.all = build();
  for (size_t i = 0; i < t.all.size(); ++i) t.by_name.emplace(t.all[i].name, i);
  return t;
}

// Rebuilt after a registration (a plug-in's scheme brings its statistics).
const Table& table() {
  static DerivedFromRegistries<Table> tables(&build_table);
  return tables.get();
}

}  // namespace

const std::vector<Statistic>& statistics() { return table().all; }

const Statistic* find_statistic(const std::string& key) {
  const Table& t = table();
  auto it = t.by_name.find(key);
  if (it == t.by_name.end()) it = t.by_name.find(pattern_of(key));
  return it == t.by_name.end() ? nullptr : &t.all[it->second];
}

bool is_breakdown_stat(const std::string& key) {
  const Statistic* s = find_statistic(key);
  return s && s->breakdown;
}

}  // namespace warptlm
