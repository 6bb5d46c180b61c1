// `warptlm platform NAME|FILE`: a platform (models/platform, platforms/*.yaml)
// running built-in scenarios on its GPUs, checked against their host references.
#include <cstdio>
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
  cmd->add_option("--timeline", c.request.timeline_path,
                  "write a warp timeline for Perfetto (with several GPUs, one file per GPU: "
                  "FILE.gpu0.json, ...)")
      ->type_name("FILE.json");
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

CLI::App* add_elaborate(CLI::App& app, ElaborateCommand& c) {
  CLI::App* cmd = app.add_subcommand(
      "elaborate",
      "Elaborate a platform and print what it became, read from the SystemC objects: modules, "
      "every socket and signal with what it is bound to, address maps, and each module's "
      "configuration with where every value came from.");
  cmd->add_option("platform", c.platform, "a built-in platform or a platform file")
      ->required()
      ->type_name("NAME|FILE");
  cmd->add_option("--format", c.format, "text, json (every binding and field) or dot (Graphviz)")
      ->default_val("text")
      ->check(CLI::IsMember({"text", "json", "dot"}));
  cmd->add_option("--mode", c.mode, "coding style of every GPU: lt or at")
      ->check(CLI::IsMember({"lt", "at"}));
  cmd->add_option("--set", c.sets, "NAME=VALUE by hierarchical name, as for `platform`")
      ->type_name("NAME=VALUE");
  cmd->add_option("-o,--output", c.output,
                  "write to FILE instead of stdout; FILE.png or FILE.svg draws the platform with "
                  "Graphviz's dot")
      ->type_name("FILE");
  return cmd;
}

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

int cmd_elaborate(const ElaborateCommand& c) {
  const nlohmann::json view = elaborate_record(c.platform, c.mode, c.sets);
  const bool picture = ends_with(c.output, ".png") || ends_with(c.output, ".svg");
  const std::string text = elaboration_in_format(view, picture ? "dot" : c.format);
  if (c.output.empty()) {
    std::cout << text;
    return 0;
  }
  if (!picture) {
    std::ofstream out(c.output);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + c.output);
    return 0;
  }
  // Drawn by Graphviz: dot reads the graph on stdin.
  const std::string command = std::string("dot -T") +
                              (ends_with(c.output, ".png") ? "png" : "svg") + " -o '" + c.output +
                              "'";
  FILE* dot = popen(command.c_str(), "w");
  if (!dot) throw std::runtime_error("cannot run Graphviz's dot (apt-get install graphviz)");
  fwrite(text.data(), 1, text.size(), dot);
  const int status = pclose(dot);
  if (status != 0)
    throw std::runtime_error("Graphviz's dot failed drawing " + c.output + " (status " +
                             std::to_string(status) +
                             "; is graphviz installed? "
                             "apt-get install graphviz)");
  return 0;
}

}  // namespace warptlm::cli
