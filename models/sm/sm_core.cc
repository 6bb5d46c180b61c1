#include "sm/sm_core.h"

#include <algorithm>
#include <stdexcept>
#include <typeinfo>

#include "sm/cta_dispatch.h"
#include "sm/ldst/coalescer.h"
#include "sm/ldst/shared_banks.h"
#include "sm/pipeline/unit_kind.h"
#include "sm/scheduler/gto_scheduler.h"
#include "sm/scheduler/lrr_scheduler.h"
#include "sm/scheduler/srr_scheduler.h"
#include "sm/scheduler/two_level_scheduler.h"

namespace warptlm {
namespace {

// Requests that bypass the MSHRs (all busy with other lines) carry their
// memory operation's id with this bit set.
constexpr uint64_t kBypassTag = uint64_t(1) << 63;
// Writes of dirty L1 lines (write-back L1) carry this tag: no memory op waits
// on them, their answers only count down (or fault).
constexpr uint64_t kWritebackTag = kBypassTag | uint64_t(1) << 62;

// Whether the spans [firsts[l], ends[l]) of `lanes` together cover every byte
// of [line_addr, line_addr + line). Each pass over the lanes extends the
// covered prefix; ascending addresses in lane order (the usual layout) cover
// it in one pass.
bool spans_cover_line(const uint64_t* firsts, const uint64_t* ends, LaneMask lanes,
                      uint64_t line_addr, unsigned line) {
  const uint64_t end = line_addr + line;
  uint64_t covered = line_addr;
  for (bool grew = true; grew && covered < end;) {
    grew = false;
    for (LaneMask m = lanes; m; m &= m - 1) {
      const unsigned l = static_cast<unsigned>(__builtin_ctzll(m));
      if (firsts[l] <= covered && ends[l] > covered) {
        covered = ends[l];
        grew = true;
      }
    }
  }
  return covered >= end;
}

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
  return params;
}

bool is_memory_op(Opcode op) {
  return op == Opcode::Ld || op == Opcode::St || op == Opcode::Atom || op == Opcode::Red;
}

}  // namespace

SmCore::SmCore(unsigned id, const PlatformConfig& config)
    : id_(id),
      config_(config),
      warp_size_(config.warp_size),
      max_warps_(max_resident_warps(config)),
      collector_(config.sm.register_banks, config.sm.collectors),
      units_(pipelines(config), pipeline_passes(config.warp_size, config.simd_width)),
      icache_(config.sm.icache_size, config.sm.icache_assoc, config.sm.icache_line,
              config.sm.icache_miss_latency),
      mshrs_(config.memory.l1.mshrs, 8) {
  write_back_ = l1_is_write_back(config);

  if (config.memory.l1.line > config.memory.l2.line)
    throw std::invalid_argument("memory.l1.line: " + std::to_string(config.memory.l1.line) +
                                " bytes exceed memory.l2.line (" +
                                std::to_string(config.memory.l2.line) +
                                "); an L1 line must fit in one L2 line");
  if (config.memory.l1.size)
    l1_ = std::make_unique<CacheTags>(config.memory.l1.size, config.memory.l1.assoc,
                                      config.memory.l1.line);
  const unsigned s = config.sm.schedulers;
  SchedulerParams sp;
  sp.active_set = config.sm.two_level_active;
  for (unsigned i = 0; i < s; ++i)
    schedulers_.push_back(make_warp_scheduler(config.scheduler, (max_warps_ + s - 1) / s, sp));
  orders_.resize(s);
  sched_.resize(s);
  // The built-in policies' order() is a function of their state, which only
  // the WarpScheduler calls change: their order is kept until one is made.
  // (Exact types: a policy registered later, or derived, is asked every cycle.)
  const WarpScheduler& first = *schedulers_.front();
  stable_orders_ = typeid(first) == typeid(LrrScheduler) || typeid(first) == typeid(GtoScheduler) ||
                   typeid(first) == typeid(TwoLevelScheduler) ||
                   typeid(first) == typeid(SrrScheduler);
  // lrr and srr orders are rotations of the live slots: the tick walks them
  // from start() instead of copying the order after every issue.
  // (Live slots are kept as a bit mask: up to 64 slots per scheduler.)
  if ((max_warps_ + s - 1) / s <= 64) {
    if (typeid(first) == typeid(LrrScheduler)) rotation_ = Rotation::Lrr;
    if (typeid(first) == typeid(SrrScheduler)) rotation_ = Rotation::Srr;
  }
  warps_.resize(max_warps_);
  gates_.resize(max_warps_);
  ctas_.resize(config.sm.ctas);
}

inline unsigned SmCore::rotation_start(unsigned s) const {
  const WarpScheduler* w = schedulers_[s].get();
  return rotation_ == Rotation::Lrr ? static_cast<const LrrScheduler*>(w)->start()
                                    : static_cast<const SrrScheduler*>(w)->start();
}

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
  if (exec_config_.compaction == "capri" && !capri_)
    capri_ = std::make_unique<CapriPredictor>(exec_config_.capri_entries,
                                              exec_config_.capri_history_bits);
  issuer_ = std::make_unique<WarpIssuer>(
      *launch.program, *launch.kernel, *launch.memory, launch.layouts, config_.reconvergence,
      launch.instruction_budget, exec_config_.watchdog, exec_config_.scheme_options);
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
  cta.context.shared.assign(launch.program->module.shared_static_size + launch.dynamic_shared, 0);
  cta.barriers.reset();
  cta.env =
      std::make_unique<RecordingEnvironment>(launch.program->module, *launch.memory, cta.context);
  cta.env->sm = id_;
  cta.env->num_sms = config_.num_sms;
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
    g.at_barrier = ws.warp.at_barrier;
    g.done = ws.warp.finished();
    may_finish_ |= g.done;
    schedulers_[slot % s]->warp_started(slot / s, ws.age);
    sched_[slot % s].stale = true;
    if (rotation_ != Rotation::None) sched_[slot % s].live |= uint64_t(1) << (slot / s);
    cta.warp_slots.push_back(slot);
    cta.warps.push_back(&ws.warp);
    ++i;
  }
  if (compacting_) start_compacting_cta(cta);
  ++resident_ctas_;
  resident_warps_ += nwarps;
  ++run_.ctas;
  run_.warps += nwarps;
  ++stats_.ctas;
  stats_.warps += nwarps;
}

// Most attempts end at one of the first checks (an idle slot, a warp at a
// barrier, its scheme's tables at work, its remembered outcome): those are
// answered inline in tick(), without the call of the full attempt.
inline SmCore::Stall SmCore::try_issue(unsigned sched, unsigned local, uint64_t now) {
  const unsigned slot = local * static_cast<unsigned>(schedulers_.size()) + sched;
  const SlotGate& g = gates_[slot];
  if (!g.used || g.finished || g.done) return Stall::Idle;
  if (compacting_) {
    WarpSlot& ws = warps_[slot];
    if (!ws.bypass) return try_issue_formed(sched, local, slot, now);
    if (rejoin_if_reconverged(ws, now)) return Stall::Control;
  }
  if (g.at_barrier) return Stall::Barrier;
  if (g.control_ready > now) {  // the scheme's tables still work on its last issue
    wake_hint_ = std::min(wake_hint_, g.control_ready);
    return Stall::Control;
  }
  if (g.blocked != Stall::Issued) return g.blocked;
  return attempt(sched, local, slot, now);
}

SmCore::Stall SmCore::attempt(unsigned sched, unsigned local, unsigned slot, uint64_t now) {
  WarpSlot& ws = warps_[slot];
  SlotGate& g = gates_[slot];
  Warp& w = ws.warp;
  if (!ws.paths_valid) {
    ws.paths.clear();
    w.simt->issuable(ws.paths);
    ws.paths_valid = true;
  }
  const std::vector<Path>& paths = ws.paths;
  if (paths.empty()) return g.blocked = Stall::Control;
  // Whether the outcome depends only on the warp's own state (no fetch, no
  // shared resource was asked), so the next attempts can reuse it.
  bool own_state = true;
  Stall reason = Stall::Idle;
  auto note = [&reason](Stall s) {
    if (reason == Stall::Idle) reason = s;
  };
  bool all_at_barrier = true;
  for (const Path& p : paths) {
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
    if (ws.scoreboard.blocked(ops, p.mask)) {
      note(Stall::Scoreboard);
      continue;
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
    sched_[sched].stale = true;
    return Stall::Issued;
  }
  if (all_at_barrier) {
    w.at_barrier = g.at_barrier = true;  // released when the barrier completes
    return Stall::Barrier;
  }
  if (own_state) g.blocked = reason;
  return reason;
}

SmCore::Stall SmCore::take_shared_resources(const Instruction& in, const RegisterOperands& ops,
                                            unsigned bank_warp, uint64_t now, uint64_t& ready) {
  const UnitKind kind = unit_of(in);
  if (!units_.can_issue(kind, now)) {
    wake_hint_ = std::min(wake_hint_, units_.next_free(kind));
    return Stall::Pipeline;
  }
  if (kind == UnitKind::LdSt && is_memory_op(in.op) && mshrs_.full()) return Stall::Memory;
  unsigned conflicts = 0;
  if (!collector_.start(now, bank_warp, ops.reads(), ops.n_reads, ready, conflicts)) {
    wake_hint_ = std::min(wake_hint_, collector_.next_free_collector());
    return Stall::Collector;
  }
  stats_.register_bank_conflicts += conflicts;
  return Stall::Issued;
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
  check_launch_budget(w, cta, p);
  g.control_ready = now + 1 + w.simt->control_cycles();  // the scheme's tables work on
  const Instruction& in = *r.instruction;
  ++stats_.warp_instructions;
  stats_.thread_instructions += lane_count(p.mask);  // inline: the builtin is a libgcc call
  if (trace_) trace_->issued(TraceRecord{now, id_, ws.global_id, p.split, p.pc, p.mask});
  ws.fetch_pc = kExitPc;  // the next instruction is fetched when the warp is next considered
  g.blocked = Stall::Issued;
  // Under compaction a warp's end is the block stack's business.
  if (compacting_)
    ws.executed = r.outcome.executed;  // a CAPRI bypass's branch outcome
  else
    g.done = w.finished();

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
    g.at_barrier = w.at_barrier;
    if (released) {
      // Released warps' barrier lanes changed: their remembered outcomes are stale.
      for (unsigned other : cta.warp_slots) {
        gates_[other].blocked = Stall::Issued;
        gates_[other].at_barrier = warps_[other].warp.at_barrier;
      }
    }
  }
}

void SmCore::budget_fault(const Warp& w, const CtaSlot& cta, const Path& p) {
  // The issuer checks this SM's count; the budget is the whole launch's.
  budget_view_.warp_instructions = launch_->issued;
  issuer_->check_budget(w, cta.context, p.pc, p.mask, budget_view_);
  throw std::logic_error("budget_fault: the launch's count is within its budget");
}

unsigned SmCore::new_memory_op() {
  if (free_memory_ops_.empty()) {
    memory_ops_.emplace_back();
    free_memory_ops_.push_back(static_cast<unsigned>(memory_ops_.size() - 1));
    lane_firsts_.resize(memory_ops_.size() * warp_size_);
    lane_ends_.resize(memory_ops_.size() * warp_size_);
    if (compacting_) {
      op_pieces_.resize(memory_ops_.size() * warp_size_);
      op_threads_.resize(memory_ops_.size() * warp_size_);
    }
  }
  unsigned id = free_memory_ops_.back();
  free_memory_ops_.pop_back();
  memory_ops_[id] = MemoryOp{};
  memory_ops_[id].used = true;
  return id;
}

uint64_t SmCore::time_memory(WarpSlot& ws, const Path& p, const Instruction& in, uint64_t now) {
  const std::vector<MemoryAccess>& acc = ctas_[ws.cta].env->accesses;
  // Per lane: the first address and the span of its accesses (a vector
  // access is one span); the coalescer and bank model work on those.
  // Only the entries of lanes in `global` / `shared` are written and read.
  uint64_t addrs[kMaxWarpSize];
  uint64_t ends[kMaxWarpSize];
  LaneMask global = 0, shared = 0;
  uint64_t done = now;
  for (const MemoryAccess& a : acc) {
    LaneMask bit = LaneMask(1) << a.lane;
    if (a.space == Space::Global || a.space == Space::Shared) {
      LaneMask& set = a.space == Space::Global ? global : shared;
      if (!(set & bit)) {
        addrs[a.lane] = a.address;
        ends[a.lane] = a.address + a.size;
        set |= bit;
      } else {
        addrs[a.lane] = std::min(addrs[a.lane], a.address);
        ends[a.lane] = std::max(ends[a.lane], a.address + a.size);
      }
    } else {
      // Local, constant and parameter accesses: an L1 (or constant cache) hit.
      done = std::max(done, now + config_.memory.l1.latency);
    }
  }
  auto span = [&](LaneMask lanes) {
    unsigned size = 1;
    for (LaneMask m = lanes; m; m &= m - 1) {
      const unsigned l = static_cast<unsigned>(__builtin_ctzll(m));
      size = std::max<unsigned>(size, unsigned(ends[l] - addrs[l]));
    }
    return size;
  };
  if (shared) {
    unsigned cycles =
        shared_access_cycles(addrs, shared, warp_size_, span(shared), config_.sm.shared_banks);
    ++stats_.shared_accesses;
    stats_.shared_bank_conflicts += cycles > 1 ? cycles - 1 : 0;
    done = std::max(done, now + config_.sm.shared_latency + (cycles ? cycles - 1 : 0));
  }
  if (!global) return done;

  coalesce(addrs, global, warp_size_, span(global), config_.memory.l1.line, lines_);
  ++stats_.memory_instructions;
  stats_.memory_transactions += lines_.size();
  const unsigned id = new_memory_op();
  MemoryOp& op = memory_ops_[id];
  op.warp = static_cast<unsigned>(&ws - warps_.data());
  op.pc = p.pc;
  op.lanes = p.mask;
  op.global = global;
  uint64_t* const firsts = &lane_firsts_[uint64_t(id) * warp_size_];
  uint64_t* const lane_ends = &lane_ends_[uint64_t(id) * warp_size_];
  for (LaneMask m = global; m; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctzll(m));
    firsts[l] = addrs[l];
    lane_ends[l] = ends[l];
  }
  op.ready = done;
  if (compacting_ && !ws.bypass) {
    // A formed warp: its writes go to its static warps; a fault names a thread.
    op.pieces = static_cast<unsigned>(ws.pieces.size());
    std::copy(ws.pieces.begin(), ws.pieces.end(), op_pieces_.begin() + uint64_t(id) * warp_size_);
    std::copy(ws.lane_thread.begin(), ws.lane_thread.end(),
              op_threads_.begin() + uint64_t(id) * warp_size_);
    if (op.pieces > 1) {
      ++stats_.compacted_memory_instructions;
      stats_.compacted_memory_transactions += lines_.size();
    }
  }
  const bool atomic = in.op == Opcode::Atom || in.op == Opcode::Red;
  const bool write = !atomic && in.op == Opcode::St;
  const unsigned line = config_.memory.l1.line;
  auto send = [&](uint64_t address, bool is_write, AccessKind kind, uint64_t tag) {
    outbox_.push_back(MemoryRequest{address, line, is_write, kind, tag, ws.global_id, p.pc});
  };
  for (uint64_t l : lines_) {
    if (atomic) {
      // Atomics are performed at the L2: a dirty copy goes there first.
      if (write_back_ && l1_->is_dirty(l)) write_back_line(l, ws.global_id, p.pc);
      if (l1_) l1_->invalidate(l);
      send(l, true, AccessKind::Atomic, id | kBypassTag);
      ++op.pending;
    } else if (write && write_back_) {
      store_write_back(l, id, ws.global_id, p.pc, now);
    } else if (write) {
      if (l1_ && l1_->probe(l)) l1_->access(l);  // write-through, no allocation on a miss
      send(l, true, AccessKind::Store, id | kBypassTag);
      ++op.pending;
    } else if (l1_ && config_.memory.l1.cache_global && l1_->access(l)) {
      ++stats_.l1_hits;
      op.ready = std::max(op.ready, now + config_.memory.l1.latency);
    } else {
      ++stats_.l1_misses;
      switch (mshrs_.add(l, id)) {
        case MshrTable::Result::NewMiss:
          send(l, false, AccessKind::Load, l);
          break;
        case MshrTable::Result::Merged:
          ++stats_.l1_mshr_merges;
          break;
        case MshrTable::Result::Full:
          send(l, false, AccessKind::Load, id | kBypassTag);
          break;
      }
      ++op.pending;
    }
  }
  if (op.pending == 0) {
    uint64_t ready = op.ready;
    op.used = false;
    free_memory_ops_.push_back(id);
    return ready;
  }
  op.writes_registers = !write && operands_->at(p.pc).n_writes > 0 && !(in.op == Opcode::Red);
  ++ws.outstanding;
  ++outstanding_ops_;
  if (!write) {
    const unsigned s = static_cast<unsigned>(schedulers_.size());
    schedulers_[op.warp % s]->long_latency_stall(op.warp / s);
    sched_[op.warp % s].stale = true;
  }
  return op.writes_registers ? kNever : done;
}

void SmCore::complete_memory_op(unsigned id, uint64_t now) {
  MemoryOp& op = memory_ops_[id];
  WarpSlot& ws = warps_[op.warp];
  --ws.outstanding;
  --outstanding_ops_;
  may_finish_ |= gates_[op.warp].done && ws.outstanding == 0 && ws.writebacks == 0;
  const uint64_t ready = std::max(op.ready, now + config_.memory.l1.latency);
  if (op.writes_registers && op.pieces) {
    const WarpPiece* pieces = &op_pieces_[uint64_t(id) * warp_size_];
    for (unsigned i = 0; i < op.pieces; ++i)
      writebacks_.push(Writeback{ready, pieces[i].warp, op.pc, pieces[i].lanes});
  } else if (op.writes_registers) {
    writebacks_.push(Writeback{ready, op.warp, op.pc, op.lanes});
  }
  op.used = false;
  free_memory_ops_.push_back(id);
}

void SmCore::memory_fault(unsigned id, uint64_t line_addr, AccessKind kind) {
  const MemoryOp& op = memory_ops_[id];
  const WarpSlot& ws = warps_[op.warp];
  const uint64_t* firsts = &lane_firsts_[uint64_t(id) * warp_size_];
  const uint64_t* ends = &lane_ends_[uint64_t(id) * warp_size_];
  // The lowest lane whose span touches the line (every line the op sent was
  // touched by one of its lanes; the lowest lane is the fallback all the same).
  const uint64_t line_end = line_addr + config_.memory.l1.line;
  unsigned lane = lowest_lane(op.global);
  for (LaneMask m = op.global; m; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctzll(m));
    if (firsts[l] < line_end && ends[l] > line_addr) {
      lane = l;
      break;
    }
  }
  const std::string why = "the memory system answered an error for the " +
                          std::string(access_kind_name(kind)) + " of the line at " +
                          hex_string(line_addr) + " (lane " + std::to_string(lane) + "'s address " +
                          hex_string(firsts[lane]) + ")";
  const Warp* warp = &ws.warp;
  unsigned thread_lane = lane;
  if (op.pieces) {
    // A formed warp's SIMD lane: name the thread's own warp and lane.
    const uint32_t t = static_cast<uint32_t>(op_threads_[uint64_t(id) * warp_size_ + lane]);
    warp = &warps_[ctas_[ws.cta].warp_slots[t / warp_size_]].warp;
    thread_lane = t % warp_size_;
  }
  MemoryFault mf(MemoryFault::Reason::OutOfBounds, Space::Global, firsts[lane],
                 static_cast<unsigned>(ends[lane] - firsts[lane]), thread_lane, why);
  issuer_->fault(*warp, ctas_[ws.cta].context, op.pc, thread_lane, "memory fault: " + why, &mf);
}

bool SmCore::response(uint64_t tag, AccessKind kind, uint64_t address, bool ok, uint64_t now) {
  if ((tag & kWritebackTag) == kWritebackTag) {
    --l1_writebacks_in_flight_;
    if (!ok) {
      // No thread waits on a write-back: the fault names the line and the SM.
      FaultSite site;
      site.kernel = launch_->kernel->name;
      site.has_address = true;
      site.address = address;
      const std::string what = "kernel '" + site.kernel +
                               "': memory fault: the memory system answered an error for the "
                               "write-back of the L1 line at " +
                               hex_string(address) + " (SM " + std::to_string(id_) + ")";
      throw KernelFault(what, site);
    }
    if (flushing_ && l1_writebacks_in_flight_ == 0) {
      flushing_ = false;
      stats_.l1_flush_cycles += now - flush_start_;
    }
    return false;
  }
  auto answer = [&](unsigned id) {
    if (!ok) memory_fault(id, address, kind);
    if (--memory_ops_[id].pending == 0) complete_memory_op(id, now);
  };
  if (tag & kBypassTag) {
    answer(static_cast<unsigned>(tag & ~kBypassTag));
    return true;
  }
  mshrs_.fill(tag, waiters_);
  if (ok && l1_ && config_.memory.l1.cache_global) {
    // A write-back store waiting on the line (fetch-on-write) leaves it dirty.
    bool dirty = false;
    if (write_back_)
      for (uint64_t id : waiters_) dirty = dirty || memory_ops_[id].store;
    const MemoryOp& first = memory_ops_[waiters_.front()];
    evict(l1_->fill(tag, dirty), warps_[first.warp].global_id, first.pc);
  }
  for (uint64_t id : waiters_) answer(static_cast<unsigned>(id));
  return true;
}

bool SmCore::start_l1_flush(uint64_t now) {
  if (write_back_) {
    dirty_lines_.clear();
    l1_->take_dirty(dirty_lines_);
    for (uint64_t l : dirty_lines_) write_back_line(l, 0, 0);
    stats_.l1_flush_writebacks += dirty_lines_.size();
  }
  flushing_ = l1_writebacks_in_flight_ > 0;
  flush_start_ = now;
  return !flushing_;
}

void SmCore::write_back_line(uint64_t line_addr, uint32_t warp, Pc pc) {
  outbox_.push_back(MemoryRequest{line_addr, config_.memory.l1.line, true, AccessKind::Writeback,
                                  kWritebackTag, warp, pc});
  ++stats_.l1_writebacks;
  ++l1_writebacks_in_flight_;
}

void SmCore::evict(const CacheTags::Victim& victim, uint32_t warp, Pc pc) {
  if (victim.valid && victim.dirty) write_back_line(victim.line_addr, warp, pc);
}

void SmCore::store_write_back(uint64_t l, unsigned id, uint32_t warp, Pc pc, uint64_t now) {
  MemoryOp& op = memory_ops_[id];
  const unsigned line = config_.memory.l1.line;
  if (l1_->access(l)) {  // hit: the line becomes dirty, nothing leaves the SM
    ++stats_.l1_hits;
    l1_->mark_dirty(l);
    op.ready = std::max(op.ready, now + config_.memory.l1.latency);
    return;
  }
  ++stats_.l1_misses;
  const uint64_t* firsts = &lane_firsts_[uint64_t(id) * warp_size_];
  const uint64_t* ends = &lane_ends_[uint64_t(id) * warp_size_];
  if (spans_cover_line(firsts, ends, op.global, l, line)) {
    // Every byte is written: allocate dirty without reading the line.
    evict(l1_->fill(l, true), warp, pc);
    op.ready = std::max(op.ready, now + config_.memory.l1.latency);
    return;
  }
  // A partial write: fetch the line first (write-allocate, fetch-on-write),
  // dirty when it arrives. Without an MSHR the store goes to the L2 itself.
  switch (mshrs_.add(l, id)) {
    case MshrTable::Result::NewMiss:
      outbox_.push_back(MemoryRequest{l, line, false, AccessKind::Load, l, warp, pc});
      op.store = true;
      break;
    case MshrTable::Result::Merged:
      ++stats_.l1_mshr_merges;
      op.store = true;
      break;
    case MshrTable::Result::Full:
      outbox_.push_back(MemoryRequest{l, line, true, AccessKind::Store, id | kBypassTag, warp, pc});
      break;
  }
  ++op.pending;
}

void SmCore::finish_warp(unsigned slot) {
  WarpSlot& ws = warps_[slot];
  gates_[slot].finished = true;
  WarpIssuer::add_counters(ws.warp, run_);
  const unsigned s = static_cast<unsigned>(schedulers_.size());
  schedulers_[slot % s]->warp_finished(slot / s);
  sched_[slot % s].stale = true;
  if (rotation_ != Rotation::None) sched_[slot % s].live &= ~(uint64_t(1) << (slot / s));
  --ctas_[ws.cta].live;
  --resident_warps_;
}

void SmCore::maybe_retire(unsigned c, TickResult& result) {
  CtaSlot& cta = ctas_[c];
  if (!cta.used || cta.live) return;
  for (unsigned slot : cta.warp_slots) gates_[slot].used = false;
  cta.used = false;
  cta.env.reset();
  --resident_ctas_;
  result.retired.push_back(cta.linear);
}

// Inline, like rotation_start(): tick() asks once per scheduler per cycle.
inline uint64_t& SmCore::slot_bin(Stall cause) {
  // The bin of each cause, in Stall's order (a pointer table built per call
  // was 0.5% of a compute-bound run's instructions; a switch is a call).
  static constexpr uint64_t SmStats::*kBins[] = {&SmStats::slot_issued,     &SmStats::slot_idle,
                                                 &SmStats::slot_scoreboard, &SmStats::slot_pipeline,
                                                 &SmStats::slot_collector,  &SmStats::slot_barrier,
                                                 &SmStats::slot_control,    &SmStats::slot_memory};
  static_assert(sizeof(kBins) / sizeof(kBins[0]) == static_cast<unsigned>(Stall::Memory) + 1,
                "one bin per Stall");
  return stats_.*kBins[static_cast<unsigned>(cause)];
}

void SmCore::tick(uint64_t now, TickResult& result) {
  result.next = kNever;
  result.retired.clear();
  // The cycles slept through since the last tick kept the last tick's causes.
  if (now > accounted_until_) {
    const uint64_t gap = now - accounted_until_;
    stats_.cycles += gap;
    stats_.resident_warp_cycles += gap * resident_warps_;
    for (const SchedulerState& st : sched_) {
      // An issued slot is not repeated by sleeping: nothing issues while asleep.
      slot_bin(st.last == Stall::Issued ? Stall::Idle : st.last) += gap;
    }
  }
  while (!writebacks_.empty() && writebacks_.top().cycle <= now) {
    const Writeback wbk = writebacks_.top();
    writebacks_.pop();
    WarpSlot& ws = warps_[wbk.warp];
    SlotGate& g = gates_[wbk.warp];
    ws.scoreboard.release(operands_->at(wbk.pc), wbk.lanes);
    --ws.writebacks;
    g.blocked = Stall::Issued;
    may_finish_ |= g.done && ws.writebacks == 0 && ws.outstanding == 0;
  }
  if (compacting_) {
    // A call or return waiting for its CTA's writes to drain.
    for (CtaSlot& cta : ctas_)
      if (cta.used && cta.sync_pending) complete_sync(cta, now);
  }
  wake_hint_ = kNever;
  bool issued = false;
  const unsigned nsched = static_cast<unsigned>(schedulers_.size());
  for (unsigned s = 0; s < nsched; ++s) {
    SchedulerState& st = sched_[s];
    Stall cause = Stall::Idle;
    if (rotation_ != Rotation::None) {
      // The live slots from start() up, then those below it: order()'s list.
      // start() is asked again only after a call that may have moved it.
      if (st.stale) {
        st.start = rotation_start(s);
        st.stale = false;
      }
      const uint64_t from_first = ~uint64_t(0) << st.start;
      uint64_t part[2] = {st.live & from_first, st.live & ~from_first};
      for (uint64_t bits : part) {
        for (; bits && cause != Stall::Issued; bits &= bits - 1) {
          Stall st = try_issue(s, static_cast<unsigned>(__builtin_ctzll(bits)), now);
          if (st == Stall::Issued || cause == Stall::Idle) cause = st;
        }
      }
    } else {
      std::vector<unsigned>& order = orders_[s];
      if (st.stale || !stable_orders_) {
        schedulers_[s]->order(order);
        st.stale = false;
      }
      for (unsigned local : order) {
        Stall st = try_issue(s, local, now);
        if (st == Stall::Issued) {
          cause = st;
          break;
        }
        if (cause == Stall::Idle) cause = st;
      }
    }
    issued |= cause == Stall::Issued;
    st.last = cause;
    ++slot_bin(cause);
  }
  ++stats_.cycles;
  stats_.resident_warp_cycles += resident_warps_;
  accounted_until_ = now + 1;

  const bool in_flight = !writebacks_.empty() || outstanding_ops_ > 0;
  // Warps leave only after a cycle in which a done warp's last write completed.
  if (may_finish_) {
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
  if (!result.retired.empty() && resident_ctas_ == 0) return;  // idle until the next CTA
  if (issued || !result.retired.empty()) {
    result.next = now + 1;
    return;
  }
  if (!writebacks_.empty()) result.next = std::min(result.next, writebacks_.top().cycle);
  if (wake_hint_ != kNever) result.next = std::min(result.next, std::max(wake_hint_, now + 1));
  if (result.next == kNever && !in_flight) {
    // Nothing in flight and nothing can issue: a CTA whose live warps all wait
    // at barriers can never go on.
    for (CtaSlot& cta : ctas_) {
      if (!cta.used) continue;
      // Under compaction the block stack detects barrier deadlocks itself,
      // except among warps that run a CAPRI bypass on their own.
      const bool at_barrier = std::any_of(cta.warps.begin(), cta.warps.end(),
                                          [](const Warp* w) { return w->at_barrier; });
      if (cta.lockstep && !at_barrier)
        throw std::logic_error("SM " + std::to_string(id_) + ": a compacting CTA stalled with " +
                               std::to_string(cta.arrived) + " of " + std::to_string(cta.formed) +
                               " formed warps at pc " + std::to_string(cta.sync_pc));
      CtaBarriers::deadlock(cta.warps, launch_->block.count(), *issuer_, cta.context);
    }
  }
}

}  // namespace warptlm
