// `warptlm analyze FILE.ptx`: the finalizer's view of every function.
#include <iostream>

#include "commands.h"

namespace warptlm::cli {
CLI::App* add_analyze(CLI::App& app, AnalyzeCommand& c) {
  CLI::App* cmd =
      app.add_subcommand("analyze",
                         "Per kernel and function: basic blocks, and every branch with its PC, "
                         "reconvergence PC (IPDOM), structured or not, and P/D taint.");
  cmd->add_option("file", c.file, "the PTX file")->required()->type_name("FILE.ptx");
  CLI::Option* markers =
      cmd->add_flag("--markers", c.options.markers,
                    "insert the explicit reconvergence markers (as ppc_explicit runs do)");
  cmd->add_flag("--lowered", c.options.lowered,
                "analyze the program as exec_mask runs it (lowered to exec masks: flow blocks "
                "and emask.* instructions) and list its code, * marking what the lowering wrote")
      ->excludes(markers);
  cmd->add_flag("--reconverging", c.options.reconverging,
                "also print each function's reconverging CFG (compiler-side reconvergence: the "
                "flow blocks inserted and where they send each lane)");
  cmd->add_flag("--reconverging-dot", c.options.reconverging_dot,
                "print each function's reconverging CFG as a Graphviz digraph instead");
  return cmd;
}

int cmd_analyze(const AnalyzeCommand& c) {
  std::cout << analyze_text(c.file, c.options);
  return 0;
}

}  // namespace warptlm::cli
