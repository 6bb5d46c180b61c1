#include "options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>

namespace warptlm::cli {

void add_run_options(CLI::App* c, RunOptions& o) {
  c->add_option("--mode", o.mode,
                "functional (the exact executor) or timing (the SystemC/TLM GPU: cycles, stalls, "
                "caches, DRAM)")
      ->default_val("functional");
  std::string presets;
  for (const PresetInfo& p : preset_infos()) presets += (presets.empty() ? "" : "|") + p.name;
  c->add_option("--preset", o.preset, "the platform configuration to start from (" + presets + ")")
      ->default_val("small");
  c->add_option("--set", o.sets,
                "override a configuration field, e.g. --set sm.schedulers=4 --set scheduler=gto "
                "(repeatable; `warptlm list fields`)")
      ->type_name("FIELD=VALUE")
      ->allow_extra_args(false);
  c->add_option("--warp-size", o.warp_size, "the same as --set warp_size=N")->type_name("N");
  c->add_option("--reconvergence", o.reconvergence, "the same as --set reconvergence=SCHEME")
      ->type_name("SCHEME");
  c->add_option("--budget", o.budget,
                "the same as --set instruction_budget=N (warp instructions before a runaway fault)")
      ->type_name("N");
  c->add_option("--stats", o.stats_path,
                "write the run record as JSON: version, command, kernel, geometry, every "
                "configuration field, every statistic")
      ->type_name("FILE.json");
  c->add_option("--trace", o.trace_path, "write the issue trace as CSV (one row per warp instruction)")
      ->type_name("FILE.csv");
  c->add_option("--timeline", o.timeline_path, "timing: write a warp timeline for Perfetto")
      ->type_name("FILE.json");
  c->add_option("--vcd", o.vcd_path, "timing: write a waveform of the GPU's top-level signals")
      ->type_name("FILE.vcd");
  c->add_option("--outdir", o.outdir,
                "write everything of the run into DIR: config.json, stats.json, stats.txt, and "
                "in timing mode timeline.json and top.vcd")
      ->type_name("DIR");
}

PlatformConfig platform_from(const RunOptions& o) {
  if (o.mode != "functional" && o.mode != "timing")
    throw UsageError("--mode must be 'functional' or 'timing', got '" + o.mode + "'");
  if (o.mode != "timing" && (!o.timeline_path.empty() || !o.vcd_path.empty()))
    throw UsageError("--timeline and --vcd need --mode timing");
  PlatformConfig platform = preset(o.preset);
  auto apply = [&](const std::string& field, const std::string& text) {
    nlohmann::json value;
    try {
      value = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
      value = text;  // a bare word is a string
    }
    set_field(platform, field, value);
  };
  for (const std::string& kv : o.sets) {
    size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--set takes FIELD=VALUE, got '" + kv + "'");
    apply(kv.substr(0, eq), kv.substr(eq + 1));
  }
  if (!o.warp_size.empty()) apply("warp_size", o.warp_size);
  if (!o.reconvergence.empty()) set_field(platform, "reconvergence", o.reconvergence);
  if (!o.budget.empty()) apply("instruction_budget", o.budget);
  validate(platform);
  return platform;
}

OutputPaths output_paths(const RunOptions& o) {
  OutputPaths p{o.stats_path, "", "", o.timeline_path, o.vcd_path, o.trace_path};
  if (o.outdir.empty()) return p;
  const std::string dir = o.outdir + "/";
  if (p.stats.empty()) p.stats = dir + "stats.json";
  p.stats_text = dir + "stats.txt";
  p.config = dir + "config.json";
  if (o.mode == "timing" && p.timeline.empty()) p.timeline = dir + "timeline.json";
  if (o.mode == "timing" && p.vcd.empty()) p.vcd = dir + "top.vcd";
  return p;
}

namespace {

uint64_t parse_uint(const std::string& flag, const std::string& text, uint64_t max) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    throw UsageError(flag + ": expected a non-negative integer, got '" + text + "'");
  errno = 0;
  unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE || v > max)
    throw UsageError(flag + ": " + text + " is out of range (at most " + std::to_string(max) + ")");
  return v;
}

}  // namespace

Dim3 parse_dim3(const std::string& flag, const std::string& text) {
  uint32_t v[3] = {1, 1, 1};
  size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    size_t comma = text.find(',', start);
    std::string part =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    v[i] = static_cast<uint32_t>(parse_uint(flag, part, 0xffffffffu));
    if (v[i] == 0) throw UsageError(flag + ": dimensions must be positive, got '" + text + "'");
    if (comma == std::string::npos) break;
    if (i == 2) throw UsageError(flag + ": at most three dimensions X[,Y[,Z]], got '" + text + "'");
    start = comma + 1;
  }
  return Dim3{v[0], v[1], v[2]};
}

KernelArg parse_scalar(const std::string& text) {
  auto colon = text.find(':');
  if (colon == std::string::npos)
    throw UsageError("--arg '" + text +
                     "': expected FILE.npy or TYPE:VALUE (e.g. i32:256, f32:1.5)");
  std::string tn = text.substr(0, colon), value = text.substr(colon + 1);
  static const struct {
    const char* name;
    Type type;
  } types[] = {{"i8", Type::S8},   {"i16", Type::S16}, {"i32", Type::S32}, {"i64", Type::S64},
               {"s8", Type::S8},   {"s16", Type::S16}, {"s32", Type::S32}, {"s64", Type::S64},
               {"u8", Type::U8},   {"u16", Type::U16}, {"u32", Type::U32}, {"u64", Type::U64},
               {"f32", Type::F32}, {"f64", Type::F64}};
  Type type = Type::None;
  for (const auto& t : types)
    if (tn == t.name) type = t.type;
  if (type == Type::None)
    throw UsageError("--arg '" + text + "': unknown type '" + tn +
                     "' (i8 i16 i32 i64 u8 u16 u32 u64 f32 f64)");
  const char* s = value.c_str();
  char* end = nullptr;
  errno = 0;
  unsigned bits = type_bits(type);
  if (is_float(type)) {
    double d = std::strtod(s, &end);
    if (value.empty() || *end || errno == ERANGE)
      throw UsageError("--arg '" + text + "': '" + value + "' is not a " + tn + " number");
    if (type == Type::F32) {
      float f = static_cast<float>(d);
      if (std::isinf(f) && !std::isinf(d))
        throw UsageError("--arg '" + text + "': " + value + " overflows f32");
      uint32_t u;
      std::memcpy(&u, &f, 4);
      return KernelArg::scalar(type, u);
    }
    uint64_t u;
    std::memcpy(&u, &d, 8);
    return KernelArg::scalar(type, u);
  }
  // Any value representable in the width, signed or not, as C's conversions
  // and the Python API allow: i32:4294967295 and u32:-1 are the same bits.
  const bool negative = !value.empty() && value[0] == '-';
  const unsigned long long hi = bits == 64 ? ~0ull : (1ull << bits) - 1;
  const long long lo = bits == 64 ? std::numeric_limits<long long>::min() : -(1ll << (bits - 1));
  uint64_t u = 0;
  bool ok = !value.empty();
  if (negative) {
    long long v = std::strtoll(s, &end, 0);
    ok = ok && !*end && errno != ERANGE && v >= lo;
    u = static_cast<uint64_t>(v);
  } else {
    unsigned long long v = std::strtoull(s, &end, 0);
    ok = ok && !*end && errno != ERANGE && v <= hi;
    u = v;
  }
  if (!ok)
    throw UsageError("--arg '" + text + "': '" + value + "' is not a " + std::to_string(bits) +
                     "-bit integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  if (bits < 64) u &= (1ull << bits) - 1;
  return KernelArg::scalar(type, u);
}

}  // namespace warptlm::cli
