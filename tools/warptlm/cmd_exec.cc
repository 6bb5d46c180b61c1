// `warptlm exec FILE.ptx --kernel NAME --block X[,Y,Z] [--grid ...] [--arg ...]`:
// a user's own kernel, in either mode, with every option `run` has.
#include <iostream>

#include "commands.h"
#include "exec/kernel_args.h"
#include "exec/prepared_program.h"
#include "frontend/ptx_parser.h"
#include "npy.h"
#include "run_output.h"
#include "simt/reconvergence_unit.h"

namespace warptlm::cli {

CLI::App* add_exec(CLI::App& app, ExecCommand& c) {
  CLI::App* cmd = app.add_subcommand(
      "exec",
      "Run a kernel of a PTX file. Each --arg is FILE.npy (copied to device memory and "
      "written back in place after the run; the same file twice is one buffer), TYPE:VALUE "
      "(i32:256, u64:7, f32:1.5), or a texture or surface object over an array: "
      "texture:FILE.npy[,channels=N][,filter=point|linear][,address=MODE[/MODE[/MODE]]]"
      "[,normalized][,read=element_type|normalized_float][,border=V/V/V/V] (MODE: wrap, "
      "clamp, mirror, border) or surface:FILE.npy[,channels=N] (docs/textures.md).");
  cmd->add_option("file", c.file, "the PTX file")->required()->type_name("FILE.ptx");
  cmd->add_option("--kernel", c.kernel,
                  "the kernel entry to launch (may be left out when the file has one)")
      ->type_name("NAME");
  cmd->add_option("--block", c.block, "threads per CTA")->required()->type_name("X[,Y,Z]");
  cmd->add_option("--grid", c.grid, "CTAs in the grid")->default_val("1")->type_name("X[,Y,Z]");
  cmd->add_option("--arg", c.args, "a kernel argument, in parameter order (repeatable)")
      ->type_name("FILE.npy|TYPE:VALUE|texture:FILE.npy,...|surface:FILE.npy,...")
      ->allow_extra_args(false);
  cmd->add_option("--shared", c.shared, "dynamic shared memory per CTA")
      ->default_val(0)
      ->check(CLI::Range(uint64_t(0), uint64_t(0xffffffffu)))
      ->type_name("BYTES");
  cmd->add_flag("--cooperative", c.cooperative,
                "a cooperative launch: every CTA resident at once, grid.sync() works "
                "(docs/cooperative-launch.md)");
  cmd->add_option("--repeat", c.repeat,
                  "launch the kernel N times in one session: the arrays stay in device memory "
                  "between launches and are written back after the last; statistics count over "
                  "every launch (docs/launch-sessions.md)")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 32))
      ->type_name("N");
  add_run_options(cmd, c.run);
  return cmd;
}

namespace {

// The name of the module's one kernel, for an exec without --kernel.
std::string sole_kernel(const Module& module, const std::string& file) {
  const Function* sole = nullptr;
  size_t kernels = 0;
  for (const Function& f : module.functions)
    if (f.is_entry) sole = &f, ++kernels;
  if (kernels == 1) return sole->name;
  if (kernels == 0) throw UsageError("exec: " + file + " has no kernel (.entry)");
  throw UsageError("exec: " + file + " has " + std::to_string(kernels) + " kernels (" +
                   kernel_names_text(module) + "): name one with --kernel");
}

}  // namespace

int cmd_exec(const ExecCommand& c) {
  const PlatformConfig platform = platform_from(c.run);
  const OutputPaths paths = output_paths(c.run);
  if (c.repeat > 1 && (!paths.trace.empty() || !paths.timeline.empty() || !paths.vcd.empty() ||
                       !c.run.outdir.empty()))
    throw UsageError(
        "exec: --repeat runs a session of launches; --trace, --timeline, --vcd and --outdir "
        "describe a single launch (--stats works)");
  LaunchSpec launch;
  launch.grid = parse_dim3("--grid", c.grid);
  launch.block = parse_dim3("--block", c.block);
  launch.shared_bytes = static_cast<uint32_t>(c.shared);
  launch.cooperative = c.cooperative;
  std::vector<NpyArray> arrays;  // one per distinct file: buffer i is arrays[i]
  auto buffer_of = [&](const std::string& path) {
    size_t index = 0;
    while (index < arrays.size() && arrays[index].path != path) ++index;
    if (index == arrays.size()) {
      arrays.push_back(read_npy(path));
      launch.buffers.push_back(HostBuffer{path, arrays.back().data});
    }
    return static_cast<uint32_t>(index);
  };
  for (const std::string& a : c.args) {
    if (is_image_arg(a)) {
      std::string path;
      const ImageOptions options = parse_image_arg(a, &path);
      const uint32_t index = buffer_of(path);
      try {
        launch.images.push_back(LaunchImage{
            make_image_desc(options, arrays[index].shape, type_name(arrays[index].element)),
            index});
      } catch (const std::invalid_argument& e) {
        throw UsageError("--arg '" + a + "': " + e.what());
      }
      launch.args.push_back(KernelArg::image_arg(static_cast<uint32_t>(launch.images.size() - 1)));
    } else if (a.size() > 4 && a.compare(a.size() - 4, 4, ".npy") == 0) {
      launch.args.push_back(KernelArg::buffer_arg(buffer_of(a)));
    } else {
      launch.args.push_back(parse_scalar(a));
    }
  }

  const std::string ptx = read_ptx_file(c.file);
  const Program program = prepare_program(parse_ptx(ptx, c.file), platform.reconvergence);
  const std::string kernel = c.kernel.empty() ? sole_kernel(program.module, c.file)
                                              : resolve_kernel_name(program.module, c.kernel);
  std::cout << "warptlm exec: kernel " << kernel << " of " << c.file << ", "
            << geometry_text(launch) << ", " << platform.reconvergence << " reconvergence, "
            << c.run.mode << " mode (preset " << c.run.preset << ")\n";
  if (c.repeat > 1) std::cout << "  " << c.repeat << " launches in one session\n";
  std::cout << std::flush;
  KernelRun r = c.repeat > 1
                    ? run_kernel_repeated(program, kernel, launch, platform, c.run.mode, c.repeat)
                    : run_kernel(program, kernel, launch, platform, c.run, paths);
  if (c.repeat == 1) print_kernel_output(launch.output);
  for (size_t i = 0; i < arrays.size(); ++i) {
    arrays[i].data = launch.buffers[i].bytes;
    write_npy(arrays[i]);
  }
  print_summary(r, c.run.mode);
  if (!arrays.empty()) std::cout << "  " << arrays.size() << " array(s) written back in place\n";
  nlohmann::json record = run_record("exec", c.run.mode, ptx, c.file, kernel, launch, platform, r);
  if (c.repeat > 1) record["repeat"] = c.repeat;
  write_outputs(record, paths, r, program.module);
  return 0;
}

}  // namespace warptlm::cli
