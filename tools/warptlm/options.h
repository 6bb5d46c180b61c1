// The options `exec` and `run` share, and the parsers of their values.
// Each option means the same in both commands and in `python3 -m warptlm`.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "arg_values.h"
#include "config/platform_config.h"
#include "exec/launch.h"

namespace warptlm::cli {

struct RunOptions {
  std::string mode = "functional";  // or "timing"
  std::string preset = "small";
  std::string config;  // --config FILE: the base configuration (its preset, else --preset)
  std::vector<std::string> sets;  // FIELD=VALUE, in order
  // Shortcuts for --set warp_size=N, reconvergence=S, instruction_budget=N,
  // host_threads=N, applied after the --set overrides.
  std::string warp_size, reconvergence, budget, threads;
  std::string stats_path;     // the run record (JSON)
  std::string timeline_path;  // timing: Perfetto warp timeline
  std::string vcd_path;       // timing: the GPU's top-level signals
  std::string trace_path;     // the issue trace (CSV)
  std::string outdir;         // everything of the run in one folder
};

// Adds the shared options to a subcommand.
void add_run_options(CLI::App* command, RunOptions& options);

// The preset with the overrides, validated; UsageError for a bad --mode,
// FIELD=VALUE syntax or a timing-only output without --mode timing;
// std::invalid_argument (from the model) for an unknown field or bad value.
PlatformConfig platform_from(const RunOptions& options);

// Where each output of the run goes, --outdir filling in what was not named.
struct OutputPaths {
  std::string stats, stats_text, config, timeline, vcd, trace;
};
OutputPaths output_paths(const RunOptions& options);

}  // namespace warptlm::cli
