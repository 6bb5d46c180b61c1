// Shared pieces of the timing-model behaviour tests: a quiet one-SM platform
// whose timing can be derived by hand, a run_timing wrapper that keeps the
// trace, and small views of the trace (issue cycles of one warp, the warp
// order). Every run must happen inside warptlm::testing::in_child_process.
#pragma once

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/platform_config.h"
#include "exec/launch.h"
#include "exec/trace.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"
#include "gpu/timing_run.h"

namespace warptlm::behaviour {

// The PTX header every test kernel starts with.
inline const std::string kPtxHeader = ".version 7.0\n.target sm_70\n.address_size 64\n\n";

// One SM with one scheduler, so every issue decision is visible in the trace.
// The instruction cache has one 1024-byte line (128 instructions), which every
// test kernel fits in: the only fetch miss is the first one, costing
// kFetchMiss cycles before the first issue. SP: 2 units, latency 4, a warp
// per cycle (warp 32 = SIMD 32, one pass); LD/ST: one unit, latency 2. An L1
// hit (also what a parameter load costs) takes 20 cycles, a shared access 24
// plus its bank conflicts.
constexpr unsigned kFetchMiss = 5;
inline PlatformConfig quiet_config() {
  PlatformConfig c = preset("small");
  c.num_sms = 1;
  c.scheduler = "lrr";
  c.sm.schedulers = 1;
  c.sm.icache_size = 1024;
  c.sm.icache_assoc = 1;
  c.sm.icache_line = 1024;
  c.sm.icache_miss_latency = kFetchMiss;
  c.sm.sp = PipelineConfig{2, 4, 1};
  c.sm.sfu = PipelineConfig{1, 20, 8};
  c.sm.ldst = PipelineConfig{1, 2, 1};
  c.sm.register_banks = 8;
  c.sm.collectors = 4;
  c.sm.shared_latency = 24;
  c.memory.l1.latency = 20;
  return c;
}

struct Result {
  nlohmann::json stats;
  std::vector<TraceRecord> trace;
};

inline Result run(const std::string& body_ptx, const std::string& entry, LaunchSpec launch,
                  const PlatformConfig& config) {
  Program program = finalize(parse_ptx(kPtxHeader + body_ptx, entry + ".ptx"));
  TraceBuffer trace;
  Result r;
  r.stats = run_timing(program, entry, launch, config, nullptr, &trace);
  r.trace = std::move(trace.records);
  return r;
}

inline LaunchSpec launch_of(uint32_t ctas, uint32_t threads) {
  LaunchSpec l;
  l.grid = Dim3{ctas, 1, 1};
  l.block = Dim3{threads, 1, 1};
  return l;
}

inline uint64_t stat(const Result& r, const std::string& key) {
  return r.stats.at(key).get<uint64_t>();
}

// Issue cycles of global warp `warp`, in issue order.
inline std::vector<uint64_t> issue_cycles(const Result& r, uint32_t warp) {
  std::vector<uint64_t> v;
  for (const TraceRecord& t : r.trace)
    if (t.warp == warp) v.push_back(t.step);
  return v;
}

// Issue cycles of warp `warp` relative to the first issue of the whole run.
inline std::vector<uint64_t> relative_issue_cycles(const Result& r, uint32_t warp) {
  std::vector<uint64_t> v = issue_cycles(r, warp);
  for (uint64_t& c : v) c -= r.trace.at(0).step;
  return v;
}

// The warp of every issued instruction, in issue order.
inline std::vector<uint32_t> warp_sequence(const Result& r) {
  std::vector<uint32_t> v;
  for (const TraceRecord& t : r.trace) v.push_back(t.warp);
  return v;
}

inline HostBuffer u32_buffer(const std::string& name, const std::vector<uint32_t>& values) {
  HostBuffer b;
  b.name = name;
  b.bytes.resize(values.size() * 4);
  if (!values.empty()) std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
  return b;
}

}  // namespace warptlm::behaviour
