// The platform configuration shared by the CLI, the Python package and the
// timing model: one plain struct with defaults (the SLP paper's GPGPU-Sim
// configuration), a table of its fields by hierarchical name that drives
// get/set by name, validation and JSON, and named presets.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "exec/functional_executor.h"

namespace warptlm {

struct CacheConfig {
  uint64_t size = 0;     // bytes
  unsigned assoc = 1;    // ways
  unsigned line = 64;    // bytes
  unsigned mshrs = 32;   // outstanding misses
  unsigned latency = 1;  // hit latency, cycles
  unsigned slices = 1;   // banks the cache is split into (L2: one per memory partition)
  std::string write_policy = "write_back";
  bool cache_global = true;  // L1: global loads are cached (false: bypass to L2, as -dlcm=cg)
};

struct DramConfig {
  unsigned channels = 8;
  unsigned banks = 16;       // per channel
  unsigned row_size = 2048;  // bytes per row buffer
  unsigned bus_width = 8;    // bytes per channel per memory cycle
  std::string scheduler = "frfcfs";
  unsigned t_cas = 12;       // column access (memory cycles)
  unsigned t_rcd = 12;       // activate to column access
  unsigned t_rp = 12;        // precharge
  double clock_mhz = 924.0;  // memory command clock
};

// One kind of execution unit: how many per SM, cycles from issue to
// writeback, and cycles between two issues to one unit.
struct PipelineConfig {
  unsigned units = 1;
  unsigned latency = 1;
  unsigned interval = 1;
};

struct SmConfig {
  unsigned threads = 1024;     // resident threads
  unsigned warps = 32;         // resident warps (the limit is min(warps, threads / warp_size))
  unsigned ctas = 8;           // resident CTAs
  unsigned registers = 16384;  // 32-bit registers
  unsigned max_registers_per_thread = 63;  // what ptxas may allocate (sm_2x: 63, sm_70: 255)
  uint64_t shared_memory = 32768;          // bytes
  unsigned schedulers = 2;                 // warp schedulers, each owning a subset of the warps
  unsigned shared_banks = 32;              // shared-memory banks (4 bytes wide)
  unsigned register_banks = 16;            // register-file banks behind the operand collectors
  unsigned collectors = 8;                 // operand-collector units
  double clock_mhz = 700.0;                // core clock
  unsigned two_level_active = 8;  // two_level scheduler: warps in each scheduler's active set
  unsigned shared_latency = 24;   // shared-memory access, cycles (bank conflicts add to it)
  // Execution units (GPGPU-Sim's GTX480 figures: ALU latency 4, SFU about 20
  // with a warp every 8 cycles on Fermi's 4 SFUs, one LD/ST issue per cycle).
  PipelineConfig sp{2, 4, 1};
  PipelineConfig sfu{1, 20, 8};
  PipelineConfig ldst{1, 2, 1};
  // Tensor cores (wmma.mma, mma): Fermi has none, so the default is Volta's
  // (docs/tensor-cores.md): one unit per processing block, a warp's
  // m16n16k16 every 32 cycles on each (8 tensor cores x 64 FMA per cycle per
  // SM), 64 cycles to the result (GPGPU-Sim's QV100 figure).
  PipelineConfig tensor{4, 64, 32};
  // Instruction cache: GPGPU-Sim's GTX480 L1I (2 KB, 4-way, 128-byte lines);
  // misses are served after a fixed latency (instructions are not in global memory).
  uint64_t icache_size = 2048;
  unsigned icache_assoc = 4;
  unsigned icache_line = 128;
  unsigned icache_miss_latency = 20;
  // Reconvergence side tables (TableTiming): cycles a warp cannot issue per
  // access. The papers give no latency; one single-ported SRAM access each
  // (docs/timing-model.md, "Reconvergence table costs").
  unsigned cct_access_cycles = 1;  // sorted_list: CCT insert or extract
  unsigned rt_access_cycles = 1;   // mp_ipdom: RT entry written or updated
  // Thread block compaction: cycles from the last formed warp's arrival at a
  // synchronisation point until a newly formed set of warps can issue (the
  // per-lane priority encoders; TBC's paper pipelines them: one stage). A
  // set that keeps its threads (a branch every thread takes alike) goes on
  // without it (docs/compaction.md, "Timing").
  unsigned warp_formation_cycles = 1;
  // Thread block compaction: the CTA's warps synchronise at every conditional
  // branch (the SLP paper's rule), or pass those whose guard the frontend
  // proves CTA-uniform (frontend/uniformity.h) as unconditional ones, as a
  // compiler marking them would let them (docs/compaction.md, "Uniform
  // branches").
  bool sync_uniform_branches = true;
  // Scoreboard granularity: "lane_masks" (a register's pending write blocks
  // only the lanes it writes, so one split does not wait on another's: the
  // multi-path IPDOM write-up, seed 003) or "registers" (any pending write to
  // a register blocks every path of the warp, as a per-warp scoreboard).
  std::string scoreboard = "lane_masks";

  // The limits a CTA must fit into, for the launch checks both modes share.
  SmLimits limits() const {
    return SmLimits{threads, warps, registers, max_registers_per_thread, shared_memory, ctas};
  }
};

struct MemoryConfig {
  unsigned interconnect_latency = 8;  // SM <-> L2 slice, cycles each way
  std::string port_protocol =
      "at";  // how the GPU talks to bound memory: "at" or "lt" (b_transport)
  // The GPU's functional accesses to a bound memory use DMI when the target
  // grants it (else debug transport in coding style "at", b_transport in "lt").
  bool dmi = true;
  CacheConfig l1{32 * 1024, 8, 64, 32, 45, 1, "write_through", true};
  CacheConfig l2{1024 * 1024, 64, 64, 32, 300, 8, "write_back", true};
  DramConfig dram;
};

// The loosely-timed GPU (coding_style "lt"; docs/lt-mode.md).
struct LtConfig {
  // The GPU's own global quantum: how far its kernel runs ahead of SystemC
  // time before it synchronises (0: after every warp turn).
  uint64_t quantum_ns = 100000;
};

// Defaults are the `fermi` preset (SLP paper, Table 2).
struct PlatformConfig {
  unsigned warp_size = 32;
  unsigned simd_width = 32;
  unsigned num_sms = 30;
  std::string scheduler = "srr";
  std::string reconvergence = "ipdom";
  std::string compaction = "none";
  std::string permutation = "none";
  // The options of the reconvergence schemes and compaction units, as the
  // fields "<component>.<option>" (mp_ipdom.st_entries, capri.entries) that
  // each component declared when it was registered: those set away from
  // their defaults (set_field() keeps no default here).
  OptionValues options;
  uint64_t seed = 1;
  uint64_t instruction_budget = 0;  // 0: automatic (launch_budget())
  uint64_t watchdog = 1ull << 20;   // ExecConfig::watchdog; 0: off
  unsigned quantum = 64;            // functional mode: warp instructions per warp turn
  // Timing mode: host threads that tick the SMs of one simulation; results
  // are the same for every value (docs/parallel-sms.md).
  unsigned host_threads = 1;
  // The TLM coding style of the GPU. "at" (approximately timed): the
  // cycle-level SMs and memory hierarchy (performance studies); "lt" (loosely
  // timed): the kernel runs functionally ahead of SystemC time under a
  // quantum keeper (virtual prototypes; docs/lt-mode.md).
  std::string coding_style = "at";
  LtConfig lt;
  SmConfig sm;
  MemoryConfig memory;

  // The functional executor's view of this configuration.
  ExecConfig exec_config() const;
};

enum class FieldType { Int, Float, String, Bool };
const char* field_type_name(FieldType t);  // "int", "float", "string", "bool"

// One configurable field: its hierarchical name, type, range or allowed
// values, and a one-line description.
struct FieldInfo {
  std::string name;  // "memory.l1.size"
  FieldType type = FieldType::Int;
  std::string doc;
  bool functional = false;    // read by functional mode (the others wait for the timing model)
  int64_t min = 0, max = 0;   // Int: inclusive range
  bool power_of_two = false;  // Int: must also be a power of two
  // String: the allowed values; computed on each call so a scheme registered
  // later shows up.
  std::vector<std::string> (*allowed)() = nullptr;
  std::function<nlohmann::json(const PlatformConfig&)> get;
  std::function<void(PlatformConfig&, const nlohmann::json&)> set;

  std::string describe_allowed() const;  // "an integer in [4, 64], a power of two"
};

// Every field, in a fixed order (top level first with the registered
// components' options after `permutation`, then sm.*, memory.*). A component
// registered later adds its options' fields; a reference stays valid.
// std::invalid_argument when a component's option would be named like
// another field.
const std::vector<FieldInfo>& config_fields();
// Throws std::invalid_argument naming the unknown field and listing the known ones.
const FieldInfo& config_field(const std::string& name);

nlohmann::json get_field(const PlatformConfig& config, const std::string& name);
// Checks type and range of `value` for field `name` and stores it. Throws
// std::invalid_argument naming the field and its allowed values or range.
void set_field(PlatformConfig& config, const std::string& name, const nlohmann::json& value);
// Checks every field and the relations between fields: cache geometry, and
// no option of a scheme (mp_ipdom.*, capri.*, sm.rt_access_cycles,
// sm.cct_access_cycles) away from its default while another scheme is
// selected (docs/reconvergence.md, "Scheme options").
void validate(const PlatformConfig& config);

// Flat JSON object {"warp_size": 32, ..., "memory.l1.size": 32768, ...} in table order.
nlohmann::json to_json(const PlatformConfig& config);
// Applies a flat ({"memory.l1.size": ...}) or nested ({"memory": {"l1": ...}})
// object of overrides to `base`, then validates.
PlatformConfig apply_overrides(PlatformConfig base, const nlohmann::json& overrides);

// Presets by name, in a fixed order: "small", "fermi", "volta".
struct PresetInfo {
  std::string name;
  std::string doc;  // what it models and where the figures come from
};
const std::vector<PresetInfo>& preset_infos();
// Throws std::invalid_argument listing the presets.
PlatformConfig preset(const std::string& name);

}  // namespace warptlm
