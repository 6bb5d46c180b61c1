// One scenario run for the virtual-prototype benchmark (scripts/bench_vp.py):
// the functional executor, or the GPU in mode at or lt with a plain TLM
// memory (memory/tlm/tlm_memory.h) bound to its memory socket, as a VP binds
// one. Prints one JSON object: what ran, the warp instructions, the host
// seconds of the run (elaboration, simulation and the copies; not parsing or
// input generation) and whether the outputs passed the host reference.
//
//   warptlm_bench_vp SCENARIO SIZE functional|at|lt QUANTUM_NS DMI(0|1) [PRESET]
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "config/platform_config.h"
#include "exec/functional_executor.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"
#include "gpu/timing_run.h"
#include "scenario.h"

int main(int argc, char** argv) {
  using namespace warptlm;
  if (argc < 6) {
    std::cerr << "usage: warptlm_bench_vp SCENARIO SIZE functional|at|lt QUANTUM_NS DMI [PRESET]\n";
    return 2;
  }
  try {
    const scenarios::Scenario& s = scenarios::find(argv[1]);
    const std::string size = argv[2], mode = argv[3];
    PlatformConfig config = preset(argc > 6 ? argv[6] : "small");
    if (mode != "functional") config.coding_style = mode;
    config.lt.quantum_ns = std::stoull(argv[4]);
    config.memory.dmi = std::string(argv[5]) != "0";
    validate(config);
    const Program program = finalize(parse_ptx(scenarios::scenario_ptx(s), s.name));
    const LaunchSpec in = s.make_launch(scenarios::resolve_size(s, size), config.seed);
    LaunchSpec out = in;
    RunStats stats;
    nlohmann::json record = {{"scenario", s.name}, {"size", size}, {"mode", mode}};
    const auto start = std::chrono::steady_clock::now();
    if (mode == "functional") {
      stats = run_functional(program, s.entry, out, config.exec_config());
    } else {
      TimingOptions options;
      options.tlm_memory = true;
      const nlohmann::json gpu =
          run_timing(program, s.entry, out, config, &stats, nullptr, options);
      record["cycles"] = gpu.at("cycles");
      if (gpu.contains("lt.syncs")) record["syncs"] = gpu.at("lt.syncs");
      record["dmi_grants"] = gpu.at("memory_port.dmi_grants");
      record["blocking_accesses"] = gpu.at("memory_port.blocking_reads").get<uint64_t>() +
                                    gpu.at("memory_port.blocking_writes").get<uint64_t>();
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const scenarios::CheckResult check = s.check(in, out);
    record["quantum_ns"] = config.lt.quantum_ns;
    record["dmi"] = config.memory.dmi;
    record["warp_instructions"] = stats.warp_instructions;
    record["seconds"] = seconds;
    record["passed"] = check.passed;
    std::cout << record.dump() << "\n";
    return check.passed ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "warptlm_bench_vp: " << e.what() << "\n";
    return 2;
  }
}
