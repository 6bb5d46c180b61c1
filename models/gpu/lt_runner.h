// The loosely-timed GPU (coding style "lt"): a launch runs functionally, exactly as
// the functional executor runs it (GridRunner, CTA by CTA in linear order),
// from this module's thread, ahead of SystemC time. Its local time grows by
// the GPU's peak issue rate (one warp instruction per scheduler per SM per
// core cycle) and by the delays memory annotates on b_transport (divided by
// the accesses a GPU overlaps); a quantum keeper with the GPU's own quantum
// (lt.quantum_ns) synchronises with SystemC at quantum boundaries and at the
// launch's end, when the GPU raises its interrupt. docs/lt-mode.md.
#pragma once

// clang-format off
#include <systemc>  // tlm_quantumkeeper.h needs it and does not include it
#include <tlm_utils/tlm_quantumkeeper.h>
// clang-format on

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <systemc>
#include <tlm>
#include <vector>

#include "config/platform_config.h"
#include "exec/functional_executor.h"
#include "exec/run_stats.h"
#include "gpu/bound_memory.h"
#include "sm/kernel_launch.h"
#include "stats/stat_info.h"

namespace warptlm {

class TraceSink;

struct LtStats {
  uint64_t launches = 0;
  uint64_t syncs = 0;          // quantum keeper synchronisations
  uint64_t issue_cycles = 0;   // core cycles charged for issue
  uint64_t memory_cycles = 0;  // core cycles charged for memory latency
  uint64_t abandoned = 0;      // launches a reset stopped
  nlohmann::json to_json() const;
  static const std::vector<StatInfo>& infos();
};

class LtRunner : public sc_core::sc_module {
 public:
  // `bound`: the bound memory whose b_transport latency counts (null with the
  // default DRAM, whose store is reached directly).
  LtRunner(sc_core::sc_module_name name, const PlatformConfig& config, sc_core::sc_time cycle,
           BoundMemory* bound);

  // Runs `launch` (which must outlive it) from the runner's thread; the
  // launch's memory is its KernelMemory. finished_event() at its end.
  void start(const KernelLaunch& launch);
  // The GPU's reset: a running launch stops at its next warp turn (or when
  // the memory access it waits in returns), without finishing.
  void abandon();
  bool running() const { return running_; }
  const sc_core::sc_event& finished_event() const { return finished_; }
  const std::optional<KernelFault>& fault() const { return fault_; }
  void set_trace(TraceSink* trace) { trace_ = trace; }
  // Every launch's counts so far.
  const RunStats& run_stats() const { return run_; }
  const LtStats& stats() const { return stats_; }

 private:
  // The GPU's own quantum instead of tlm_global_quantum: GPUs in one
  // platform may differ, and nothing global changes.
  class QuantumKeeper : public tlm_utils::tlm_quantumkeeper {
   public:
    explicit QuantumKeeper(sc_core::sc_time quantum) : quantum_(quantum) {}

   protected:
    sc_core::sc_time compute_local_quantum() override;

   private:
    sc_core::sc_time quantum_;
  };
  struct Abandoned {};

  void run();  // the thread
  void execute(const KernelLaunch& launch, uint64_t generation);
  void charge(const RunStats& so_far, uint64_t generation);

  PlatformConfig config_;
  ExecConfig exec_;
  sc_core::sc_time cycle_;
  unsigned issue_width_;  // warp instructions per core cycle, whole GPU
  unsigned overlap_;      // memory accesses in flight at once, whole GPU
  BoundMemory* bound_;
  TraceSink* trace_ = nullptr;
  QuantumKeeper keeper_;
  const KernelLaunch* pending_ = nullptr;  // started, not yet picked up by the thread
  uint64_t generation_ = 0;                // bumped by start() and abandon()
  bool running_ = false;
  uint64_t charged_issue_cycles_ = 0;  // of the current launch, already in local time
  uint64_t memory_latency_ = 0;        // annotated latency not yet charged (time units)
  std::optional<KernelFault> fault_;
  RunStats run_;
  LtStats stats_;
  sc_core::sc_event start_, finished_;
};

}  // namespace warptlm
