// The timing-run entry point, the cycle-level twin of run_functional: builds
// a standalone platform (host driver, Gpu, its default DRAM), runs one launch
// and returns the GPU's statistics.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/platform_config.h"
#include "exec/launch.h"
#include "exec/run_stats.h"
#include "exec/trace.h"
#include "frontend/program.h"
#include "memory/tlm/tlm_memory.h"

namespace warptlm {

class Gpu;
class HostDriver;

struct TimingOptions {
  // A VCD of top-level activity (irq, STATUS, launch running, resident CTAs
  // per SM) when not empty. sc_trace names the file: a missing ".vcd" is added.
  std::string vcd_path;
  // A warp timeline in Chrome trace-event JSON (Perfetto) when not empty: one
  // track per warp, a slice per issued instruction.
  std::string timeline_path;
  uint64_t timeline_max_events = 5'000'000;  // beyond: dropped and counted in the file
  // Bind a plain TLM memory (memory/tlm/tlm_memory.h) to the GPU's memory
  // socket instead of its DRAM model: the buffers, the parameters and the
  // module's .global variables live there, and the GPU is a bus master of
  // someone else's memory (DMI as memory.dmi allows). Its size 0: just big
  // enough. Plain RAM: a buffer overrun that stays inside it is no fault.
  bool tlm_memory = false;
  TlmMemoryParams tlm_memory_params = [] {
    TlmMemoryParams p;
    p.base = uint64_t(1) << 32;  // not at 0, so a null pointer still faults
    return p;
  }();
};

// Builds the platform, loads `program`, copies launch.buffers into device
// memory, writes the parameter buffer, programs the registers through the
// control socket from the host's SC_THREAD, rings the doorbell, waits for the
// interrupt, acknowledges it and reads the buffers back into launch.buffers.
// Returns Gpu::stats() and fills `stats` (Gpu::run_stats(): the SMs' counts
// as run_functional reports them) for comparison with run_functional. Throws std::invalid_argument
// for a bad launch (the messages of run_functional; also a CTA that never fits an SM), KernelFault
// for a fault in the kernel, std::logic_error when SystemC has already simulated in this process:
// SystemC elaborates once per process, so call it once per process (tests fork; Python forks per
// run).
nlohmann::json run_timing(const Program& program, const std::string& entry, LaunchSpec& launch,
                          const PlatformConfig& config, RunStats* stats = nullptr,
                          TraceSink* trace = nullptr, const TimingOptions& options = {});

// Shared by run_timing and TimingSession. The kernel `entry` names, after
// check_launch (`buffer_sizes` as it takes them) and the check that its entry
// PC fits the KERNEL register; std::invalid_argument otherwise.
const Function& check_timing_launch(const Module& module, const std::string& entry,
                                    const LaunchSpec& launch, unsigned warp_size,
                                    const std::vector<uint64_t>* buffer_sizes = nullptr);
// Silences the SystemC reports a run
// does not want on stdout (sc_stop's, the VCD timescale's, and the GPU's own
// warnings, which the caller's exception repeats).
void silence_run_reports(const Gpu& gpu);
// After the simulation stopped or paused: nothing when the launch ended
// done; otherwise throws what run_timing documents (std::invalid_argument
// for a refused launch, KernelFault with the printf output so far,
// std::runtime_error for a bus error or an interrupt that never came).
void check_launch_outcome(const Gpu& gpu, const HostDriver& host);

}  // namespace warptlm
