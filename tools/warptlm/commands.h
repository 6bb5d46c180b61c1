// The warptlm subcommands. Each returns the process exit status.
#pragma once

#include <string>

#include "exec/run_stats.h"
#include "options.h"

namespace warptlm::cli {

int cmd_analyze(Args& args);
int cmd_exec(Args& args);
int cmd_run(Args& args);
int cmd_list(Args& args);

// Prints the statistics as an aligned table; writes them to `json_path` when not empty.
void print_stats(const RunStats& stats, double seconds);
void write_stats(const std::string& json_path, const nlohmann::json& stats);

}  // namespace warptlm::cli
