// SmCore as the compaction part's host (CompactionHost): a formed warp's
// slot gate, fetch, issue accounting and register writebacks, in the SM's
// own structures.
#include "sm/compaction_issue.h"
#include "sm/pipeline/unit_kind.h"
#include "sm/sm_core.h"

namespace warptlm {

void SmCore::set_done(unsigned slot, bool done) {
  gates_[slot].done = done;
  may_finish_ |= done;
}

void SmCore::deal(unsigned slot, uint64_t ready) {
  SlotGate& g = gates_[slot];
  g.control_ready = std::max(g.control_ready, ready);
  g.blocked = Stall::Issued;
  warps_[slot].fetch_pc = kExitPc;
}

bool SmCore::held(unsigned slot, uint64_t now) {
  const uint64_t ready = gates_[slot].control_ready;
  if (ready <= now) return false;
  wake_hint_ = std::min(wake_hint_, ready);
  return true;
}

void SmCore::unit_reset(unsigned slot) {
  WarpSlot& ws = warps_[slot];
  ws.paths_valid = false;
  gates_[slot].blocked = Stall::Issued;
  ws.fetch_pc = kExitPc;
}

bool SmCore::fetched(unsigned slot, Pc pc, uint64_t now) {
  WarpSlot& ws = warps_[slot];
  fetch(ws, pc, now);
  if (ws.fetch_ready <= now) return true;
  wake_hint_ = std::min(wake_hint_, ws.fetch_ready);
  return false;
}

void SmCore::scheduler_issued(unsigned sched, unsigned local) {
  schedulers_[sched]->issued(local);
  sched_[sched].stale = true;
}

uint64_t SmCore::issue_formed(unsigned slot, const Instruction& in, Pc pc, LaneMask lanes,
                              const Warp& first, LaneMask first_lanes, uint64_t now,
                              uint64_t operands_ready) {
  WarpSlot& ws = warps_[slot];
  // The launch's count includes this SM's: it is the only check needed.
  check_launch_budget(first, ctas_[ws.cta], Path{pc, first_lanes, 0});
  if (trace_) trace_->issued(TraceRecord{now, id_, ws.global_id, 0, pc, lanes});
  gates_[slot].control_ready = now + 1;
  ws.fetch_pc = kExitPc;
  return units_.issue(unit_of(in), now) + (operands_ready - (now + 1));
}

void SmCore::write_back(unsigned owner, Pc pc, LaneMask lanes, uint64_t cycle) {
  WarpSlot& ws = warps_[owner];
  ws.scoreboard.reserve(operands_->at(pc), lanes);
  ++ws.writebacks;
  if (cycle != kNever) writebacks_.push(Writeback{cycle, owner, pc, lanes});
}

}  // namespace warptlm
