#include "exec/grid_runner.h"

#include <stdexcept>

#include "exec/launch.h"
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

unsigned GridRunner::step(ResidentCta& c, Warp& w, unsigned max) {
  paths_.clear();
  w.simt->issuable(paths_);
  // The functional executor issues the scheme's first issuable path: a scheme
  // lists its paths in the order it prefers them (the timing model's
  // schedulers may pick others).
  const Path p = paths_.front();
  if (p.mask & w.barrier_lanes) {
    w.at_barrier = true;  // released when the barrier completes
    return 1;
  }
  FunctionalWarpEnvironment env(module_, mem_, c.context);
  env.bind(&w);
  // A straight run issues what the scheme lets the path run through by
  // itself without asking the scheme at every instruction; the trace records
  // every issue, so it goes one at a time.
  Pc stop = 0;
  if (!trace_ && w.simt->straight_run(p.split, &stop)) {
    Pc at = p.pc;
    const unsigned n =
        issuer_.issue_straight(w, p, stop, max, paths_.size(), c.context, env, stats_, &at);
    if (n) {
      w.simt->move_straight(p.split, at);
      w.counters_pending = true;
      return n;
    }
  }
  stats_.note_issuable(paths_.size());
  IssueResult r = issuer_.issue(w, p, c.context, env, stats_);
  if (trace_)
    trace_->issued(
        TraceRecord{stats_.warp_instructions - 1, 0, c.warp_base + w.index, p.split, p.pc, p.mask});
  if (r.outcome.control == Control::Barrier && r.outcome.executed)
    c.barriers.arrive(w, r.outcome, p.pc, c.warp_ptrs, shape_.block.count(), issuer_, c.context);
  return 1;
}

void GridRunner::start_cta(ResidentCta& c, uint64_t linear) {
  const unsigned ws = config_.warp_size;
  const Dim3& b = shape_.block;
  const Dim3& g = shape_.grid;
  const uint64_t threads = b.count();
  const Dim3 ctaid{static_cast<uint32_t>(linear % g.x), static_cast<uint32_t>(linear / g.x % g.y),
                   static_cast<uint32_t>(linear / (uint64_t(g.x) * g.y))};
  c.context.ctaid = ctaid;
  c.context.ntid = b;
  c.context.nctaid = g;
  c.context.warps = static_cast<unsigned>((threads + ws - 1) / ws);
  c.context.grid_workspace = shape_.grid_workspace;
  c.warp_base = static_cast<uint32_t>(linear * c.context.warps);
  c.context.shared.assign(module_.shared_static_size + shape_.shared_bytes, 0);
  c.barriers.reset();
  c.done = false;
  c.warps.resize(c.context.warps);  // start_warp() reinitialises a warp of the last CTA
  c.warp_ptrs.clear();
  for (unsigned wi = 0; wi < c.context.warps; ++wi) {
    issuer_.start_warp(c.warps[wi], wi, b);
    c.warp_ptrs.push_back(&c.warps[wi]);
  }
  ++stats_.ctas;
  stats_.warps += c.context.warps;
}

bool GridRunner::round(ResidentCta& c) {
  bool progress = false, all_done = true;
  for (Warp& w : c.warps) {
    if (w.finished()) continue;
    all_done = false;
    for (unsigned q = 0; q < config_.quantum && !w.at_barrier && !w.finished();) {
      q += step(c, w, config_.quantum - q);
      progress = true;
    }
    if (hook_) hook_(stats_);
  }
  if (all_done) {
    c.done = true;
    for (Warp& w : c.warps) WarpIssuer::add_counters(w, stats_);
  }
  return progress;
}

void GridRunner::run_cta(uint64_t linear) {
  ctas_.resize(1);
  ResidentCta& c = ctas_[0];
  start_cta(c, linear);
  if (lockstep_) {
    lockstep_->run(c.warps, c.context, c.warp_base, stats_);
    if (hook_) hook_(stats_);
    return;
  }
  for (;;) {
    const bool progress = round(c);
    if (c.done) return;
    // Every live warp waits at a barrier that cannot complete.
    if (!progress) CtaBarriers::deadlock(c.warp_ptrs, shape_.block.count(), issuer_, c.context);
  }
}

RunStats GridRunner::run_all_resident() {
  if (lockstep_) throw std::invalid_argument(kCooperativeCompaction);
  ctas_.clear();
  ctas_.resize(ctas());
  for (uint64_t i = 0; i < ctas_.size(); ++i) start_cta(ctas_[i], i);
  for (size_t live = ctas_.size(); live > 0;) {
    bool progress = false;
    for (ResidentCta& c : ctas_) {
      if (c.done) continue;
      progress |= round(c);
      if (c.done) --live;
    }
    // Every live warp of every CTA waits at a barrier: the first such CTA's
    // deadlock is reported (a warp spinning on grid.sync() issues, so it is
    // the watchdog or the budget that stops a grid that cannot meet).
    if (!progress && live > 0)
      for (ResidentCta& c : ctas_)
        if (!c.done) CtaBarriers::deadlock(c.warp_ptrs, shape_.block.count(), issuer_, c.context);
  }
  return stats_;
}

}  // namespace warptlm
