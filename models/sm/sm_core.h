// The cycle model of one SM, as plain C++ driven by the SM module's process:
// tick(now) runs one core cycle (fetch, schedule, issue, writeback) and says
// when the next cycle that can change anything is, so the process sleeps
// through idle cycles. Memory traffic leaves through outbox() and comes back
// through response(). Instructions execute at issue (WarpIssuer); the parts
// (schedulers, scoreboards, operand collector, execution units, caches) only
// decide when their results become visible.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "compaction/warp_formation.h"
#include "config/platform_config.h"
#include "exec/cta_barriers.h"
#include "exec/trace.h"
#include "exec/warp.h"
#include "exec/warp_issuer.h"
#include "sm/compaction_host.h"
#include "sm/due_queue.h"
#include "sm/fetch/instruction_cache.h"
#include "sm/issue_stall.h"
#include "sm/kernel_launch.h"
#include "sm/ldst/l1_data_path.h"
#include "sm/pipeline/execution_units.h"
#include "sm/recording_environment.h"
#include "sm/regfile/operand_collector.h"
#include "sm/scheduler/warp_scheduler.h"
#include "sm/scoreboard/register_operands.h"
#include "sm/scoreboard/scoreboard.h"
#include "sm/sm_stats.h"
#include "transaction/gpu_extension.h"

namespace warptlm {

class CompactionIssue;

class SmCore {
 public:
  SmCore(unsigned id, const PlatformConfig& config);
  ~SmCore();

  // Whether a CTA of `launch` fits now (the distributor checked; the SM
  // double-checks its own slots).
  // `now`: the current cycle (statistics count cycles from the first CTA).
  void start_cta(const KernelLaunch& launch, const Dim3& ctaid, uint64_t linear, uint64_t now);

  struct TickResult {
    uint64_t next = kNever;         // next cycle to tick (kNever: only a response can wake it)
    std::vector<uint64_t> retired;  // linear ids of CTAs that retired this cycle
  };
  // Runs cycle `now` (>= the last one). Throws KernelFault.
  void tick(uint64_t now, TickResult& result);
  // A cycle in two phases, for SMs ticked by several host threads
  // (docs/parallel-sms.md); the pair does exactly what tick() does.
  // tick_private() runs the part of the cycle that touches this SM alone, so
  // it may run on any host thread beside other SMs' tick_private(): it stops
  // before the first issue that reaches_beyond_sm(), and leaves the whole
  // cycle to finish_tick() under compaction, with a trace, or when the
  // launch's instruction budget is nearly spent. finish_tick() runs the rest;
  // the SMs' finish_tick() calls run serially, in SM order. Both throw
  // KernelFault; after a fault in tick_private(), call abandon_tick().
  void tick_private(uint64_t now, TickResult& result);
  void finish_tick(uint64_t now, TickResult& result);
  void abandon_tick();
  // Whether tick_private() finished its cycle, so finish_tick() has only the
  // launch's count to bring up to date: the caller may do that itself
  // (*launch_count() += take_private_issued()) and skip finish_tick(), which
  // reads lines of this SM that another host thread just wrote.
  bool cycle_finished() const { return pending_ == Pending::None; }
  uint64_t take_private_issued() {
    const uint64_t n = private_issued_;
    private_issued_ = 0;
    return n;
  }
  uint64_t* launch_count() const { return launch_ ? &launch_->issued : nullptr; }
  // A memory transaction came back at cycle `now`. Throws KernelFault for an
  // error response. Returns whether the core must tick (false: the answer to
  // an L1 write-back, which no instruction waits on).
  bool response(uint64_t tag, AccessKind kind, uint64_t address, bool ok, uint64_t now);
  // The launch's last CTA retired (write-back L1): queues a write of every
  // dirty L1 line, which stay present and become clean. Returns true when no
  // L1 write-back is in flight (the flush is complete at once); otherwise
  // flushing() is true until the last one is answered.
  bool start_l1_flush(uint64_t now) { return l1_.start_flush(now); }
  bool flushing() const { return l1_.flushing(); }

  std::vector<MemoryRequest>& outbox() { return l1_.outbox(); }
  bool idle() const { return resident_ctas_ == 0; }
  const SmStats& stats() const { return stats_; }
  // This SM's counts over every launch so far (earlier launches' plus this one's).
  RunStats run_stats() const;
  void set_trace(TraceSink* trace) { trace_ = trace; }
  // Extra statistics of the reconvergence side: issue attempts that a
  // per-warp scoreboard would have blocked but the lane masks let through.
  uint64_t stalls_avoided_by_lane_masks() const { return stats_.stalls_avoided_by_lane_masks; }

 private:
  using Stall = IssueStall;
  // The state try_issue()'s first checks read, one entry per warp slot, kept
  // apart from the WarpSlot (a few hundred bytes): a scan over warps that cannot
  // issue touches one host cache line per four slots instead of up to three
  // per slot (most of the SM's per-cycle cache misses were these first touches).
  struct SlotGate {
    // First cycle the warp may issue again: after each issue, the cycles the
    // reconvergence scheme's side tables still work (control_cycles()).
    uint64_t control_ready = 0;
    uint64_t sleep_until = 0;  // nanosleep: first cycle it may issue again
    bool used = false;
    bool finished = false;  // left its scheduler
    bool done = false;      // warp.finished(), cached: it changes only when the warp issues
    // A mirror of warp.at_barrier; sync_barrier_gate() is the one place that
    // copies it, called after everything that may change it (a warp's start,
    // an attempt whose paths all wait, a barrier arrival or release).
    bool at_barrier = false;
    // The outcome of the last issue attempt when it depended only on this
    // warp's own state (scoreboard or call/return drain; Issued: none). Until
    // that state changes (a writeback, a barrier release, an issue) every
    // attempt ends the same way, so it is answered from here.
    Stall blocked = Stall::Issued;
    // The slot's scheduler, and its place in that scheduler's masks (64:
    // past them, never skipped).
    uint8_t scheduler = 0;
    uint8_t local = 64;
    uint64_t bit() const { return local < 64 ? uint64_t(1) << local : 0; }
  };
  // A warp slot's own state. Line-aligned, with what an attempt, an issue and
  // a writeback read in its first host cache line (the scoreboard, the writes
  // and memory operations in flight, the fetch buffer) and the paths next, so
  // a slot costs one or two cache misses per tick rather than three or four.
  struct alignas(64) WarpSlot {
    Scoreboard scoreboard;
    unsigned writebacks = 0;   // register writebacks in flight
    unsigned outstanding = 0;  // memory operations in flight
    Pc fetch_pc = kExitPc;     // the instruction in the buffer
    uint64_t fetch_ready = 0;  // cycle it is available
    bool paths_valid = false;
    unsigned cta = 0;
    // warp.simt->issuable(), kept while `paths_valid`: it changes only when
    // the unit does (an issue, a reset), not from one attempt to the next.
    std::vector<Path> paths;
    uint32_t global_id = 0;
    Warp warp;
    uint64_t age = 0;
  };
  struct CtaSlot {
    bool used = false;
    uint64_t linear = 0;
    const KernelLaunch* launch = nullptr;
    CtaContext context;
    CtaBarriers barriers;
    std::vector<unsigned> warp_slots;
    std::vector<Warp*> warps;
    std::unique_ptr<RecordingEnvironment> env;
    unsigned live = 0;  // warps not finished
  };
  struct Writeback {
    uint64_t cycle;
    unsigned warp;
    Pc pc;
    LaneMask lanes;
  };

  Stall try_issue(unsigned scheduler, unsigned slot_in_scheduler, uint64_t now);
  // try_issue() past its first checks (`slot`: the warp slot's index): a
  // warp that may issue under its own reconvergence unit.
  Stall attempt(unsigned scheduler, unsigned slot_in_scheduler, unsigned slot, uint64_t now);
  // Puts the instruction at `pc` in ws's buffer (an icache access) unless it
  // is there already; returns whether it fetched. Inline: every attempt past
  // the first checks asks, and the call cost more than the answer.
  bool fetch(WarpSlot& ws, Pc pc, uint64_t now) {
    if (ws.fetch_pc == pc) return false;
    bool hit = false;
    ws.fetch_ready = icache_.fetch(pc, now, hit);
    ws.fetch_pc = pc;
    ++(hit ? stats_.icache_hits : stats_.icache_misses);
    return true;
  }
  // The resources an issue shares with other warps: its execution unit, an
  // MSHR for a memory instruction, an operand collector (register banks as
  // warp slot `bank_warp`'s). Issued when all are taken (`ready`: operands
  // read), else the cause that stalls it.
  Stall take_shared_resources(const Instruction& in, const RegisterOperands& ops,
                              unsigned bank_warp, uint64_t now, uint64_t& ready);
  // Whether take_shared_resources() would take them all (it has no effect
  // when it would not: a stall is answered alike before and after).
  bool shared_resources_free(const Instruction& in, uint64_t now) const;
  // The issue-slot statistic a cause counts in.
  uint64_t& slot_bin(Stall cause);
  void issue(WarpSlot& ws, const Path& p, uint64_t now, uint64_t operands_ready);
  // Times the accesses of a memory instruction; returns the writeback cycle
  // (kNever: waits on responses, the MemoryOp writes back).
  uint64_t time_memory(WarpSlot& ws, const Path& p, const Instruction& in, uint64_t now);
  void complete_memory_op(unsigned id, uint64_t now);
  // tick()'s stages, in order.
  void begin_cycle(uint64_t now, TickResult& result);  // up to the issue stage
  void account_sleep(uint64_t now);                    // statistics of the cycles slept through
  void complete_writebacks(uint64_t now);              // register writes due by `now`
  // One attempt per scheduler; whether one issued. The resumable one (of
  // tick_private() and finish_tick()) may stop (stopped_), and then goes on
  // from cursor_ when resuming_; tick()'s has neither check.
  template <bool kResumable>
  bool issue_stage(uint64_t now);
  void end_cycle(uint64_t now, TickResult& result, bool issued);  // after the issue stage
  void retire_finished_warps(TickResult& result);
#ifndef NDEBUG
  void check_quiet_masks(uint64_t now) const;
#endif
  void check_deadlock();  // nothing in flight, nothing issued, no wake-up: barriers?
  void finish_warp(unsigned slot);
  void maybe_retire(unsigned cta, TickResult& result);
  // The fault of memory op `id` whose transaction for the line at `line_addr`
  // was answered with an error, for the thread the L1 names.
  [[noreturn]] void memory_fault(unsigned id, uint64_t line_addr, AccessKind kind);
  void set_launch(const KernelLaunch& launch);
  // The first launch under compaction: the compaction part and its view of the SM.
  void start_compaction();
  // Counts one warp instruction against the launch's budget (all SMs):
  // the runaway-kernel fault once it is exceeded.
  void check_launch_budget(const Warp& w, const CtaSlot& cta, const Path& p) {
    if (++launch_->issued > launch_->instruction_budget) budget_fault(w, cta, p);
  }
  [[noreturn]] void budget_fault(const Warp& w, const CtaSlot& cta, const Path& p);

  // Whether `pc` lies outside the function of `w`'s current frame (a function
  // fell off its end, into the next one or past the module's last
  // instruction): the issuer then faults, before another function's register
  // numbers reach the scoreboard.
  bool outside_frame_function(const Warp& w, Pc pc) const {
    const Function& fn = launch_->program->module.functions[w.frames.back().function];
    return pc < fn.begin || pc >= fn.end;
  }
  // Per scheduler, side by side (one host cache line for a few schedulers):
  // what tick() reads of it every cycle.
  struct SchedulerState {
    uint64_t live = 0;  // a rotation: bit i set while its slot i is live
    // Mirrors of its slots' gates (bit i: slot i; kept by gate_changed()):
    // `idle` slots answer Idle at once, `held` ones (used, not done, with a
    // remembered outcome) answer it at once outside compaction. Neither has
    // an effect, so once a cause is set the issue stage skips both.
    uint64_t idle = ~uint64_t(0);
    uint64_t held = 0;
    unsigned start = 0;        // a rotation: the policy's rotation_start() when last asked
    bool stale = true;         // a call since the last order() or start() may have changed it
    Stall last = Stall::Idle;  // its last cycle's cause, for cycles slept through
  };

  // What every tick reads comes first, together: each SM's lines are evicted
  // by the other SMs' ticks between two of its own, so each line a tick
  // touches is a host cache miss.
  uint64_t accounted_until_ = 0;  // statistics cover the cycles before this one
  // A scheduler let other warps in this cycle (waits()): they may issue next
  // cycle. Cycles in a row that found nothing to issue but reordered: past a
  // rotation through every slot, nothing can issue (a deadlock).
  bool reordered_ = false;
  unsigned idle_reorders_ = 0;
  uint64_t wake_hint_ = kNever;  // earliest cycle a stalled resource frees
  unsigned resident_ctas_ = 0;
  unsigned resident_warps_ = 0;
  unsigned outstanding_ops_ = 0;  // memory operations in flight, all warps
  // Set when a done warp's last writeback or memory operation completed (or it
  // became done with none): only then can a warp leave, so only then look.
  bool may_finish_ = false;
  bool compacting_ = false;  // the launch runs under compaction
  // tick_private(): stop before an issue that reaches_beyond_sm(); stopped_
  // says it did, resuming_ that finish_tick() goes on from cursor_.
  bool private_phase_ = false;
  bool stopped_ = false;
  bool resuming_ = false;
  bool rotation_ = false;       // the policy's order is a rotation of its live slots
  bool stable_orders_ = false;  // the policy's order changes only through its calls
  std::vector<WarpSlot> warps_;
  std::vector<SlotGate> gates_;  // per warp slot, as warps_
  void sync_barrier_gate(unsigned slot) { gates_[slot].at_barrier = warps_[slot].warp.at_barrier; }
  // Brings slot's bits of its scheduler's idle and held masks up to date:
  // called after every change of its gate's used, finished or done (blocked
  // changes through set_blocked()).
  // Why that suffices: a gate's blocked is set only by an attempt that passed
  // the barrier, sleep and control checks, and everything that could make one
  // of those answer again (an issue, a barrier arrival or release, the
  // compaction part's deal) resets blocked first.
  // Sets a gate's remembered outcome, and its bit of the held mask: for
  // Issued, or for a slot that is not idle (an attempt's).
  void set_blocked(SlotGate& g, Stall cause) {
    g.blocked = cause;
    uint64_t& held = sched_[g.scheduler].held;
    held = cause == Stall::Issued ? held & ~g.bit() : held | g.bit();
  }
  void gate_changed(unsigned slot) {
    const SlotGate& g = gates_[slot];
    SchedulerState& st = sched_[g.scheduler];
    const uint64_t bit = g.bit();
    const bool idle = !g.used || g.finished || g.done;
    st.idle = idle ? st.idle | bit : st.idle & ~bit;
    st.held = !idle && g.blocked != Stall::Issued ? st.held | bit : st.held & ~bit;
  }
  // Slot `local` of scheduler `sched` cannot issue for a while (a global load,
  // a barrier, its compacting CTA's synchronisation): its scheduler hears of
  // it (two_level gives its place to a warp that can issue).
  void waits(unsigned sched, unsigned local) {
    if (!schedulers_[sched]->long_latency_stall(local)) return;
    sched_[sched].stale = true;
    reordered_ = true;
  }
  SlotGate& gate(const WarpSlot& ws) { return gates_[static_cast<size_t>(&ws - warps_.data())]; }
  std::vector<SchedulerState> sched_;
  std::vector<std::unique_ptr<WarpScheduler>> schedulers_;
  // Same-cycle writebacks may come out in any order: their effects commute.
  DueQueue<Writeback> writebacks_;
  const OperandTable* operands_ = nullptr;  // launch_->operands, held by shared_operands_
  const KernelLaunch* launch_ = nullptr;

  unsigned id_;
  const PlatformConfig& config_;
  unsigned warp_size_;
  unsigned max_warps_;
  // sm.scoreboard: "registers" checks pending writes against every lane, so a
  // path waits on its sibling paths' writes as under a per-warp scoreboard.
  bool per_lane_scoreboard_;
  alignas(64) SmStats stats_;  // its first lines: the counters of every cycle and issue
  RunStats run_;               // this launch's counts: the issuer's budget check reads them
  RunStats earlier_runs_;      // the counts of the launches before it
  TraceSink* trace_ = nullptr;

  // Launch-level state (rebuilt when a CTA of a new launch arrives; launch_
  // and operands_ above).
  uint64_t launch_id_ = 0;  // launch_->id when set_launch ran: a GPU reuses its KernelLaunch
  std::unique_ptr<WarpIssuer> issuer_;
  const Program* operands_program_ = nullptr;  // the program operands_ describes
  std::shared_ptr<const OperandTable> shared_operands_;

  std::vector<CtaSlot> ctas_;
  uint64_t next_age_ = 0;
  OperandCollector collector_;
  ExecutionUnits units_;
  InstructionCache icache_;
  L1DataPath l1_;           // the L1 data cache, MSHRs and memory operations in flight
  ExecConfig exec_config_;  // of the current launch (the lockstep runners keep a reference)
  // Under compaction: the SM as the compaction part sees it (a nested class,
  // sm_core_compaction.cc, so SmCore's own layout has no vtable), and the part.
  class CompactionView;
  std::unique_ptr<CompactionHost> compaction_view_;
  std::unique_ptr<CompactionIssue> compaction_;  // formed warps, CAPRI
  RunStats budget_view_;                         // the launch's count, as check_budget reads it

  // Per scheduler: its last order() (policies other than lrr and srr).
  std::vector<std::vector<unsigned>> orders_;

  // Where tick_private() left the cycle (finish_tick() goes on from there).
  enum class Pending : uint8_t { None, Whole, Rest };
  Pending pending_ = Pending::None;
  // Instructions tick_private() issued: the launch's budget count is every
  // SM's, so they join it in finish_tick(), in SM order.
  uint64_t private_issued_ = 0;
  // The issue stage's place when it stopped: the scheduler, its walk over
  // the slots (a rotation's two parts of live slots, or the position in its
  // order), the cause so far, and within the stopped attempt the path and
  // that attempt's state.
  struct IssueCursor {
    unsigned sched = 0;
    bool issued = false;
    Stall cause = Stall::Idle;
    unsigned part = 0;
    uint64_t bits[2] = {0, 0};
    size_t position = 0;
    size_t path = 0;
    Stall reason = Stall::Idle;
    bool own_state = true;
    bool all_at_barrier = true;
  } cursor_;

  // Reused per cycle.
  std::vector<Path> paths_;
  std::vector<unsigned> completed_;     // the memory ops an answer completed
  std::vector<uint64_t> access_lines_;  // time_memory's lines of a texture fetch or fragment
  std::vector<uint64_t> shared_words_;  // time_memory's shared words of a fragment
};

}  // namespace warptlm
