#include "gpu/lt_runner.h"

#include "exec/grid_runner.h"

namespace warptlm {

nlohmann::json LtStats::to_json() const {
  return {{"launches", launches},
          {"syncs", syncs},
          {"issue_cycles", issue_cycles},
          {"memory_cycles", memory_cycles},
          {"abandoned", abandoned}};
}

const std::vector<StatInfo>& LtStats::infos() {
  static const std::vector<StatInfo> infos = {
      {"launches", "launches", "launches the loosely-timed runner started"},
      {"syncs", "synchronisations", "quantum keeper synchronisations with SystemC time"},
      {"issue_cycles", "cycles", "core cycles charged for instruction issue (peak rate)"},
      {"memory_cycles", "cycles",
       "core cycles charged for memory latency annotated by b_transport"},
      {"abandoned", "launches", "launches a reset stopped"},
  };
  return infos;
}

sc_core::sc_time LtRunner::QuantumKeeper::compute_local_quantum() {
  if (quantum_ == sc_core::SC_ZERO_TIME) return sc_core::SC_ZERO_TIME;
  // Up to the next multiple of the quantum, as tlm_global_quantum computes it.
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const uint64_t q = quantum_.value();
  return sc_core::sc_time::from_value(q - now.value() % q);
}

LtRunner::LtRunner(sc_core::sc_module_name name, const PlatformConfig& config,
                   sc_core::sc_time cycle, BoundMemory* bound)
    : sc_module(name),
      config_(config),
      exec_(config.exec_config()),
      cycle_(cycle),
      issue_width_(config.num_sms * config.sm.schedulers),
      overlap_(config.num_sms * config.sm.schedulers * config.warp_size),
      bound_(bound),
      keeper_(sc_core::sc_time(double(config.lt.quantum_ns), sc_core::SC_NS)) {
  SC_HAS_PROCESS(LtRunner);
  SC_THREAD(run);
}

void LtRunner::start(const KernelLaunch& launch) {
  pending_ = &launch;
  ++generation_;
  running_ = true;
  fault_.reset();
  start_.notify(sc_core::SC_ZERO_TIME);
}

void LtRunner::abandon() {
  if (!running_) return;
  ++generation_;
  running_ = false;
  pending_ = nullptr;
  ++stats_.abandoned;
}

void LtRunner::run() {
  for (;;) {
    while (!pending_) sc_core::wait(start_);
    const KernelLaunch& launch = *pending_;
    pending_ = nullptr;
    const uint64_t generation = generation_;
    try {
      execute(launch, generation);
    } catch (const Abandoned&) {
      continue;  // reset: no end, no interrupt
    }
    if (generation != generation_) continue;  // reset during the final synchronisation
    running_ = false;
    finished_.notify(sc_core::SC_ZERO_TIME);
  }
}

void LtRunner::execute(const KernelLaunch& launch, uint64_t generation) {
  ++stats_.launches;
  keeper_.reset();
  charged_issue_cycles_ = 0;
  memory_latency_ = 0;
  if (bound_) bound_->take_latency();  // the doorbell's reads are not the kernel's
  ExecConfig exec = exec_;
  exec.instruction_budget = launch.instruction_budget;
  GridRunner grid(
      *launch.program, *launch.kernel, *launch.memory,
      GridShape{launch.grid, launch.block, launch.dynamic_shared, launch.grid_workspace}, exec,
      trace_, nullptr);
  grid.set_turn_hook([&](const RunStats& so_far) { charge(so_far, generation); });
  try {
    if (launch.grid_workspace) {
      grid.run_all_resident();  // a cooperative launch: every CTA at once
    } else {
      for (uint64_t i = 0, n = grid.ctas(); i < n; ++i) grid.run_cta(i);
    }
  } catch (const KernelFault& f) {
    if (generation == generation_) fault_ = f;
  } catch (const Abandoned&) {
    run_.add(grid.stats());
    throw;
  }
  run_.add(grid.stats());
  if (generation != generation_) throw Abandoned{};
  charge(grid.stats(), generation);
  // The end of the launch is where the GPU raises its interrupt: SystemC time
  // catches up with the kernel's.
  keeper_.sync();
  ++stats_.syncs;
}

void LtRunner::charge(const RunStats& so_far, uint64_t generation) {
  if (generation != generation_) throw Abandoned{};
  // Whole cycles of issue at the peak rate since the last charge, and whole
  // cycles of memory latency spread over the accesses the GPU overlaps
  // (integer arithmetic: the same run gives the same times).
  const uint64_t issue = so_far.warp_instructions / issue_width_ - charged_issue_cycles_;
  charged_issue_cycles_ += issue;
  stats_.issue_cycles += issue;
  uint64_t cycles = issue;
  if (bound_) {
    memory_latency_ += bound_->take_latency().value();
    const uint64_t per_cycle = uint64_t(overlap_) * cycle_.value();
    const uint64_t memory = memory_latency_ / per_cycle;
    memory_latency_ -= memory * per_cycle;
    stats_.memory_cycles += memory;
    cycles += memory;
  }
  keeper_.inc(sc_core::sc_time::from_value(cycles * cycle_.value()));
  if (keeper_.need_sync()) {
    keeper_.sync();
    ++stats_.syncs;
    if (generation != generation_) throw Abandoned{};
  }
}

}  // namespace warptlm
