// What `exec` and `run` share after parsing: the run itself (functional or
// timing), the printed summary, and the files a run writes (the JSON run
// record, its text twin, the configuration, the issue trace).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "config/platform_config.h"
#include "exec/launch.h"
#include "exec/run_stats.h"
#include "exec/trace.h"
#include "frontend/program.h"
#include "options.h"

namespace warptlm::cli {

struct KernelRun {
  RunStats run;
  nlohmann::json stats;  // every statistic: RunStats, then the timing model's
  double seconds = 0;
  TraceBuffer trace;
};

// Runs `entry` of `program` on `platform` in options.mode; `launch`'s buffers
// hold the outputs afterwards. Kernel faults propagate as KernelFault.
KernelRun run_kernel(const Program& program, const std::string& entry, LaunchSpec& launch,
                     const PlatformConfig& platform, const RunOptions& options,
                     const OutputPaths& paths);

// `repeat` launches of `entry` in one LaunchSession (the buffers placed once,
// read back into `launch` after the last); each launch's printf output is
// printed as it ends. The statistics count over every launch.
KernelRun run_kernel_repeated(const Program& program, const std::string& entry, LaunchSpec& launch,
                              const PlatformConfig& platform, const std::string& mode,
                              uint64_t repeat);

// The header line's description of a launch: "grid (4,1,1) x block (256,1,1)".
// What the kernel's printf calls wrote (LaunchSpec::output, KernelFault::output),
// as the program's output: on stdout, ending in a newline.
void print_kernel_output(const std::string& text);
std::string geometry_text(const LaunchSpec& launch);
// The summary table a run prints.
void print_summary(const KernelRun& r, const std::string& mode);

// The run record every statistics file holds (docs/statistics.md, "Run
// records"): version, command, mode, kernel (name, source, PTX hash),
// launch geometry, every configuration field, every statistic.
nlohmann::json run_record(const std::string& command, const std::string& mode,
                          const std::string& ptx, const std::string& source_name,
                          const std::string& entry, const LaunchSpec& launch,
                          const PlatformConfig& platform, const KernelRun& r);

// Writes the record, stats.txt, config.json and the trace (each row with its
// PTX line and instruction text from `module`) where `paths` say.
void write_outputs(const nlohmann::json& record, const OutputPaths& paths, const KernelRun& r,
                   const Module& module);

}  // namespace warptlm::cli
