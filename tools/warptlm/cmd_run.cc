// `warptlm run NAME`: a built-in scenario, checked against its host reference.
#include <iostream>

#include "commands.h"
#include "exec/prepared_program.h"
#include "frontend/ptx_parser.h"
#include "run_output.h"
#include "scenario.h"
#include "simt/reconvergence_unit.h"

namespace warptlm::cli {

CLI::App* add_run(CLI::App& app, RunCommand& c) {
  CLI::App* cmd = app.add_subcommand(
      "run",
      "Run a built-in scenario (`warptlm list scenarios`) and check its outputs against "
      "its host reference; exit status 1 when they differ.");
  cmd->add_option("scenario", c.scenario, "the scenario")->required()->type_name("NAME");
  cmd->add_option("--size", c.size, "test, study, or the size parameter n")->default_val("test");
  cmd->add_option("--seed", c.seed, "seed of the input generator (default: the platform's seed)")
      ->each([&c](const std::string&) { c.seed_given = true; });
  add_run_options(cmd, c.run);
  return cmd;
}

int cmd_run(const RunCommand& c) {
  const PlatformConfig platform = platform_from(c.run);
  const OutputPaths paths = output_paths(c.run);
  const scenarios::Scenario& s = scenarios::find(c.scenario);
  const uint64_t n = scenarios::resolve_size(s, c.size);
  const uint64_t seed = c.seed_given ? c.seed : platform.seed;
  const LaunchSpec input = s.make_launch(n, seed);
  LaunchSpec launch = input;
  const std::string& ptx = scenarios::scenario_ptx(s);
  const std::string source = "scenarios/" + s.source_dir + "/kernel.ptx";
  const Program program = prepare_program(parse_ptx(ptx, source), platform.reconvergence);

  std::cout << "warptlm run " << s.name << ": " << s.title << "\n";
  std::cout << "  mirrors " << s.mirrors << "; size " << c.size << " (n=" << n << "), seed " << seed
            << ", " << geometry_text(launch) << ", " << platform.reconvergence << " reconvergence, "
            << c.run.mode << " mode (preset " << c.run.preset << ")\n";
  std::cout << std::flush;
  KernelRun r = run_kernel(program, s.entry, launch, platform, c.run, paths);
  print_kernel_output(launch.output);
  const scenarios::CheckResult check = s.check(input, launch);
  print_summary(r, c.run.mode);
  std::cout << "  host reference: " << (check.passed ? "PASS" : "FAIL") << " (" << check.message
            << ")\n";
  nlohmann::json record = run_record("run", c.run.mode, ptx, source, s.entry, launch, platform, r);
  record["scenario"] = {{"name", s.name}, {"size", c.size}, {"n", n}, {"seed", seed}};
  record["passed"] = check.passed;
  record["message"] = check.message;
  write_outputs(record, paths, r, program.module);
  return check.passed ? 0 : 1;
}

}  // namespace warptlm::cli
