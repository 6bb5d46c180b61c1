#include "run_output.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>

#include "cli_text.h"
#include "config/version.h"
#include "exec/functional_executor.h"
#include "gpu/timing_run.h"
#include "gpu/timing_session.h"

namespace warptlm::cli {
namespace {

nlohmann::json dim3_json(const Dim3& d) { return nlohmann::json::array({d.x, d.y, d.z}); }

void write_text(const std::string& path, const std::string& what, const std::string& text) {
  if (path.empty()) return;
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error(path + ": cannot write " + what);
}

// A CSV field, quoted where it must be (PTX text holds commas), as Python's csv does.
std::string csv_quoted(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string trace_csv(const TraceBuffer& trace, bool timing, const Module& module) {
  std::string out =
      std::string(timing ? "cycle" : "step") + ",sm,warp,split,pc,mask,line,instruction\n";
  char line[160];
  for (const TraceRecord& r : trace.records) {
    const Instruction& in = module.at(r.pc);
    std::snprintf(line, sizeof line, "%llu,%u,%u,%u,%llu,%llu,%u,",
                  static_cast<unsigned long long>(r.step), r.sm, r.warp, r.split,
                  static_cast<unsigned long long>(r.pc), static_cast<unsigned long long>(r.mask),
                  in.loc.line);
    out += line + csv_quoted(in.text) + "\n";
  }
  return out;
}

}  // namespace

KernelRun run_kernel(const Program& program, const std::string& entry, LaunchSpec& launch,
                     const PlatformConfig& platform, const RunOptions& options,
                     const OutputPaths& paths) {
  if (!options.outdir.empty()) std::filesystem::create_directories(options.outdir);
  KernelRun r;
  TraceSink* trace = paths.trace.empty() ? nullptr : &r.trace;
  auto t0 = std::chrono::steady_clock::now();
  nlohmann::json timing;
  if (options.mode == "timing") {
    TimingOptions timing_options;
    timing_options.timeline_path = paths.timeline;
    timing_options.vcd_path = paths.vcd;
    timing = run_timing(program, entry, launch, platform, &r.run, trace, timing_options);
  } else {
    r.run = run_functional(program, entry, launch, platform.exec_config(), trace);
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.stats = all_statistics(r.run, std::move(timing));
  return r;
}

KernelRun run_kernel_repeated(const Program& program, const std::string& entry, LaunchSpec& launch,
                              const PlatformConfig& platform, const std::string& mode,
                              uint64_t repeat) {
  const std::unique_ptr<LaunchSession> session = make_launch_session(platform, mode);
  const uint32_t handle = session->load(program);
  std::vector<uint64_t> addresses;
  for (const HostBuffer& b : launch.buffers) {
    addresses.push_back(session->allocate(b.bytes.size(), b.name));
    session->write(addresses.back(), b.bytes.data(), b.bytes.size());
  }
  KernelRun r;
  const auto t0 = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < repeat; ++i) {
    session->launch(handle, entry, launch, addresses);
    print_kernel_output(launch.output);
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (size_t i = 0; i < launch.buffers.size(); ++i)
    session->read(addresses[i], launch.buffers[i].bytes.data(), launch.buffers[i].bytes.size());
  r.run = session->run_stats();
  r.stats = session->statistics();
  return r;
}

void print_kernel_output(const std::string& text) {
  if (text.empty()) return;
  std::fwrite(text.data(), 1, text.size(), stdout);
  if (text.back() != '\n') std::fputc('\n', stdout);
  std::fflush(stdout);
}

std::string geometry_text(const LaunchSpec& l) {
  return "grid (" + std::to_string(l.grid.x) + "," + std::to_string(l.grid.y) + "," +
         std::to_string(l.grid.z) + ") x block (" + std::to_string(l.block.x) + "," +
         std::to_string(l.block.y) + "," + std::to_string(l.block.z) + ")";
}

void print_summary(const KernelRun& r, const std::string& mode) {
  const RunStats& s = r.run;
  std::printf("  %-22s %llu x %u-lane warps in %llu CTAs\n", "warps",
              static_cast<unsigned long long>(s.warps), s.warp_size,
              static_cast<unsigned long long>(s.ctas));
  std::printf("  %-22s %llu\n", "warp instructions",
              static_cast<unsigned long long>(s.warp_instructions));
  std::printf("  %-22s %llu\n", "thread instructions",
              static_cast<unsigned long long>(s.thread_instructions));
  std::printf("  %-22s %llu (%llu divergent)\n", "conditional branches",
              static_cast<unsigned long long>(s.branches),
              static_cast<unsigned long long>(s.divergent_branches));
  std::printf("  %-22s %llu (%llu earlier than the IPDOM)\n", "reconvergences",
              static_cast<unsigned long long>(s.reconvergences),
              static_cast<unsigned long long>(s.early_reconvergences));
  std::printf("  %-22s mean %.2f, max %u; peak table entries %u\n", "issuable paths",
              s.mean_issuable_paths(), s.max_issuable_paths, s.peak_entries);
  std::printf("  %-22s %.2f%% (activity factor %.2f%%)\n", "SIMD utilisation",
              100.0 * s.simd_utilisation(), 100.0 * s.activity_factor());
  const uint64_t launches = r.stats.value("launches", uint64_t(1));
  if (mode == "timing" && launches > 1)  // a session: the sum, and the last launch's
    std::printf("  %-22s %llu in %llu launches (the last %llu), IPC %.4f (whole GPU)\n", "cycles",
                static_cast<unsigned long long>(r.stats.value("busy_cycles", uint64_t(0))),
                static_cast<unsigned long long>(launches),
                static_cast<unsigned long long>(r.stats.value("cycles", uint64_t(0))),
                r.stats.value("ipc", 0.0));
  else if (mode == "timing")
    std::printf("  %-22s %llu, IPC %.4f (whole GPU)\n", "cycles",
                static_cast<unsigned long long>(r.stats.value("cycles", uint64_t(0))),
                r.stats.value("ipc", 0.0));
  std::printf("  %-22s %.3f s (%.1f M thread instructions/s)\n", "wall time", r.seconds,
              r.seconds > 0 ? s.thread_instructions / r.seconds / 1e6 : 0.0);
}

nlohmann::json run_record(const std::string& command, const std::string& mode,
                          const std::string& ptx, const std::string& source_name,
                          const std::string& entry, const LaunchSpec& launch,
                          const PlatformConfig& platform, const KernelRun& r) {
  nlohmann::json j;
  j["warptlm_version"] = version();
  j["command"] = command;
  j["mode"] = mode;
  j["kernel"] = {{"name", entry}, {"source", source_name}, {"ptx_fnv1a64", fnv1a64(ptx)}};
  j["launch"] = {{"grid", dim3_json(launch.grid)},
                 {"block", dim3_json(launch.block)},
                 {"shared_bytes", launch.shared_bytes},
                 {"cooperative", launch.cooperative}};
  j["config"] = to_json(platform);
  j["stats"] = r.stats;
  j["wall_seconds"] = r.seconds;
  return j;
}

void write_outputs(const nlohmann::json& record, const OutputPaths& paths, const KernelRun& r,
                   const Module& module) {
  write_text(paths.stats, "the run record", record.dump(2) + "\n");
  write_text(paths.stats_text, "the statistics", stats_text(record));
  write_text(paths.config, "the configuration", record["config"].dump(2) + "\n");
  if (!paths.trace.empty())
    write_text(paths.trace, "the trace", trace_csv(r.trace, record["mode"] == "timing", module));
}

}  // namespace warptlm::cli
