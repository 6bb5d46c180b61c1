#include "exec/grid_runner.h"

#include "exec/warp_environment.h"

namespace warptlm {

GridRunner::GridRunner(const Program& program, const Function& kernel, KernelMemory& memory,
                       const GridShape& shape, const ExecConfig& config, TraceSink* trace,
                       CompactionAnalysis* analysis)
    : layouts_(program.module, config.warp_size),
      issuer_(program, kernel, memory, layouts_, config.reconvergence,
              launch_budget(config.instruction_budget, shape.grid, shape.block, config.warp_size),
              config.watchdog, config.options),
      module_(program.module),
      mem_(memory),
      shape_(shape),
      config_(config),
      trace_(trace) {
  stats_.warp_size = config.warp_size;
  stats_.simd_width = config.simd_width;
  // Compaction and the analysis run each CTA in lockstep; one unit for the
  // run (CAPRI: one table).
  unit_ = make_compaction_unit(config.compaction, config.compaction_setup());
  if (unit_ || analysis)
    lockstep_ = std::make_unique<CompactingCtaRunner>(issuer_, memory, config, unit_.get(), trace,
                                                      analysis);
}

RunStats GridRunner::run() {
  for (uint64_t i = 0, n = ctas(); i < n; ++i) run_cta(i);
  return stats_;
}

void GridRunner::step(Warp& w) {
  paths_.clear();
  w.simt->issuable(paths_);
  // The functional executor issues the scheme's first issuable path: a scheme
  // lists its paths in the order it prefers them (the timing model's
  // schedulers may pick others).
  const Path p = paths_.front();
  if (p.mask & w.barrier_lanes) {
    w.at_barrier = true;  // released when the barrier completes
    return;
  }
  FunctionalWarpEnvironment env(module_, mem_, cta_);
  env.bind(&w);
  stats_.note_issuable(paths_.size());
  IssueResult r = issuer_.issue(w, p, cta_, env, stats_);
  if (trace_)
    trace_->issued(
        TraceRecord{stats_.warp_instructions - 1, 0, warp_base_ + w.index, p.split, p.pc, p.mask});
  if (r.outcome.control == Control::Barrier && r.outcome.executed)
    barriers_.arrive(w, r.outcome, p.pc, warp_ptrs_, shape_.block.count(), issuer_, cta_);
}

void GridRunner::run_cta(uint64_t linear) {
  const unsigned ws = config_.warp_size;
  const Dim3& b = shape_.block;
  const Dim3& g = shape_.grid;
  const uint64_t threads = b.count();
  const Dim3 ctaid{static_cast<uint32_t>(linear % g.x), static_cast<uint32_t>(linear / g.x % g.y),
                   static_cast<uint32_t>(linear / (uint64_t(g.x) * g.y))};
  cta_.ctaid = ctaid;
  cta_.ntid = b;
  cta_.nctaid = g;
  cta_.warps = static_cast<unsigned>((threads + ws - 1) / ws);
  warp_base_ = static_cast<uint32_t>(linear * cta_.warps);
  cta_.shared.assign(module_.shared_static_size + shape_.shared_bytes, 0);
  barriers_.reset();
  warps_.resize(cta_.warps);  // start_warp() reinitialises a warp of the last CTA
  warp_ptrs_.clear();
  for (unsigned wi = 0; wi < cta_.warps; ++wi) {
    issuer_.start_warp(warps_[wi], wi, b);
    warp_ptrs_.push_back(&warps_[wi]);
  }
  ++stats_.ctas;
  stats_.warps += cta_.warps;
  if (lockstep_) {
    lockstep_->run(warps_, cta_, warp_base_, stats_);
    if (hook_) hook_(stats_);
    return;
  }

  for (;;) {
    bool progress = false, all_done = true;
    for (Warp& w : warps_) {
      if (w.finished()) continue;
      all_done = false;
      for (unsigned q = 0; q < config_.quantum && !w.at_barrier && !w.finished(); ++q) {
        step(w);
        progress = true;
      }
      if (hook_) hook_(stats_);
    }
    if (all_done) {
      for (Warp& w : warps_) WarpIssuer::add_counters(w, stats_);
      return;
    }
    // Every live warp waits at a barrier that cannot complete.
    if (!progress) CtaBarriers::deadlock(warp_ptrs_, threads, issuer_, cta_);
  }
}

}  // namespace warptlm
