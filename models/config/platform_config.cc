#include "config/platform_config.h"

#include <limits>
#include <stdexcept>

#include "config/close_names.h"
#include "config/scheme_names.h"
#include "registry/component_registry.h"
#include "simt/reconvergence_unit.h"

namespace warptlm {
namespace {

using json = nlohmann::json;
constexpr int64_t kMaxInt = std::numeric_limits<int64_t>::max();

// Getter and setter of one struct member, as captureless lambdas (they
// decay to the function pointers FieldInfo holds). The setter runs after
// set_field() checked type and range, so the conversion cannot fail.
#define WARPTLM_ACCESS(member)                              \
  [](const PlatformConfig& c) -> json { return c.member; }, \
      [](PlatformConfig& c, const json& v) { c.member = v.get<decltype(c.member)>(); }

FieldInfo int_field(std::string name, int64_t min, int64_t max, bool pow2, bool functional,
                    std::string doc, std::function<json(const PlatformConfig&)> get,
                    std::function<void(PlatformConfig&, const json&)> set) {
  FieldInfo f;
  f.name = std::move(name);
  f.type = FieldType::Int;
  f.min = min;
  f.max = max;
  f.power_of_two = pow2;
  f.functional = functional;
  f.doc = std::move(doc);
  f.get = std::move(get);
  f.set = std::move(set);
  return f;
}

FieldInfo string_field(std::string name, std::vector<std::string> (*allowed)(), bool functional,
                       std::string doc, json (*get)(const PlatformConfig&),
                       void (*set)(PlatformConfig&, const json&)) {
  FieldInfo f;
  f.name = std::move(name);
  f.type = FieldType::String;
  f.allowed = allowed;
  f.functional = functional;
  f.doc = std::move(doc);
  f.get = get;
  f.set = set;
  return f;
}

FieldInfo typed_field(std::string name, FieldType type, double min, double max, std::string doc,
                      json (*get)(const PlatformConfig&),
                      void (*set)(PlatformConfig&, const json&)) {
  FieldInfo f;
  f.name = std::move(name);
  f.type = type;
  f.min = static_cast<int64_t>(min);
  f.max = static_cast<int64_t>(max);
  f.doc = std::move(doc);
  f.get = get;
  f.set = set;
  return f;
}

// Option `o` of a registered component: a functional field (reconvergence
// schemes and compaction units both run in functional mode) kept in
// PlatformConfig::options, where a default value is not stored.
FieldInfo option_field(const DeclaredOptions& d, const OptionInfo& o) {
  const std::string name = d.component + "." + o.name;
  const int64_t default_value = o.default_value;
  return int_field(
      name, o.min, o.max, o.power_of_two, true, d.selector + " " + d.component + ": " + o.doc,
      [name, default_value](const PlatformConfig& c) -> json {
        const auto it = c.options.find(name);
        return it == c.options.end() ? default_value : it->second;
      },
      [name, default_value](PlatformConfig& c, const json& v) {
        if (v.get<int64_t>() == default_value)
          c.options.erase(name);
        else
          c.options[name] = v.get<int64_t>();
      });
}

std::vector<FieldInfo> build_fields() {
  const std::vector<DeclaredOptions> declared = component_option_declarations();
  std::vector<FieldInfo> f;
  // Top level: what sweeps vary most.
  f.push_back(
      int_field("warp_size", 4, 64, true, true, "threads per warp", WARPTLM_ACCESS(warp_size)));
  f.push_back(int_field("simd_width", 1, 64, true, false,
                        "SIMD lanes; a warp issues over warp_size / simd_width cycles",
                        WARPTLM_ACCESS(simd_width)));
  f.push_back(int_field("num_sms", 1, 1024, false, false, "streaming multiprocessors",
                        WARPTLM_ACCESS(num_sms)));
  f.push_back(string_field("scheduler", scheduler_names, false, "warp scheduling policy",
                           WARPTLM_ACCESS(scheduler)));
  f.push_back(string_field("reconvergence", reconvergence_names, true,
                           "reconvergence scheme (simt registry)", WARPTLM_ACCESS(reconvergence)));
  f.push_back(string_field("compaction", compaction_names, true, "thread block compaction scheme",
                           WARPTLM_ACCESS(compaction)));
  f.push_back(string_field("permutation", permutation_names, true, "SIMD lane permutation",
                           WARPTLM_ACCESS(permutation)));
  for (const DeclaredOptions& d : declared)
    for (const OptionInfo& o : d.options) f.push_back(option_field(d, o));
  f.push_back(int_field("seed", 0, kMaxInt, false, true,
                        "seed of every random choice and of scenario inputs",
                        WARPTLM_ACCESS(seed)));
  f.push_back(int_field("instruction_budget", 0, kMaxInt, false, true,
                        "warp instructions a launch may issue before it is a runaway-kernel "
                        "fault (0: 2^24 per warp of the launch, at most 2^32)",
                        WARPTLM_ACCESS(instruction_budget)));
  f.push_back(int_field("watchdog", 0, kMaxInt, false, true,
                        "warp instructions one warp may issue in a row without a global or "
                        "shared store, atomic, barrier or exit before it faults as spinning (0: "
                        "off)",
                        WARPTLM_ACCESS(watchdog)));
  f.push_back(
      int_field("quantum", 1, 1 << 20, false, true,
                "functional mode: warp instructions a warp runs before the next warp of its CTA",
                WARPTLM_ACCESS(quantum)));
  f.push_back(int_field("host_threads", 1, 256, false, false,
                        "timing mode: host threads that tick the SMs of one simulation (every "
                        "value gives the same results; docs/parallel-sms.md)",
                        WARPTLM_ACCESS(host_threads)));
  f.push_back(string_field("coding_style", coding_style_names, false,
                           "the GPU's TLM coding style: 'at' (approximately timed: cycle-level SMs "
                           "and memory hierarchy) or 'lt' (loosely timed: functional execution "
                           "ahead of SystemC time under a quantum keeper, for virtual prototypes)",
                           WARPTLM_ACCESS(coding_style)));
  f.push_back(
      int_field("lt.quantum_ns", 0, int64_t(1) << 40, false, false,
                "coding_style lt: how far, in ns, the kernel runs ahead of SystemC time before it "
                "synchronises (0: after every warp turn)",
                WARPTLM_ACCESS(lt.quantum_ns)));
  // Per SM.
  f.push_back(int_field("sm.threads", 1, 65536, false, false, "resident threads per SM",
                        WARPTLM_ACCESS(sm.threads)));
  f.push_back(int_field("sm.warps", 1, 1024, false, false,
                        "resident warps per SM (limit: min(this, sm.threads / warp_size))",
                        WARPTLM_ACCESS(sm.warps)));
  f.push_back(
      int_field("sm.ctas", 1, 256, false, false, "resident CTAs per SM", WARPTLM_ACCESS(sm.ctas)));
  f.push_back(int_field("sm.registers", 1, 1 << 24, false, false, "32-bit registers per SM",
                        WARPTLM_ACCESS(sm.registers)));
  f.push_back(int_field("sm.max_registers_per_thread", 1, 255, false, false,
                        "registers per thread a CTA is charged at most (PTX declares virtual "
                        "registers; ptxas allocates at most this many physical ones)",
                        WARPTLM_ACCESS(sm.max_registers_per_thread)));
  f.push_back(int_field("sm.shared_memory", 0, 1 << 24, false, false, "shared memory per SM, bytes",
                        WARPTLM_ACCESS(sm.shared_memory)));
  f.push_back(int_field("sm.schedulers", 1, 16, false, false, "warp schedulers per SM",
                        WARPTLM_ACCESS(sm.schedulers)));
  f.push_back(int_field("sm.shared_banks", 1, 64, true, false, "shared-memory banks (4 bytes wide)",
                        WARPTLM_ACCESS(sm.shared_banks)));
  f.push_back(int_field("sm.register_banks", 1, 64, false, false, "register-file banks",
                        WARPTLM_ACCESS(sm.register_banks)));
  f.push_back(int_field("sm.collectors", 1, 64, false, false, "operand-collector units per SM",
                        WARPTLM_ACCESS(sm.collectors)));
  f.push_back(typed_field("sm.clock_mhz", FieldType::Float, 1, 100000, "core clock, MHz",
                          WARPTLM_ACCESS(sm.clock_mhz)));
  f.push_back(int_field("sm.two_level_active", 1, 1024, false, false,
                        "two_level scheduler: warps in each scheduler's active set",
                        WARPTLM_ACCESS(sm.two_level_active)));
  f.push_back(int_field("sm.shared_latency", 1, 10000, false, false,
                        "shared-memory access latency, cycles (bank conflicts add to it)",
                        WARPTLM_ACCESS(sm.shared_latency)));
  f.push_back(int_field("sm.sp.units", 1, 64, false, false, "SP/integer units per SM",
                        WARPTLM_ACCESS(sm.sp.units)));
  f.push_back(int_field("sm.sp.latency", 1, 10000, false, false,
                        "SP/integer issue-to-writeback latency, cycles",
                        WARPTLM_ACCESS(sm.sp.latency)));
  f.push_back(int_field("sm.sp.interval", 1, 10000, false, false,
                        "cycles between two issues to one SP unit",
                        WARPTLM_ACCESS(sm.sp.interval)));
  f.push_back(int_field("sm.sfu.units", 1, 64, false, false, "special-function units per SM",
                        WARPTLM_ACCESS(sm.sfu.units)));
  f.push_back(int_field("sm.sfu.latency", 1, 10000, false, false,
                        "SFU issue-to-writeback latency, cycles", WARPTLM_ACCESS(sm.sfu.latency)));
  f.push_back(int_field("sm.sfu.interval", 1, 10000, false, false,
                        "cycles between two issues to one SFU", WARPTLM_ACCESS(sm.sfu.interval)));
  f.push_back(int_field("sm.ldst.units", 1, 64, false, false, "LD/ST units per SM",
                        WARPTLM_ACCESS(sm.ldst.units)));
  f.push_back(int_field("sm.ldst.latency", 1, 10000, false, false,
                        "LD/ST address stage latency, cycles (memory latency comes on top)",
                        WARPTLM_ACCESS(sm.ldst.latency)));
  f.push_back(int_field("sm.ldst.interval", 1, 10000, false, false,
                        "cycles between two issues to one LD/ST unit",
                        WARPTLM_ACCESS(sm.ldst.interval)));
  f.push_back(int_field("sm.tensor.units", 1, 64, false, false,
                        "tensor-core units per SM (wmma.mma, mma)",
                        WARPTLM_ACCESS(sm.tensor.units)));
  f.push_back(int_field("sm.tensor.latency", 1, 10000, false, false,
                        "tensor-core issue-to-writeback latency, cycles",
                        WARPTLM_ACCESS(sm.tensor.latency)));
  f.push_back(int_field("sm.tensor.interval", 1, 10000, false, false,
                        "cycles between two issues to one tensor-core unit",
                        WARPTLM_ACCESS(sm.tensor.interval)));
  f.push_back(int_field("sm.icache_size", 64, 1 << 24, false, false, "instruction cache, bytes",
                        WARPTLM_ACCESS(sm.icache_size)));
  f.push_back(int_field("sm.icache_assoc", 1, 256, false, false, "instruction cache ways",
                        WARPTLM_ACCESS(sm.icache_assoc)));
  f.push_back(int_field("sm.icache_line", 8, 1024, true, false, "instruction cache line, bytes",
                        WARPTLM_ACCESS(sm.icache_line)));
  f.push_back(int_field("sm.icache_miss_latency", 1, 10000, false, false,
                        "instruction cache miss latency, cycles",
                        WARPTLM_ACCESS(sm.icache_miss_latency)));
  f.push_back(int_field("sm.cct_access_cycles", 0, 64, false, false,
                        "sorted_list: cycles a warp cannot issue per cold context table insert "
                        "or extract (0: the CCT is off the critical path)",
                        WARPTLM_ACCESS(sm.cct_access_cycles)));
  f.push_back(int_field("sm.rt_access_cycles", 0, 64, false, false,
                        "mp_ipdom: cycles a warp cannot issue per reconvergence table entry "
                        "written or updated (0: free)",
                        WARPTLM_ACCESS(sm.rt_access_cycles)));
  f.push_back(int_field("sm.warp_formation_cycles", 0, 64, false, false,
                        "compaction: cycles from the last warp's arrival at a synchronisation "
                        "point until newly formed warps can issue",
                        WARPTLM_ACCESS(sm.warp_formation_cycles)));
  f.push_back(typed_field("sm.sync_uniform_branches", FieldType::Bool, 0, 0,
                          "compaction: warps synchronise at conditional branches the frontend "
                          "proves CTA-uniform too (true: at every conditional branch, as the SLP "
                          "paper; false: they pass those like unconditional ones)",
                          WARPTLM_ACCESS(sm.sync_uniform_branches)));
  f.push_back(string_field("sm.scoreboard", scoreboard_names, false,
                           "scoreboard granularity: 'lane_masks' (a pending write blocks only the "
                           "lanes it writes: one path does not wait on another path's writes) or "
                           "'registers' (a pending write blocks the register for the whole warp)",
                           WARPTLM_ACCESS(sm.scoreboard)));
  f.push_back(int_field("memory.interconnect_latency", 0, 10000, false, false,
                        "SM <-> L2 slice interconnect latency, cycles each way",
                        WARPTLM_ACCESS(memory.interconnect_latency)));
  f.push_back(string_field("memory.port_protocol", port_protocol_names, false,
                           "protocol of the GPU's memory socket: 'at' (nb_transport) or 'lt' "
                           "(b_transport, for targets that offer only that)",
                           WARPTLM_ACCESS(memory.port_protocol)));
  f.push_back(typed_field(
      "memory.dmi", FieldType::Bool, 0, 0,
      "functional accesses to a bound memory use DMI when the target grants "
      "it (false: always debug transport in coding style at, b_transport in coding style lt)",
      WARPTLM_ACCESS(memory.dmi)));
  // Memory hierarchy: L1 per SM, L2 in slices, DRAM channels.
  f.push_back(int_field("memory.l1.size", 0, 1 << 24, false, false,
                        "L1 data cache per SM, bytes (0: none)", WARPTLM_ACCESS(memory.l1.size)));
  f.push_back(int_field("memory.l1.assoc", 1, 256, false, false, "L1 ways",
                        WARPTLM_ACCESS(memory.l1.assoc)));
  f.push_back(int_field("memory.l1.line", 16, 1024, true, false, "L1 line, bytes",
                        WARPTLM_ACCESS(memory.l1.line)));
  f.push_back(int_field("memory.l1.mshrs", 1, 1024, false, false,
                        "L1 miss status holding registers", WARPTLM_ACCESS(memory.l1.mshrs)));
  f.push_back(int_field("memory.l1.latency", 1, 10000, false, false, "L1 hit latency, cycles",
                        WARPTLM_ACCESS(memory.l1.latency)));
  f.push_back(string_field("memory.l1.write_policy", write_policy_names, false, "L1 write policy",
                           WARPTLM_ACCESS(memory.l1.write_policy)));
  f.push_back(typed_field("memory.l1.cache_global", FieldType::Bool, 0, 0,
                          "global loads allocate in L1 (false: they bypass it, as -dlcm=cg)",
                          WARPTLM_ACCESS(memory.l1.cache_global)));
  f.push_back(int_field("memory.l2.size", 0, int64_t(1) << 32, false, false,
                        "L2 cache, all slices together, bytes", WARPTLM_ACCESS(memory.l2.size)));
  f.push_back(int_field("memory.l2.assoc", 1, 256, false, false, "L2 ways",
                        WARPTLM_ACCESS(memory.l2.assoc)));
  f.push_back(int_field("memory.l2.line", 16, 1024, true, false, "L2 line, bytes",
                        WARPTLM_ACCESS(memory.l2.line)));
  f.push_back(int_field("memory.l2.slices", 1, 1024, false, false,
                        "L2 slices (address-interleaved)", WARPTLM_ACCESS(memory.l2.slices)));
  f.push_back(int_field("memory.l2.mshrs", 1, 1024, false, false, "MSHRs per L2 slice",
                        WARPTLM_ACCESS(memory.l2.mshrs)));
  f.push_back(int_field("memory.l2.latency", 1, 10000, false, false, "L2 hit latency, cycles",
                        WARPTLM_ACCESS(memory.l2.latency)));
  f.push_back(string_field("memory.l2.write_policy", write_policy_names, false, "L2 write policy",
                           WARPTLM_ACCESS(memory.l2.write_policy)));
  f.push_back(int_field("memory.dram.channels", 1, 1024, false, false, "DRAM channels",
                        WARPTLM_ACCESS(memory.dram.channels)));
  f.push_back(int_field("memory.dram.banks", 1, 256, false, false, "banks per channel",
                        WARPTLM_ACCESS(memory.dram.banks)));
  f.push_back(int_field("memory.dram.row_size", 64, 1 << 20, true, false, "row buffer, bytes",
                        WARPTLM_ACCESS(memory.dram.row_size)));
  f.push_back(int_field("memory.dram.bus_width", 1, 1024, false, false,
                        "bytes a channel transfers per memory clock",
                        WARPTLM_ACCESS(memory.dram.bus_width)));
  f.push_back(string_field("memory.dram.scheduler", dram_scheduler_names, false,
                           "DRAM request scheduler", WARPTLM_ACCESS(memory.dram.scheduler)));
  f.push_back(int_field("memory.dram.t_cas", 1, 1000, false, false, "CAS latency, memory cycles",
                        WARPTLM_ACCESS(memory.dram.t_cas)));
  f.push_back(int_field("memory.dram.t_rcd", 1, 1000, false, false,
                        "activate-to-column delay, memory cycles",
                        WARPTLM_ACCESS(memory.dram.t_rcd)));
  f.push_back(int_field("memory.dram.t_rp", 1, 1000, false, false, "precharge, memory cycles",
                        WARPTLM_ACCESS(memory.dram.t_rp)));
  f.push_back(typed_field("memory.dram.clock_mhz", FieldType::Float, 1, 100000,
                          "memory command clock, MHz", WARPTLM_ACCESS(memory.dram.clock_mhz)));
  for (size_t i = 0; i < f.size(); ++i)
    for (size_t k = 0; k < i; ++k)
      if (f[i].name == f[k].name)
        throw std::invalid_argument("options: a registered component's option is named '" +
                                    f[i].name + "', which is another configuration field already");
  return f;
}

#undef WARPTLM_ACCESS

bool is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

[[noreturn]] void bad_value(const FieldInfo& f, const json& value) {
  throw std::invalid_argument(f.name + ": must be " + f.describe_allowed() + ", got " +
                              value.dump());
}

// A cache of `size` bytes must split into a power-of-two number of sets of
// assoc lines (per slice for the L2).
void check_cache(const std::string& name, const CacheConfig& c, unsigned slices) {
  if (c.size == 0) return;
  uint64_t set_bytes = uint64_t(c.assoc) * c.line * slices;
  if (c.size % set_bytes != 0 || !is_pow2(static_cast<int64_t>(c.size / set_bytes)))
    throw std::invalid_argument(
        name + ".size: " + std::to_string(c.size) +
        " bytes do not form a power-of-two number of sets of " + std::to_string(c.assoc) +
        " ways x " + std::to_string(c.line) + "-byte lines" +
        (slices > 1 ? " in each of " + std::to_string(slices) + " slices" : ""));
}

}  // namespace

const char* field_type_name(FieldType t) {
  switch (t) {
    case FieldType::Int:
      return "int";
    case FieldType::Float:
      return "float";
    case FieldType::String:
      return "string";
    case FieldType::Bool:
      return "bool";
  }
  return "?";
}

std::string FieldInfo::describe_allowed() const {
  switch (type) {
    case FieldType::Int:
      return "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]" +
             (power_of_two ? ", a power of two" : "");
    case FieldType::Float:
      return "a number in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
    case FieldType::Bool:
      return "true or false";
    case FieldType::String: {
      std::string s = "one of ";
      bool first = true;
      for (const auto& a : allowed()) s += (first ? "" : ", ") + ("'" + a + "'"), first = false;
      return s;
    }
  }
  return "";
}

ExecConfig PlatformConfig::exec_config() const {
  ExecConfig e;
  e.warp_size = warp_size;
  e.simd_width = simd_width;
  e.instruction_budget = instruction_budget;
  e.watchdog = watchdog;
  e.sm = sm.limits();
  e.num_sms = num_sms;
  e.quantum = quantum;
  e.reconvergence = reconvergence;
  e.compaction = compaction;
  e.permutation = permutation;
  e.options = options;
  e.seed = seed;
  return e;
}

const std::vector<FieldInfo>& config_fields() {
  // With the options of the components registered so far.
  static DerivedFromRegistries<std::vector<FieldInfo>> fields(&build_fields);
  return fields.get();
}

const FieldInfo& config_field(const std::string& name) {
  for (const FieldInfo& f : config_fields())
    if (f.name == name) return f;
  // The message's lists are built only for an unknown name: validate() looks
  // up every field, and building them on the way cost more than the run of a
  // small kernel.
  std::string known;
  std::vector<std::string> names;
  for (const FieldInfo& f : config_fields()) {
    known += (known.empty() ? "" : ", ") + f.name;
    names.push_back(f.name);
  }
  throw std::invalid_argument("unknown configuration field '" + name + "'" +
                              did_you_mean(name, names) + "; fields: " + known);
}

json get_field(const PlatformConfig& config, const std::string& name) {
  return config_field(name).get(config);
}

namespace {

void check_and_set(const FieldInfo& f, PlatformConfig& config, const json& value) {
  switch (f.type) {
    case FieldType::Int: {
      if (!value.is_number_integer()) bad_value(f, value);
      // Unsigned JSON numbers above int64 are out of every range here.
      if (value.is_number_unsigned() && value.get<uint64_t>() > uint64_t(kMaxInt))
        bad_value(f, value);
      int64_t v = value.get<int64_t>();
      if (v < f.min || v > f.max || (f.power_of_two && !is_pow2(v))) bad_value(f, value);
      break;
    }
    case FieldType::Float: {
      if (!value.is_number()) bad_value(f, value);
      double v = value.get<double>();
      if (!(v >= double(f.min) && v <= double(f.max))) bad_value(f, value);  // also rejects NaN
      break;
    }
    case FieldType::Bool:
      if (!value.is_boolean()) bad_value(f, value);
      break;
    case FieldType::String: {
      if (!value.is_string()) bad_value(f, value);
      bool ok = false;
      for (const auto& a : f.allowed()) ok = ok || a == value.get<std::string>();
      if (!ok) bad_value(f, value);
      break;
    }
  }
  f.set(config, value);
}

}  // namespace

void set_field(PlatformConfig& config, const std::string& name, const json& value) {
  check_and_set(config_field(name), config, value);
}

void validate(const PlatformConfig& config) {
  PlatformConfig copy;
  for (const FieldInfo& f : config_fields()) check_and_set(f, copy, f.get(config));
  // Combinations of fields, e.g. compaction needs reconvergence=ipdom; the
  // executor's checks name the options of mp_ipdom and capri, the timing
  // costs of the schemes' side tables are checked here.
  config.exec_config().validate();
  const SmConfig defaults;
  check_scheme_option("sm.rt_access_cycles", config.sm.rt_access_cycles, defaults.rt_access_cycles,
                      "reconvergence", "mp_ipdom", config.reconvergence);
  check_scheme_option("sm.cct_access_cycles", config.sm.cct_access_cycles,
                      defaults.cct_access_cycles, "reconvergence", "sorted_list",
                      config.reconvergence);
  if (config.compaction == "none" &&
      config.sm.warp_formation_cycles != defaults.warp_formation_cycles)
    throw std::invalid_argument(
        "sm.warp_formation_cycles: an option of compaction (tbc, capri, ideal), but compaction is "
        "'none' (leave it at its default " +
        std::to_string(defaults.warp_formation_cycles) + ")");
  if (config.compaction == "none" &&
      config.sm.sync_uniform_branches != defaults.sync_uniform_branches)
    throw std::invalid_argument(
        "sm.sync_uniform_branches: an option of compaction (tbc, capri, ideal), but compaction is "
        "'none' (leave it at its default true)");
  check_cache("memory.l1", config.memory.l1, 1);
  check_cache("memory.l2", config.memory.l2, config.memory.l2.slices);
  uint64_t icache_set = uint64_t(config.sm.icache_assoc) * config.sm.icache_line;
  if (config.sm.icache_size % icache_set != 0 ||
      !is_pow2(static_cast<int64_t>(config.sm.icache_size / icache_set)))
    throw std::invalid_argument("sm.icache_size: " + std::to_string(config.sm.icache_size) +
                                " bytes do not form a power-of-two number of sets of " +
                                std::to_string(config.sm.icache_assoc) + " ways x " +
                                std::to_string(config.sm.icache_line) + "-byte lines");
}

json to_json(const PlatformConfig& config) {
  json j = json::object();
  for (const FieldInfo& f : config_fields()) j[f.name] = f.get(config);
  return j;
}

namespace {

void flatten(const json& j, const std::string& prefix,
             std::vector<std::pair<std::string, json>>& out) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    std::string name = prefix.empty() ? it.key() : prefix + "." + it.key();
    if (it->is_object())
      flatten(*it, name, out);
    else
      out.emplace_back(name, *it);
  }
}

}  // namespace

PlatformConfig apply_overrides(PlatformConfig base, const json& overrides) {
  if (!overrides.is_object())
    throw std::invalid_argument("configuration overrides must be an object, got " +
                                overrides.dump());
  std::vector<std::pair<std::string, json>> flat;
  flatten(overrides, "", flat);
  for (const auto& [name, value] : flat) set_field(base, name, value);
  validate(base);
  return base;
}

}  // namespace warptlm
