// SmCore's construction and its cycle: the issue stage (schedulers, the
// per-warp attempt, shared resources, issue), writebacks and retirement.
// Launch set-up is in sm_core_launch.cc, the memory stage in
// sm_core_memory.cc, warp and CTA bookkeeping and the deadlock check in
// sm_core_warps.cc, compaction in compaction_issue.cc.
#include "sm/sm_core.h"

#include <algorithm>
#include <stdexcept>

#include "sm/compaction_issue.h"
#include "sm/pipeline/unit_kind.h"

namespace warptlm {
namespace {

unsigned max_resident_warps(const PlatformConfig& c) {
  return std::max(1u, std::min(c.sm.warps, c.sm.threads / c.warp_size));
}

PipelineParams pipeline(const PipelineConfig& p) {
  return PipelineParams{p.units, p.latency, p.interval};
}

const PipelineParams (&pipelines(const PlatformConfig& c))[kUnitKinds] {
  thread_local PipelineParams params[kUnitKinds];
  params[static_cast<unsigned>(UnitKind::Sp)] = pipeline(c.sm.sp);
  params[static_cast<unsigned>(UnitKind::Sfu)] = pipeline(c.sm.sfu);
  params[static_cast<unsigned>(UnitKind::LdSt)] = pipeline(c.sm.ldst);
  params[static_cast<unsigned>(UnitKind::Tensor)] = pipeline(c.sm.tensor);
  return params;
}

L1Params l1_params(const PlatformConfig& c) {
  const CacheConfig& l1 = c.memory.l1;
  L1Params p;
  p.size = l1.size;
  p.assoc = l1.assoc;
  p.line = l1.line;
  p.mshrs = l1.mshrs;
  p.latency = l1.latency;
  p.write_back = l1.write_policy == "write_back";  // the L1 applies it with an L1 caching globals
  p.cache_global = l1.cache_global;
  p.warp_size = c.warp_size;
  return p;
}

}  // namespace

SmCore::SmCore(unsigned id, const PlatformConfig& config)
    : id_(id),
      config_(config),
      warp_size_(config.warp_size),
      max_warps_(max_resident_warps(config)),
      per_lane_scoreboard_(config.sm.scoreboard != "registers"),
      collector_(config.sm.register_banks, config.sm.collectors),
      units_(pipelines(config), pipeline_passes(config.warp_size, config.simd_width)),
      icache_(config.sm.icache_size, config.sm.icache_assoc, config.sm.icache_line,
              config.sm.icache_miss_latency),
      l1_(l1_params(config), stats_.l1) {
  if (config.memory.l1.line > config.memory.l2.line)
    throw std::invalid_argument("memory.l1.line: " + std::to_string(config.memory.l1.line) +
                                " bytes exceed memory.l2.line (" +
                                std::to_string(config.memory.l2.line) +
                                "); an L1 line must fit in one L2 line");
  const unsigned s = config.sm.schedulers;
  SchedulerParams sp;
  sp.active_set = config.sm.two_level_active;
  for (unsigned i = 0; i < s; ++i)
    schedulers_.push_back(make_warp_scheduler(config.scheduler, (max_warps_ + s - 1) / s, sp));
  orders_.resize(s);
  sched_.resize(s);
  // What the policy lets the SM assume about its order (WarpScheduler::OrderKind).
  // A rotation is walked over a bit mask of live slots: up to 64 per scheduler.
  const WarpScheduler::OrderKind kind = schedulers_.front()->order_kind();
  stable_orders_ = kind != WarpScheduler::OrderKind::Changing;
  rotation_ = kind == WarpScheduler::OrderKind::Rotation && (max_warps_ + s - 1) / s <= 64;
  warps_.resize(max_warps_);
  gates_.resize(max_warps_);
  for (unsigned slot = 0; slot < max_warps_; ++slot) {
    gates_[slot].scheduler = static_cast<uint8_t>(slot % s);
    gates_[slot].local = static_cast<uint8_t>(std::min(slot / s, 64u));
  }
  ctas_.resize(config.sm.ctas);
}

SmCore::~SmCore() = default;

// Most attempts end at one of the first checks (an idle slot, a warp at a
// barrier, its scheme's tables at work, its remembered outcome): those are
// answered inline in tick(), without the call of the full attempt. Forced:
// left to itself GCC inlined attempt() here and called the whole, so every
// check paid attempt()'s register saves (a third of try_issue()'s cost in a
// memory-bound run).
__attribute__((always_inline)) inline SmCore::Stall SmCore::try_issue(unsigned sched,
                                                                      unsigned local,
                                                                      uint64_t now) {
  const unsigned slot = local * static_cast<unsigned>(schedulers_.size()) + sched;
  const SlotGate& g = gates_[slot];
  if (!g.used || g.finished || g.done) return Stall::Idle;
  if (compacting_) {
    if (!compaction_->bypassing(slot)) return compaction_->try_issue(sched, local, slot, now);
    if (compaction_->rejoin(slot, now)) return Stall::Control;
  }
  if (g.at_barrier) {
    waits(sched, local);  // back in the active set while still waiting: out again
    return Stall::Barrier;
  }
  if (g.sleep_until > now) {  // nanosleep
    wake_hint_ = std::min(wake_hint_, g.sleep_until);
    return Stall::Sleep;
  }
  if (g.control_ready > now) {  // the scheme's tables still work on its last issue
    wake_hint_ = std::min(wake_hint_, g.control_ready);
    return Stall::Control;
  }
  if (g.blocked != Stall::Issued) return g.blocked;
  return attempt(sched, local, slot, now);
}

__attribute__((noinline)) SmCore::Stall SmCore::attempt(unsigned sched, unsigned local,
                                                        unsigned slot, uint64_t now) {
  WarpSlot& ws = warps_[slot];
  SlotGate& g = gates_[slot];
  Warp& w = ws.warp;
  if (!ws.paths_valid) {
    ws.paths.clear();
    w.simt->issuable(ws.paths);
    ws.paths_valid = true;
  }
  const std::vector<Path>& paths = ws.paths;
  if (paths.empty()) {
    set_blocked(g, Stall::Control);
    return Stall::Control;
  }
  // Whether the outcome depends only on the warp's own state (no fetch, no
  // shared resource was asked), so the next attempts can reuse it.
  bool own_state = true;
  Stall reason = Stall::Idle;
  auto note = [&reason](Stall s) {
    if (reason == Stall::Idle) reason = s;
  };
  bool all_at_barrier = true;
  size_t first = 0;
  if (resuming_) {  // the attempt tick_private() stopped, at its path
    resuming_ = false;
    first = cursor_.path;
    own_state = cursor_.own_state;
    reason = cursor_.reason;
    all_at_barrier = cursor_.all_at_barrier;
  }
  for (size_t i = first; i < paths.size(); ++i) {
    const Path& p = paths[i];
    if (p.mask & w.barrier_lanes) continue;  // its lanes wait at a barrier (per-thread barriers)
    all_at_barrier = false;
    if (fetch(ws, p.pc, now)) own_state = false;
    if (ws.fetch_ready > now) {
      own_state = false;
      wake_hint_ = std::min(wake_hint_, ws.fetch_ready);
      continue;  // waiting for the instruction: an idle slot
    }
    // The issuer reports the fault as the functional executor does.
    if (outside_frame_function(w, p.pc)) issue(ws, p, now, now);
    const Instruction& in = launch_->program->module.at(p.pc);
    const RegisterOperands& ops = operands_->at(p.pc);
    // A call or return switches register frames: earlier writes drain first.
    // So does an exit inside a device function: the lanes left may go on in
    // the caller's frame.
    if ((ops.frame_change || (in.op == Opcode::Exit && w.frames.size() > 1)) &&
        !ws.scoreboard.empty()) {
      note(Stall::Control);
      continue;
    }
    if (ws.scoreboard.blocked(ops, per_lane_scoreboard_ ? p.mask : ~LaneMask{0})) {
      note(Stall::Scoreboard);
      continue;
    }
    // cp.async.wait_group / wait_all: until the warp's memory operations,
    // its copies among them, have completed (docs/async-copy.md).
    if (in.op == Opcode::CpAsyncWait && ws.outstanding > 0) {
      own_state = false;  // a memory answer ends it
      note(Stall::Memory);
      continue;
    }
    if (private_phase_ && ops.beyond_sm && shared_resources_free(in, now)) {
      // It would issue. Everything above only reads the warp's state or
      // repeats itself (the fetch is buffered): finish_tick() starts this
      // attempt again here. (An attempt that stalls on a shared resource
      // changes nothing beyond the SM, and goes on below in either phase.)
      cursor_.path = i;
      cursor_.own_state = own_state;
      cursor_.reason = reason;
      cursor_.all_at_barrier = all_at_barrier;
      stopped_ = true;
      return Stall::Idle;
    }
    own_state = false;  // the checks below ask shared resources
    uint64_t ready = 0;
    const Stall shared = take_shared_resources(in, ops, slot, now, ready);
    if (shared != Stall::Issued) {
      note(shared);
      continue;
    }
    if (!ws.scoreboard.empty() && ws.scoreboard.blocked_any_lane(ops))
      ++stats_.stalls_avoided_by_lane_masks;
    run_.note_issuable(paths.size());
    // The scheduler hears of the issue first: a global load then reports a
    // long-latency stall (two_level moves the warp to its pending set).
    schedulers_[sched]->issued(local);
    issue(ws, p, now, ready);
    // A warp left waiting at a barrier cannot issue until the rest of its CTA
    // arrives: the scheduler hears of it as of a long-latency stall, so a
    // two-level active set full of waiting warps makes room for those the
    // barrier waits on (else they never issue: a deadlock).
    if (g.at_barrier) waits(sched, local);
    sched_[sched].stale = true;
    return Stall::Issued;
  }
  if (all_at_barrier) {
    w.at_barrier = true;  // released when the barrier completes
    sync_barrier_gate(slot);
    waits(sched, local);  // as above
    return Stall::Barrier;
  }
  if (own_state) {
    set_blocked(g, reason);
  }
  return reason;
}

SmCore::Stall SmCore::take_shared_resources(const Instruction& in, const RegisterOperands& ops,
                                            unsigned bank_warp, uint64_t now, uint64_t& ready) {
  const UnitKind kind = unit_of(in);
  if (!units_.can_issue(kind, now)) {
    wake_hint_ = std::min(wake_hint_, units_.next_free(kind));
    return Stall::Pipeline;
  }
  if (kind == UnitKind::LdSt && accesses_memory(in.op) && l1_.mshrs_full()) return Stall::Memory;
  unsigned conflicts = 0;
  if (!collector_.start(now, bank_warp, ops.reads(), ops.n_reads, ready, conflicts)) {
    wake_hint_ = std::min(wake_hint_, collector_.next_free_collector());
    return Stall::Collector;
  }
  stats_.register_bank_conflicts += conflicts;
  return Stall::Issued;
}

bool SmCore::shared_resources_free(const Instruction& in, uint64_t now) const {
  const UnitKind kind = unit_of(in);
  return units_.can_issue(kind, now) &&
         !(kind == UnitKind::LdSt && accesses_memory(in.op) && l1_.mshrs_full()) &&
         collector_.collector_free(now);
}

void SmCore::issue(WarpSlot& ws, const Path& p, uint64_t now, uint64_t operands_ready) {
  const unsigned slot = static_cast<unsigned>(&ws - warps_.data());
  SlotGate& g = gates_[slot];
  Warp& w = ws.warp;
  CtaSlot& cta = ctas_[ws.cta];
  RecordingEnvironment& env = *cta.env;
  env.bind(&w);
  env.accesses.clear();
  env.cycle = now;
  IssueResult r = issuer_->issue(w, p, cta.context, env, run_);  // faults first for a bad pc
  const RegisterOperands& ops = operands_->at(p.pc);
  ws.paths_valid = false;  // the unit advanced (`p` stays readable: ws.paths is kept)
  if (private_phase_)
    ++private_issued_;  // tick_private() made sure the budget cannot run out this cycle
  else
    check_launch_budget(w, cta, p);
  g.control_ready = now + 1 + w.simt->control_cycles();  // the scheme's tables work on
  if (r.outcome.sleep_ns) g.sleep_until = now + 1 + env.cycles_for_ns(r.outcome.sleep_ns);
  const Instruction& in = *r.instruction;
  ++stats_.warp_instructions;
  stats_.thread_instructions += lane_count(p.mask);  // inline: the builtin is a libgcc call
  if (trace_) trace_->issued(TraceRecord{now, id_, ws.global_id, p.split, p.pc, p.mask});
  ws.fetch_pc = kExitPc;  // the next instruction is fetched when the warp is next considered
  set_blocked(g, Stall::Issued);
  // Under compaction a warp's end is the block stack's business.
  if (compacting_) {
    compaction_->note_executed(slot, r.outcome.executed);  // a CAPRI bypass's branch outcome
  } else if (w.finished()) {
    g.done = true;
    gate_changed(slot);
  }

  uint64_t wb = units_.issue(unit_of(in), now) + (operands_ready - (now + 1));
  if (!env.accesses.empty()) wb = std::max(wb, time_memory(ws, p, in, now));
  if (r.called || r.returned) {
    // A new register frame: the scoreboard was drained before the call/return.
    ws.scoreboard.reset(static_cast<unsigned>(
        launch_->program->module.functions[w.frames.back().function].regs.size()));
  } else if (ops.n_writes) {
    ws.scoreboard.reserve(ops, p.mask);
    ++ws.writebacks;
    if (wb != kNever) writebacks_.push(Writeback{wb, slot, p.pc, p.mask});
  }
  may_finish_ |= g.done && ws.writebacks == 0 && ws.outstanding == 0;
  if (r.outcome.control == Control::Barrier && r.outcome.executed) {
    const bool released = cta.barriers.arrive(w, r.outcome, p.pc, cta.warps, launch_->block.count(),
                                              *issuer_, cta.context);
    sync_barrier_gate(slot);
    if (released) {
      // Released warps' barrier lanes changed: their remembered outcomes are stale.
      for (unsigned other : cta.warp_slots) {
        set_blocked(gates_[other], Stall::Issued);
        sync_barrier_gate(other);
      }
    }
  }
}

// Inline: tick() asks once per scheduler per cycle.
inline uint64_t& SmCore::slot_bin(Stall cause) {
  // The bin of each cause, in Stall's order (a pointer table built per call
  // was 0.5% of a compute-bound run's instructions; a switch is a call).
  static constexpr uint64_t SmStats::*kBins[] = {
      &SmStats::slot_issued,   &SmStats::slot_idle,      &SmStats::slot_scoreboard,
      &SmStats::slot_pipeline, &SmStats::slot_collector, &SmStats::slot_barrier,
      &SmStats::slot_control,  &SmStats::slot_memory,    &SmStats::slot_sleep};
  static_assert(sizeof(kBins) / sizeof(kBins[0]) == static_cast<unsigned>(Stall::Sleep) + 1,
                "one bin per Stall");
  return stats_.*kBins[static_cast<unsigned>(cause)];
}

// The stages of one cycle, in pipeline order; each is called once per tick
// (inline: the tick is the hottest loop of the timing model).
void SmCore::tick(uint64_t now, TickResult& result) {
  begin_cycle(now, result);
  end_cycle(now, result, issue_stage<false>(now));
}

void SmCore::tick_private(uint64_t now, TickResult& result) {
  // Every SM issues at most one instruction per scheduler in a cycle: with
  // that much budget left, no issue of this cycle can be the one that
  // exceeds it, whatever the order of the SMs.
  const uint64_t headroom = uint64_t(config_.num_sms) * schedulers_.size();
  if (compacting_ || trace_ || !launch_ ||
      launch_->instruction_budget - std::min(launch_->issued, launch_->instruction_budget) <
          headroom) {
    pending_ = Pending::Whole;
    return;
  }
  begin_cycle(now, result);
  struct PrivatePhase {  // reset however the issue stage ends, a fault included
    explicit PrivatePhase(bool& flag) : flag(flag) {
      flag = FunctionalWarpEnvironment::sm_private_phase = true;
    }
    ~PrivatePhase() { flag = FunctionalWarpEnvironment::sm_private_phase = false; }
    bool& flag;
  };
  bool issued = false;
  {
    PrivatePhase phase(private_phase_);
    issued = issue_stage<true>(now);
  }
  if (stopped_) {
    pending_ = Pending::Rest;
    return;
  }
  end_cycle(now, result, issued);
  pending_ = Pending::None;
}

void SmCore::finish_tick(uint64_t now, TickResult& result) {
  if (private_issued_) {
    launch_->issued += private_issued_;
    private_issued_ = 0;
  }
  const Pending pending = pending_;
  pending_ = Pending::None;
  if (pending == Pending::Whole) {
    tick(now, result);
  } else if (pending == Pending::Rest) {
    stopped_ = false;
    resuming_ = true;
    end_cycle(now, result, issue_stage<true>(now));
  }
}

void SmCore::abandon_tick() {
  if (private_issued_) launch_->issued += private_issued_;
  private_issued_ = 0;
  pending_ = Pending::None;
  stopped_ = resuming_ = false;
}

inline void SmCore::begin_cycle(uint64_t now, TickResult& result) {
  result.next = kNever;
  result.retired.clear();
  account_sleep(now);
  complete_writebacks(now);
  if (compacting_) compaction_->complete_pending_syncs(now);
  wake_hint_ = kNever;
  reordered_ = false;
}

inline void SmCore::end_cycle(uint64_t now, TickResult& result, bool issued) {
  ++stats_.cycles;
  stats_.resident_warp_cycles += resident_warps_;
  accounted_until_ = now + 1;
  const bool in_flight = !writebacks_.empty() || outstanding_ops_ > 0;
  if (may_finish_) retire_finished_warps(result);
  if (!result.retired.empty() && resident_ctas_ == 0) return;  // idle until the next CTA
  if (issued || !result.retired.empty()) {
    idle_reorders_ = 0;
    result.next = now + 1;
    return;
  }
  if (reordered_ && ++idle_reorders_ <= 2 * warps_.size()) result.next = now + 1;
  if (!writebacks_.empty()) result.next = std::min(result.next, writebacks_.top().cycle);
  if (wake_hint_ != kNever) result.next = std::min(result.next, std::max(wake_hint_, now + 1));
  if (result.next == kNever && !in_flight) check_deadlock();
}

inline void SmCore::account_sleep(uint64_t now) {
  // The cycles slept through since the last tick kept the last tick's causes.
  if (now <= accounted_until_) return;
  const uint64_t gap = now - accounted_until_;
  stats_.cycles += gap;
  stats_.resident_warp_cycles += gap * resident_warps_;
  for (const SchedulerState& st : sched_) {
    // An issued slot is not repeated by sleeping: nothing issues while asleep.
    slot_bin(st.last == Stall::Issued ? Stall::Idle : st.last) += gap;
  }
}

inline void SmCore::complete_writebacks(uint64_t now) {
  while (!writebacks_.empty() && writebacks_.top().cycle <= now) {
    const Writeback wbk = writebacks_.top();
    writebacks_.pop();
    WarpSlot& ws = warps_[wbk.warp];
    SlotGate& g = gates_[wbk.warp];
    ws.scoreboard.release(operands_->at(wbk.pc), wbk.lanes);
    --ws.writebacks;
    set_blocked(g, Stall::Issued);
    may_finish_ |= g.done && ws.writebacks == 0 && ws.outstanding == 0;
  }
}

template <bool kResumable>
inline bool SmCore::issue_stage(uint64_t now) {
#ifndef NDEBUG
  if (!(kResumable && resuming_)) check_quiet_masks(now);
#endif
  bool issued = false;
  unsigned s = 0;
  Stall cause = Stall::Idle;
  unsigned k = 0;             // a rotation's part
  uint64_t part[2] = {0, 0};  // a rotation's live slots still to try, in two parts
  size_t i = 0;               // an order's position
  // Go on from cursor_ (attempt() takes its own part of it).
  bool resume = kResumable && resuming_;
  if (resume) {
    s = cursor_.sched;
    issued = cursor_.issued;
    cause = cursor_.cause;
    k = cursor_.part;
    part[0] = cursor_.bits[0];
    part[1] = cursor_.bits[1];
    i = cursor_.position;
  }
  // tick_private() stopped in try_issue(): the place to go on from.
  auto stop = [&] {
    cursor_.sched = s;
    cursor_.issued = issued;
    cursor_.cause = cause;
    cursor_.part = k;
    cursor_.bits[0] = part[0];
    cursor_.bits[1] = part[1];
    cursor_.position = i;
    return issued;
  };
  const unsigned nsched = static_cast<unsigned>(schedulers_.size());
  for (; s < nsched; ++s, resume = false) {
    SchedulerState& st = sched_[s];
    if (rotation_) {
      if (!resume) {
        // The live slots from rotation_start() up, then those below it:
        // order()'s list. The start is asked again only after a call that
        // may have moved it.
        if (st.stale) {
          st.start = schedulers_[s]->rotation_start();
          st.stale = false;
        }
        const uint64_t from_first = ~uint64_t(0) << st.start;
        part[0] = st.live & from_first;
        part[1] = st.live & ~from_first;
        cause = Stall::Idle;
        k = 0;
      }
      for (; k < 2; ++k) {
        for (uint64_t& bits = part[k]; cause != Stall::Issued; bits &= bits - 1) {
          // Quiet slots cannot change the cause: idle ones never, held ones
          // once it is set (they would answer their remembered outcome).
          bits &= ~(st.idle | (cause != Stall::Idle && !compacting_ ? st.held : 0));
          if (!bits) break;
          const Stall r = try_issue(s, static_cast<unsigned>(__builtin_ctzll(bits)), now);
          if constexpr (kResumable)
            if (stopped_) return stop();
          if (r == Stall::Issued || cause == Stall::Idle) cause = r;
        }
      }
    } else {
      std::vector<unsigned>& order = orders_[s];
      if (!resume) {
        if (st.stale || !stable_orders_) {
          schedulers_[s]->order(order);
          st.stale = false;
        }
        cause = Stall::Idle;
        i = 0;
      }
      for (; i < order.size(); ++i) {
        const unsigned local = order[i];
        if (local < 64 &&
            ((st.idle | (cause != Stall::Idle && !compacting_ ? st.held : 0)) >> local & 1))
          continue;  // quiet, as above
        const Stall r = try_issue(s, local, now);
        if constexpr (kResumable)
          if (stopped_) return stop();
        if (r == Stall::Issued) {
          cause = r;
          break;
        }
        if (cause == Stall::Idle) cause = r;
      }
    }
    issued |= cause == Stall::Issued;
    st.last = cause;
    ++slot_bin(cause);
  }
  return issued;
}

inline void SmCore::retire_finished_warps(TickResult& result) {
  // Warps leave only after a cycle in which a done warp's last write completed.
  may_finish_ = false;
  for (unsigned slot = 0; slot < warps_.size(); ++slot) {
    const SlotGate& g = gates_[slot];
    if (!g.used || g.finished || !g.done) continue;
    WarpSlot& ws = warps_[slot];
    if (ws.writebacks == 0 && ws.outstanding == 0) {
      finish_warp(slot);
      maybe_retire(ws.cta, result);
    }
  }
}

}  // namespace warptlm
