// SmCore's launch and CTA set-up: a launch's issuer, operand table and
// counters, and a dispatched CTA's context, environment and warp slots.
#include <algorithm>
#include <stdexcept>

#include "sm/compaction_issue.h"
#include "sm/sm_core.h"

namespace warptlm {

void SmCore::set_launch(const KernelLaunch& launch) {
  // Checked before anything changes: a refused launch leaves the SM as it was.
  if (launch.layouts.warp_size != warp_size_)
    throw std::invalid_argument(
        "SM " + std::to_string(id_) + ": the launch's register layouts are for warp size " +
        std::to_string(launch.layouts.warp_size) + ", the SM's is " + std::to_string(warp_size_));
  if (launch.layouts.functions.size() != launch.program->module.functions.size())
    throw std::invalid_argument(
        "SM " + std::to_string(id_) + ": the launch's register layouts cover " +
        std::to_string(launch.layouts.functions.size()) + " functions, the program has " +
        std::to_string(launch.program->module.functions.size()));
  // A GPU reuses one KernelLaunch for all its launches: compare the program itself.
  if (operands_program_ != launch.program) {
    if (launch.operands_program != launch.program) {
      launch.operands = std::make_shared<const OperandTable>(launch.program->module);
      launch.operands_program = launch.program;
    }
    shared_operands_ = launch.operands;
    operands_ = shared_operands_.get();
    operands_program_ = launch.program;
  }
  launch_ = &launch;
  launch_id_ = launch.id;
  earlier_runs_.add(run_);
  run_ = RunStats{};
  exec_config_ = config_.exec_config();
  compacting_ = exec_config_.compaction != "none";
  if (compacting_ && !compaction_) start_compaction();
  issuer_ = std::make_unique<WarpIssuer>(
      *launch.program, *launch.kernel, *launch.memory, launch.layouts, config_.reconvergence,
      launch.instruction_budget, exec_config_.watchdog, exec_config_.options);
  run_.warp_size = warp_size_;
  run_.simd_width = config_.simd_width;
}

RunStats SmCore::run_stats() const {
  RunStats total = earlier_runs_;
  total.add(run_);
  return total;
}

void SmCore::start_cta(const KernelLaunch& launch, const Dim3& ctaid, uint64_t linear,
                       uint64_t now) {
  if (launch_ != &launch || launch_id_ != launch.id) set_launch(launch);
  const unsigned nwarps = launch.per_cta.warps;
  auto cta_it = std::find_if(ctas_.begin(), ctas_.end(), [](const CtaSlot& c) { return !c.used; });
  if (cta_it == ctas_.end() || resident_warps_ + nwarps > max_warps_)
    throw std::logic_error("SM " + std::to_string(id_) +
                           ": the distributor dispatched a CTA that does not fit");
  if (resident_ctas_ == 0) accounted_until_ = now;  // idle time is not the SM's
  CtaSlot& cta = *cta_it;
  cta.used = true;
  cta.linear = linear;
  cta.launch = &launch;
  cta.context.ctaid = ctaid;
  cta.context.ntid = launch.block;
  cta.context.nctaid = launch.grid;
  cta.context.warps = nwarps;
  cta.context.grid_workspace = launch.grid_workspace;
  cta.context.shared.assign(launch.program->module.shared_static_size + launch.dynamic_shared, 0);
  cta.barriers.reset();
  cta.env =
      std::make_unique<RecordingEnvironment>(launch.program->module, *launch.memory, cta.context);
  cta.env->sm = id_;
  cta.env->num_sms = config_.num_sms;
  cta.env->writes = launch.global_writes;
  cta.env->ns_per_cycle = 1000.0 / config_.sm.clock_mhz;
  cta.warp_slots.clear();
  cta.warps.clear();
  cta.live = nwarps;
  const unsigned s = static_cast<unsigned>(schedulers_.size());
  const unsigned regs = static_cast<unsigned>(launch.kernel->regs.size());
  for (unsigned slot = 0, i = 0; slot < warps_.size() && i < nwarps; ++slot) {
    WarpSlot& ws = warps_[slot];
    SlotGate& g = gates_[slot];
    if (g.used) continue;
    g.used = true;
    g.finished = false;
    ws.cta = static_cast<unsigned>(cta_it - ctas_.begin());
    ws.global_id = static_cast<uint32_t>(linear * nwarps + i);
    ws.age = next_age_++;
    ws.fetch_pc = kExitPc;
    ws.fetch_ready = 0;
    ws.outstanding = ws.writebacks = 0;
    g.control_ready = 0;
    g.blocked = Stall::Issued;
    ws.paths_valid = false;
    issuer_->start_warp(ws.warp, i, launch.block);
    ws.warp.simt->set_table_timing({config_.sm.cct_access_cycles, config_.sm.rt_access_cycles});
    ws.scoreboard.reset(regs);
    sync_barrier_gate(slot);
    g.done = ws.warp.finished();
    may_finish_ |= g.done;
    gate_changed(slot);
    schedulers_[slot % s]->warp_started(slot / s, ws.age);
    sched_[slot % s].stale = true;
    if (rotation_) sched_[slot % s].live |= uint64_t(1) << (slot / s);
    cta.warp_slots.push_back(slot);
    cta.warps.push_back(&ws.warp);
    ++i;
  }
  if (compacting_) compaction_->start_cta(static_cast<unsigned>(cta_it - ctas_.begin()));
  ++resident_ctas_;
  resident_warps_ += nwarps;
  ++run_.ctas;
  run_.warps += nwarps;
  ++stats_.ctas;
  stats_.warps += nwarps;
}

}  // namespace warptlm
