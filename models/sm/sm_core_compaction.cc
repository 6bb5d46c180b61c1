// The SM as its compaction part sees it (CompactionHost): a formed warp's
// slot gate, fetch, issue accounting and register writebacks, in SmCore's own
// structures. A nested class, so it reads SmCore's members without making
// SmCore itself polymorphic.
#include "sm/compaction_host.h"
#include "sm/compaction_issue.h"
#include "sm/pipeline/unit_kind.h"
#include "sm/sm_core.h"

namespace warptlm {

class SmCore::CompactionView final : public CompactionHost {
 public:
  explicit CompactionView(SmCore& sm) : sm_(sm) {}

  const Program& program() const override { return *sm_.launch_->program; }
  const OperandTable& operands() const override { return *sm_.operands_; }
  WarpIssuer& issuer() override { return *sm_.issuer_; }
  KernelMemory& memory() override { return *sm_.launch_->memory; }
  SmStats& sm_stats() override { return sm_.stats_; }
  RunStats& launch_counts() override { return sm_.run_; }

  Slot slot(unsigned s) override {
    WarpSlot& ws = sm_.warps_[s];
    return {ws.warp, ws.scoreboard, ws.cta};
  }
  Cta cta(unsigned c) override {
    CtaSlot& cta = sm_.ctas_[c];
    return {cta.warp_slots, cta.warps, cta.context, *cta.env};
  }

  void set_done(unsigned slot, bool done) override {
    sm_.gates_[slot].done = done;
    sm_.gate_changed(slot);
    sm_.may_finish_ |= done;
  }
  void deal(unsigned slot, uint64_t ready) override {
    SlotGate& g = sm_.gates_[slot];
    g.control_ready = std::max(g.control_ready, ready);
    sm_.set_blocked(g, Stall::Issued);
    sm_.warps_[slot].fetch_pc = kExitPc;
  }
  bool held(unsigned slot, uint64_t now) override {
    const uint64_t ready = sm_.gates_[slot].control_ready;
    if (ready <= now) return false;
    wake_at(ready);
    return true;
  }
  void unit_reset(unsigned slot) override {
    WarpSlot& ws = sm_.warps_[slot];
    ws.paths_valid = false;
    sm_.set_blocked(sm_.gates_[slot], Stall::Issued);
    ws.fetch_pc = kExitPc;
  }
  void wake_at(uint64_t cycle) override { sm_.wake_hint_ = std::min(sm_.wake_hint_, cycle); }

  bool fetched(unsigned slot, Pc pc, uint64_t now) override {
    WarpSlot& ws = sm_.warps_[slot];
    sm_.fetch(ws, pc, now);
    if (ws.fetch_ready <= now) return true;
    wake_at(ws.fetch_ready);
    return false;
  }
  IssueStall take_shared_resources(const Instruction& in, const RegisterOperands& ops,
                                   unsigned bank_slot, uint64_t now, uint64_t& ready) override {
    return sm_.take_shared_resources(in, ops, bank_slot, now, ready);
  }
  void scheduler_issued(unsigned sched, unsigned local) override {
    sm_.schedulers_[sched]->issued(local);
    sm_.sched_[sched].stale = true;
  }
  void slot_waits(unsigned slot) override {
    const unsigned s = static_cast<unsigned>(sm_.schedulers_.size());
    sm_.waits(slot % s, slot / s);
  }
  void issue_own(unsigned slot, const Path& p, uint64_t now, uint64_t operands_ready) override {
    sm_.issue(sm_.warps_[slot], p, now, operands_ready);
  }
  uint64_t issue_formed(unsigned slot, const Instruction& in, Pc pc, LaneMask lanes,
                        const Warp& first, LaneMask first_lanes, uint64_t now,
                        uint64_t operands_ready) override {
    WarpSlot& ws = sm_.warps_[slot];
    // The launch's count includes this SM's: it is the only check needed.
    sm_.check_launch_budget(first, sm_.ctas_[ws.cta], Path{pc, first_lanes, 0});
    if (sm_.trace_) sm_.trace_->issued(TraceRecord{now, sm_.id_, ws.global_id, 0, pc, lanes});
    sm_.gates_[slot].control_ready = now + 1;
    ws.fetch_pc = kExitPc;
    return sm_.units_.issue(unit_of(in), now) + (operands_ready - (now + 1));
  }
  uint64_t time_memory(unsigned slot, const Path& p, const Instruction& in, uint64_t now) override {
    return sm_.time_memory(sm_.warps_[slot], p, in, now);
  }
  void write_back(unsigned owner, Pc pc, LaneMask lanes, uint64_t cycle) override {
    WarpSlot& ws = sm_.warps_[owner];
    ws.scoreboard.reserve(sm_.operands_->at(pc), lanes);
    ++ws.writebacks;
    if (cycle != kNever) sm_.writebacks_.push(Writeback{cycle, owner, pc, lanes});
  }

 private:
  SmCore& sm_;
};

void SmCore::start_compaction() {
  compaction_view_ = std::make_unique<CompactionView>(*this);
  compaction_ = std::make_unique<CompactionIssue>(
      *compaction_view_, exec_config_,
      CompactionIssue::Params{id_, warp_size_, config_.sm.warp_formation_cycles,
                              config_.sm.sync_uniform_branches, warps_.size(), ctas_.size()});
}

}  // namespace warptlm
