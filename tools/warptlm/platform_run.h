// Running a platform (models/platform) on built-in scenarios, for both CLIs:
// `warptlm platform` and warptlm.platforms.run() build the same request and
// get the same record.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace warptlm::cli {

struct PlatformRunRequest {
  std::string platform;                // a built-in name or a .yaml/.json file
  std::vector<std::string> scenarios;  // "S" for every GPU the host drives, or "GPU=S"
  std::string size = "test";           // test, study or n, for every job
  uint64_t seed = 0;
  bool seed_given = false;        // else each GPU's configured seed
  std::string mode;               // "", "lt" or "at": coding_style of every GPU
  std::vector<std::string> sets;  // NAME=VALUE by hierarchical name
  std::string vcd_path;
  std::string timeline_path;  // per GPU: see PlatformOutputs::timeline_path
};

// Loads the platform, applies mode and settings, builds one job per GPU from
// its scenario, simulates, checks each job against its scenario's host
// reference. The record: platform, source, description, simulated_ns, passed,
// jobs (gpu, scenario, size, n, seed, status, error, launch_cycles, passed,
// message) and modules (every module's statistics by name). Throws
// std::invalid_argument for a bad platform, setting, scenario or size.
nlohmann::json run_platform_record(const PlatformRunRequest& request);

// The lines `warptlm platform` prints for a record.
std::string platform_summary_text(const nlohmann::json& record);

// The platform (with mode and settings applied, as for a run) elaborated and
// viewed (models/platform/elaboration_view.h): the JSON view.
nlohmann::json elaborate_record(const std::string& platform, const std::string& mode,
                                const std::vector<std::string>& sets);
// The view as "text", "json" or "dot"; std::invalid_argument for another format.
std::string elaboration_in_format(const nlohmann::json& view, const std::string& format);

}  // namespace warptlm::cli
