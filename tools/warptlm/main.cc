// warptlm: the command-line front door to the model.
#include <cstring>
#include <iostream>

#include "commands.h"
#include "exec/functional_executor.h"
#include "frontend/ptx_error.h"

namespace {

const char* const kUsage = R"(usage: warptlm COMMAND [options]

commands:
  analyze FILE.ptx [--markers]
      per kernel and function: basic blocks, and every branch with its PC,
      reconvergence PC (IPDOM), structured or not, and P/D taint
  exec FILE.ptx --kernel NAME --block X[,Y,Z] [--grid X[,Y,Z]] [--arg A]...
       [--shared BYTES] [--warp-size N] [--budget N] [--stats FILE.json]
      run a kernel; each --arg is FILE.npy (copied to device memory and
      written back in place after the run) or TYPE:VALUE (i32:256, u64:7, f32:1.5)
  run NAME [--size test|study|N] [--seed S] [--warp-size N] [--reconvergence S]
      [--mode functional|timing] [--preset small|fermi|volta] [--set FIELD=VALUE]...
      [--timeline FILE.json] [--vcd FILE.vcd] [--stats FILE.json]
      run a built-in scenario and check it against its host reference; timing
      mode runs the SystemC/TLM GPU (preset plus --set overrides, e.g.
      --set sm.schedulers=4 --set scheduler=gto) and reports cycles and stalls;
      --timeline writes a warp timeline for Perfetto, --vcd the GPU's top-level signals
  list
      the built-in scenarios
)";

}  // namespace

int main(int argc, char** argv) {
  using namespace warptlm::cli;
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    std::cout << kUsage;
    return argc < 2 ? 2 : 0;
  }
  std::string cmd = argv[1];
  try {
    Args args(argc, argv, 2);
    if (args.take_flag("--help")) {
      std::cout << kUsage;
      return 0;
    }
    if (cmd == "analyze") return cmd_analyze(args);
    if (cmd == "exec") return cmd_exec(args);
    if (cmd == "run") return cmd_run(args);
    if (cmd == "list") return cmd_list(args);
    throw UsageError("unknown command '" + cmd + "'");
  } catch (const UsageError& e) {
    std::cerr << "warptlm: " << e.what() << "\n\n" << kUsage;
    return 2;
  } catch (const warptlm::PtxError& e) {
    std::cerr << e.what() << "\n";
    return 1;
  } catch (const warptlm::KernelFault& e) {
    std::cerr << "warptlm: kernel fault: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "warptlm: error: " << e.what() << "\n";
    return 1;
  }
}
