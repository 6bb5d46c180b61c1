#include "ptx_fuzz.h"

#include <stdexcept>
#include <string>

#include "exec/functional_executor.h"
#include "exec/prepared_program.h"
#include "frontend/ptx_error.h"
#include "frontend/ptx_parser.h"
#include "reconverge/reconverging_cfg.h"
#include "simt/reconvergence_unit.h"

namespace warptlm::fuzz {
namespace {

// Small launches, so one input takes milliseconds: 2 CTAs of 40 threads
// (two warps, the second partial), short limits on runaway loops.
constexpr uint64_t kBudget = 20000;
constexpr uint64_t kWatchdog = 2000;
// Module .global variables beyond this are not executed (device memory would
// be allocated for real; the capacity check itself is tested elsewhere).
constexpr uint64_t kMaxGlobalBytes = 1 << 20;

LaunchSpec launch_for(const Module& module, const Function& kernel) {
  LaunchSpec l;
  l.grid = {2, 1, 1};
  l.block = {40, 1, 1};
  for (uint32_t p : kernel.params) {
    const Symbol& s = module.symbols[p];
    if (s.size == 8 && !is_float(s.type)) {  // a pointer, or a 64-bit integer: a buffer
      l.args.push_back(KernelArg::buffer_arg(static_cast<uint32_t>(l.buffers.size())));
      l.buffers.push_back(HostBuffer{s.name, std::vector<uint8_t>(1024, 0)});
    } else if (s.size == 1 || s.size == 2 || s.size == 4 || s.size == 8) {
      // The parameter's own type: 16 as an integer, 2.0 as a float.
      l.args.push_back(KernelArg::scalar(s.type, s.type == Type::F32   ? 0x40000000u
                                                 : s.type == Type::F64 ? 0x4000000000000000ull
                                                                       : 16));
    } else {
      l.args.push_back(KernelArg::scalar(Type::U32, 16));  // refused by check_launch
    }
  }
  return l;
}

}  // namespace

void fuzz_ptx(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Module module;
  try {
    module = parse_ptx(text, "fuzz.ptx");
  } catch (const PtxError&) {
    return;
  }
  // One scheme per input, chosen by its size: every scheme meets every kind
  // of input over a run.
  const std::vector<std::string> schemes = reconvergence_names();
  const std::string scheme = schemes[size % schemes.size()];
  Program program;
  try {
    program = prepare_program(std::move(module), scheme);
  } catch (const PtxError&) {
    return;
  } catch (const CfgError&) {  // a function the exec-mask lowering cannot handle, named
    return;
  }
  if (program.module.global_data_size > kMaxGlobalBytes) return;
  ExecConfig config;
  config.reconvergence = scheme;
  config.instruction_budget = kBudget;
  config.watchdog = kWatchdog;
  for (const Function& f : program.module.functions) {
    if (!f.is_entry) continue;
    LaunchSpec launch = launch_for(program.module, f);
    try {
      run_functional(program, f.name, launch, config);
    } catch (const KernelFault&) {
    } catch (const std::invalid_argument&) {
    }
  }
}

}  // namespace warptlm::fuzz
