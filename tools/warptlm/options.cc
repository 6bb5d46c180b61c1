#include "options.h"

#include <nlohmann/json.hpp>

#include "config/config_file.h"

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
  c->add_option("--config", o.config,
                "start from a configuration file (JSON or YAML: 'preset' and fields; without "
                "'preset' it starts from --preset); --set and the shortcuts apply on top")
      ->type_name("FILE");
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
  c->add_option("--threads", o.threads,
                "the same as --set host_threads=N (timing: host threads for the SMs; the results "
                "are the same for every N)")
      ->type_name("N");
  c->add_option("--stats,--json", o.stats_path,
                "write the run record as JSON: version, command, kernel, geometry, every "
                "configuration field, every statistic")
      ->type_name("FILE.json");
  c->add_option("--trace", o.trace_path,
                "write the issue trace as CSV (one row per warp instruction)")
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
  PlatformConfig platform =
      o.config.empty() ? preset(o.preset) : load_config_file(o.config, o.preset);
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
  if (!o.threads.empty()) apply("host_threads", o.threads);
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

}  // namespace warptlm::cli
