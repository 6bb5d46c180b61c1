// `warptlm run NAME` runs a built-in scenario and checks it against its host
// reference; `warptlm list` shows the scenarios.
#include <chrono>
#include <cstdio>
#include <iostream>

#include "commands.h"
#include "config/platform_config.h"
#include "exec/functional_executor.h"
#include "frontend/ptx_parser.h"
#include "gpu/timing_run.h"
#include "scenario.h"
#include "simt/reconvergence_unit.h"

namespace warptlm::cli {

void take_exec_config(Args& args, ExecConfig* config);

int cmd_list(Args& args) {
  args.finish();
  for (const auto& s : scenarios::all()) {
    std::string div, sizes;
    for (auto d : s.divergence)
      div += (div.empty() ? "" : ", ") + std::string(scenarios::divergence_name(d));
    for (const auto& z : s.sizes)
      sizes += (sizes.empty() ? "" : ", ") + z.name + " n=" + std::to_string(z.n);
    std::printf("%-12s %s\n", s.name.c_str(), s.title.c_str());
    std::printf("%-12s   mirrors: %s\n", "", s.mirrors.c_str());
    std::printf("%-12s   divergence: %s; sizes: %s (n in [%llu, %llu])\n", "", div.c_str(),
                sizes.c_str(), static_cast<unsigned long long>(s.min_n),
                static_cast<unsigned long long>(s.max_n));
  }
  return 0;
}

int cmd_run(Args& args) {
  std::string size = "test", seed_text = "1", stats_path, mode = "functional",
              preset_name = "small";
  args.take("--size", &size);
  args.take("--seed", &seed_text);
  args.take("--stats", &stats_path);
  args.take("--mode", &mode);
  args.take("--preset", &preset_name);
  TimingOptions timing_options;
  args.take("--timeline", &timing_options.timeline_path);
  args.take("--vcd", &timing_options.vcd_path);
  std::vector<std::string> sets = args.take_all("--set");
  if (mode != "functional" && mode != "timing")
    throw UsageError("--mode must be 'functional' or 'timing', got '" + mode + "'");
  if (mode != "timing" &&
      (!timing_options.timeline_path.empty() || !timing_options.vcd_path.empty()))
    throw UsageError("--timeline and --vcd need --mode timing");
  // The platform: a preset with FIELD=VALUE overrides (JSON values); the
  // functional flags (--warp-size, --reconvergence, --budget) apply on top.
  PlatformConfig platform = preset(preset_name);
  for (const std::string& kv : sets) {
    size_t eq = kv.find('=');
    if (eq == std::string::npos) throw UsageError("--set takes FIELD=VALUE, got '" + kv + "'");
    nlohmann::json value;
    try {
      value = nlohmann::json::parse(kv.substr(eq + 1));
    } catch (const nlohmann::json::exception&) {
      value = kv.substr(eq + 1);  // a bare word is a string
    }
    set_field(platform, kv.substr(0, eq), value);
  }
  ExecConfig config = platform.exec_config();
  take_exec_config(args, &config);
  platform.warp_size = config.warp_size;
  platform.reconvergence = config.reconvergence;
  platform.instruction_budget = config.instruction_budget;
  validate(platform);
  args.finish();
  auto names = args.positionals();
  if (names.size() != 1)
    throw UsageError("run takes exactly one scenario NAME (see `warptlm list`)");
  uint64_t seed = parse_uint("--seed", seed_text, ~0ull);

  const scenarios::Scenario& s = scenarios::find(names[0]);
  uint64_t n = scenarios::resolve_size(s, size);
  LaunchSpec input = s.make_launch(n, seed);
  LaunchSpec launch = input;
  FinalizeOptions fin;
  fin.insert_reconvergence_markers = reconvergence_needs_markers(config.reconvergence);
  Program program = finalize(
      parse_ptx(scenarios::scenario_ptx(s), "scenarios/" + s.source_dir + "/kernel.ptx"), fin);

  std::cout << "warptlm run " << s.name << ": " << s.title << "\n";
  std::cout << "  mirrors " << s.mirrors << "; size " << size << " (n=" << n << "), seed " << seed
            << ", grid (" << launch.grid.x << "," << launch.grid.y << "," << launch.grid.z
            << ") x block (" << launch.block.x << "," << launch.block.y << "," << launch.block.z
            << "), " << config.reconvergence << " reconvergence, " << mode << " mode"
            << (mode == "timing" ? " (preset " + preset_name + ")" : std::string()) << "\n";
  auto t0 = std::chrono::steady_clock::now();
  RunStats stats;
  nlohmann::json timing;
  if (mode == "timing")
    timing = run_timing(program, s.entry, launch, platform, &stats, nullptr, timing_options);
  else
    stats = run_functional(program, s.entry, launch, config);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  scenarios::CheckResult check = s.check(input, launch);
  print_stats(stats, seconds);
  if (mode == "timing")
    std::cout << "  cycles " << timing.value("cycles", uint64_t(0)) << ", IPC "
              << timing.value("ipc", 0.0) << " (whole GPU)\n";
  std::cout << "  host reference: " << (check.passed ? "PASS" : "FAIL") << " (" << check.message
            << ")\n";
  nlohmann::json j = stats.to_json();
  for (auto it = timing.begin(); timing.is_object() && it != timing.end(); ++it)
    j[it.key()] = it.value();
  j["scenario"] = s.name;
  j["n"] = n;
  j["seed"] = seed;
  j["passed"] = check.passed;
  j["wall_seconds"] = seconds;
  write_stats(stats_path, j);
  return check.passed ? 0 : 1;
}

}  // namespace warptlm::cli
