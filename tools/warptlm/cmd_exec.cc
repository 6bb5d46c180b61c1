// `warptlm exec FILE.ptx --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] --arg ...`
#include <chrono>
#include <iostream>

#include "commands.h"
#include "exec/functional_executor.h"
#include "frontend/ptx_parser.h"
#include "npy.h"
#include "simt/reconvergence_unit.h"

namespace warptlm::cli {

// Reads the options every run shares into `config`.
void take_exec_config(Args& args, ExecConfig* config) {
  std::string v;
  if (args.take("--warp-size", &v))
    config->warp_size = static_cast<unsigned>(parse_uint("--warp-size", v, 64));
  if (args.take("--budget", &v)) config->instruction_budget = parse_uint("--budget", v, ~0ull);
  if (args.take("--reconvergence", &v)) config->reconvergence = v;
  config->validate();
}

int cmd_exec(Args& args) {
  std::string kernel, grid = "1", block, stats_path, shared = "0";
  if (!args.take("--kernel", &kernel)) throw UsageError("exec needs --kernel NAME");
  if (!args.take("--block", &block)) throw UsageError("exec needs --block X[,Y,Z]");
  args.take("--grid", &grid);
  args.take("--stats", &stats_path);
  args.take("--shared", &shared);
  std::vector<std::string> arg_texts = args.take_all("--arg");
  ExecConfig config;
  take_exec_config(args, &config);
  args.finish();
  auto files = args.positionals();
  if (files.size() != 1) throw UsageError("exec takes exactly one FILE.ptx");

  LaunchSpec launch;
  launch.grid = parse_dim3("--grid", grid);
  launch.block = parse_dim3("--block", block);
  launch.shared_bytes = static_cast<uint32_t>(parse_uint("--shared", shared, 0xffffffffu));
  std::vector<NpyArray> arrays;
  for (const std::string& a : arg_texts) {
    if (a.size() > 4 && a.compare(a.size() - 4, 4, ".npy") == 0) {
      arrays.push_back(read_npy(a));
      launch.buffers.push_back(HostBuffer{a, arrays.back().data});
      launch.args.push_back(
          KernelArg::buffer_arg(static_cast<uint32_t>(launch.buffers.size() - 1)));
    } else {
      launch.args.push_back(parse_scalar(a));
    }
  }

  FinalizeOptions fin;
  fin.insert_reconvergence_markers = reconvergence_needs_markers(config.reconvergence);
  Program program = finalize(parse_ptx_file(files[0]), fin);
  auto t0 = std::chrono::steady_clock::now();
  RunStats stats = run_functional(program, kernel, launch, config);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (size_t i = 0; i < arrays.size(); ++i) {
    arrays[i].data = launch.buffers[i].bytes;
    write_npy(arrays[i]);
  }
  std::cout << "warptlm exec: kernel " << kernel << " of " << files[0] << ", grid ("
            << launch.grid.x << "," << launch.grid.y << "," << launch.grid.z << ") x block ("
            << launch.block.x << "," << launch.block.y << "," << launch.block.z << ")\n";
  print_stats(stats, seconds);
  if (!arrays.empty()) std::cout << "  " << arrays.size() << " array(s) written back in place\n";
  nlohmann::json j = stats.to_json();
  j["kernel"] = kernel;
  j["wall_seconds"] = seconds;
  write_stats(stats_path, j);
  return 0;
}

}  // namespace warptlm::cli
