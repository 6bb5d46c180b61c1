// `warptlm platform NAME|FILE`: a platform (models/platform, platforms/*.yaml)
// running built-in scenarios on its GPUs, checked against their host references.
#include <fstream>
#include <iostream>

#include "commands.h"
#include "platform_run.h"

namespace warptlm::cli {

CLI::App* add_platform(CLI::App& app, PlatformCommand& c) {
  CLI::App* cmd = app.add_subcommand(
      "platform",
      "Elaborate a platform (built in: standalone, soc, multi_gpu; or a .yaml/.json file, "
      "docs/platforms.md) and run scenarios on its GPUs through its host CPU; exit status 1 when "
      "an output differs from the scenario's host reference.");
  cmd->add_option("platform", c.request.platform, "a built-in platform or a platform file")
      ->required()
      ->type_name("NAME|FILE");
  cmd->add_option("--scenario", c.request.scenarios,
                  "the scenario every GPU the host drives runs, or GPU=SCENARIO for one GPU "
                  "(repeatable; default: the platform file's jobs)")
      ->type_name("[GPU=]NAME");
  cmd->add_option("--size", c.request.size, "test, study, or the size parameter n")
      ->default_val("test");
  cmd->add_option("--seed", c.request.seed, "seed of the input generators (default: each GPU's)")
      ->each([&c](const std::string&) { c.request.seed_given = true; });
  cmd->add_option("--mode", c.request.mode,
                  "coding style of every GPU: lt (loosely timed) or at (cycle level); default: "
                  "as the platform describes")
      ->check(CLI::IsMember({"lt", "at"}));
  cmd->add_option("--set", c.request.sets,
                  "NAME=VALUE by hierarchical name: gpu0.num_sms=4, ram.latency_ns=20, "
                  "soc.bus.latency_ns=1; a GPU field without a module sets every GPU")
      ->type_name("NAME=VALUE");
  cmd->add_option("--stats", c.stats_path,
                  "write the run record (every module's statistics) as JSON")
      ->type_name("FILE");
  cmd->add_option("--vcd", c.request.vcd_path, "write the GPUs' top-level signals as a VCD")
      ->type_name("FILE");
  return cmd;
}

int cmd_platform(const PlatformCommand& c) {
  const nlohmann::json record = run_platform_record(c.request);
  std::cout << platform_summary_text(record);
  if (!c.stats_path.empty()) {
    std::ofstream out(c.stats_path);
    out << record.dump(2) << "\n";
    if (!out) throw std::runtime_error("cannot write " + c.stats_path);
  }
  return record["passed"].get<bool>() ? 0 : 1;
}

}  // namespace warptlm::cli
