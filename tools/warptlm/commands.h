// The warptlm subcommands: each registers its options on the CLI11 app and
// runs once parsed, returning the process exit status.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "analyze_text.h"
#include "options.h"
#include "platform_run.h"

namespace warptlm::cli {

struct AnalyzeCommand {
  std::string file;
  AnalyzeOptions options;
};
CLI::App* add_analyze(CLI::App& app, AnalyzeCommand& c);
int cmd_analyze(const AnalyzeCommand& c);

struct ExecCommand {
  std::string file, kernel, grid = "1", block;
  uint64_t shared = 0;
  bool cooperative = false;
  uint64_t repeat = 1;
  std::vector<std::string> args;
  RunOptions run;
};
CLI::App* add_exec(CLI::App& app, ExecCommand& c);
int cmd_exec(const ExecCommand& c);

struct RunCommand {
  std::string scenario, size = "test";
  uint64_t seed = 1;
  bool seed_given = false;
  RunOptions run;
};
CLI::App* add_run(CLI::App& app, RunCommand& c);
int cmd_run(const RunCommand& c);

struct ListCommand {
  std::string what;  // "" (the first four), presets, scenarios, schemes, statistics, fields
  bool markdown = false;
};
CLI::App* add_list(CLI::App& app, ListCommand& c);
int cmd_list(const ListCommand& c);

struct PlatformCommand {
  PlatformRunRequest request;
  std::string stats_path;
};
CLI::App* add_platform(CLI::App& app, PlatformCommand& c);
int cmd_platform(const PlatformCommand& c);

struct ElaborateCommand {
  std::string platform, format = "text", mode, output;
  std::vector<std::string> sets;
};
CLI::App* add_elaborate(CLI::App& app, ElaborateCommand& c);
int cmd_elaborate(const ElaborateCommand& c);

}  // namespace warptlm::cli
