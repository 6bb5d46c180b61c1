// SmCore's bookkeeping of warps and CTAs outside the cycle's hot path: a
// warp leaving its scheduler, a CTA retiring, the launch budget's fault, the
// barrier deadlock check, and (debug builds) the check of the issue stage's
// quiet-slot masks.
#include <algorithm>
#include <cassert>
#include <stdexcept>

#include "sm/compaction_issue.h"
#include "sm/sm_core.h"

namespace warptlm {

void SmCore::budget_fault(const Warp& w, const CtaSlot& cta, const Path& p) {
  // The issuer checks this SM's count; the budget is the whole launch's.
  budget_view_.warp_instructions = launch_->issued;
  issuer_->check_budget(w, cta.context, p.pc, p.mask, budget_view_);
  throw std::logic_error("budget_fault: the launch's count is within its budget");
}

void SmCore::finish_warp(unsigned slot) {
  WarpSlot& ws = warps_[slot];
  gates_[slot].finished = true;
  gate_changed(slot);
  WarpIssuer::add_counters(ws.warp, run_);
  const unsigned s = static_cast<unsigned>(schedulers_.size());
  schedulers_[slot % s]->warp_finished(slot / s);
  sched_[slot % s].stale = true;
  if (rotation_) sched_[slot % s].live &= ~(uint64_t(1) << (slot / s));
  --ctas_[ws.cta].live;
  --resident_warps_;
}

void SmCore::maybe_retire(unsigned c, TickResult& result) {
  CtaSlot& cta = ctas_[c];
  if (!cta.used || cta.live) return;
  for (unsigned slot : cta.warp_slots) {
    gates_[slot].used = false;
    gate_changed(slot);
  }
  cta.used = false;
  cta.env.reset();
  --resident_ctas_;
  result.retired.push_back(cta.linear);
}

void SmCore::check_deadlock() {
  // Nothing in flight and nothing can issue: a CTA whose live warps all wait
  // at barriers can never go on.
  for (unsigned c = 0; c < ctas_.size(); ++c) {
    const CtaSlot& cta = ctas_[c];
    if (!cta.used) continue;
    // Under compaction the block stack detects barrier deadlocks itself,
    // except among warps that run a CAPRI bypass on their own.
    if (compacting_)
      compaction_->check_stalled(c, std::any_of(cta.warps.begin(), cta.warps.end(),
                                                [](const Warp* w) { return w->at_barrier; }));
    CtaBarriers::deadlock(cta.warps, launch_->block.count(), *issuer_, cta.context);
  }
}

#ifndef NDEBUG
// Debug builds check the idle and held masks against the gates every cycle,
// and that a held slot would answer at once (gate_changed()'s argument).
void SmCore::check_quiet_masks(uint64_t now) const {
  for (unsigned slot = 0; slot < gates_.size(); ++slot) {
    const SlotGate& g = gates_[slot];
    const SchedulerState& st = sched_[g.scheduler];
    const uint64_t bit = g.bit();
    if (!bit) continue;  // past the masks
    const bool idle = !g.used || g.finished || g.done;
    const bool held = !idle && g.blocked != Stall::Issued;
    assert(!(st.idle & bit) == !idle);
    assert(!(st.held & bit) == !held);
    assert(compacting_ || !held ||
           (!g.at_barrier && g.sleep_until <= now && g.control_ready <= now));
    (void)idle, (void)held, (void)bit, (void)st, (void)now;
  }
}
#endif

}  // namespace warptlm
