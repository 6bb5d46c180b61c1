// The SM's issue path under thread block compaction (compaction tbc or ideal):
// each CTA runs under a block-wide reconvergence stack (CompactingCtaRunner)
// and its warp slots carry the warps compaction forms for the stack's top
// entry. Formed warps issue on their own through straight-line code; at a
// synchronisation point (an instruction that needs the CTA-wide outcome, or
// the top entry's reconvergence pc) each waits until every formed warp of the
// set has arrived, the synchronising instruction then executes in lockstep
// for all their threads, the stack moves, and the next set of warps is formed.
// Under CAPRI a set of uncompacted warps reaching a branch predicted not to
// pay for compaction runs on instead: each static warp runs the branch's
// region under its own reconvergence unit, and the set meets again at the
// branch's reconvergence pc.
// docs/compaction.md ("Timing") gives the model and its choices.
#include <algorithm>

#include "sm/pipeline/unit_kind.h"
#include "sm/sm_core.h"

namespace warptlm {

bool SmCore::synchronises(const Instruction& in, const Program& program, Pc pc) {
  switch (in.op) {
    case Opcode::Bra: {
      // A conditional branch needs every thread's outcome before the stack
      // can split; an unconditional one is followed by each formed warp.
      const BranchInfo* b = program.branch_at(pc);
      return b == nullptr || b->conditional;
    }
    case Opcode::Call:
    case Opcode::Ret:
    case Opcode::Exit:
    case Opcode::Bar:
    case Opcode::Trap:
    // Warp-level operations read other lanes of a static warp, which may sit
    // in other formed warps: they execute once all have arrived.
    case Opcode::Vote:
    case Opcode::Shfl:
    case Opcode::Activemask:
    case Opcode::Redux:
      return true;
    default:
      return false;
  }
}

void SmCore::start_compacting_cta(CtaSlot& cta) {
  // Per CTA: the runner holds the launch's issuer and the CTA's block stack.
  cta.lockstep = std::make_unique<CompactingCtaRunner>(*issuer_, *launch_->memory, exec_config_,
                                                       nullptr, nullptr);
  if (capri_) cta.lockstep->share_predictor(capri_.get());  // one table per SM
  cta.lockstep->begin(cta.warps);
  cta.lane_of_thread.assign(cta.warps.size() * warp_size_, 0);
  cta.formation_version = ~uint64_t(0);
  cta.arrived = 0;
  cta.sync_pending = false;
  for (unsigned slot : cta.warp_slots) gates_[slot].done = false;
  deal_formed_warps(cta, 0);
}

void SmCore::deal_formed_warps(CtaSlot& cta, uint64_t ready) {
  CompactingCtaRunner& run = *cta.lockstep;
  cta.arrived = 0;
  if (run.finished()) {
    // Every thread exited: the slots leave once their writes complete.
    cta.formed = 0;
    for (unsigned slot : cta.warp_slots) {
      warps_[slot].formed = false;
      gates_[slot].done = true;
    }
    may_finish_ = true;
    return;
  }
  const bool changed = run.version() != cta.formation_version;
  const std::vector<FormedWarp>& formed = run.formation();
  if (changed) {
    cta.formation_version = run.version();
    cta.formed = static_cast<unsigned>(formed.size());
    ++stats_.warp_formations;
    stats_.formed_warps += formed.size();
    ready += config_.sm.warp_formation_cycles;
  }
  // A set dealt by a tick that issued nothing (a bypass's last rejoin) must
  // still wake the SM.
  wake_hint_ = std::min(wake_hint_, ready);
  for (unsigned slot : cta.warp_slots) {
    WarpSlot& ws = warps_[slot];
    ws.formed = ws.arrived = ws.bypass = false;
  }
  cta.bypassing = false;
  if (changed) {
    // A set whose every warp is one whole static warp (an entry that was not
    // compacted, or one compaction left as it was) keeps each in its static
    // warp's slot, where a CAPRI bypass can run that warp itself; other sets
    // fill the CTA's slots in order.
    cta.static_set = true;
    uint64_t seen = 0;  // static warps with a formed warp (sets of up to 64 warps)
    for (const FormedWarp& fw : formed) {
      int64_t w = -1;
      for (int32_t t : fw.lane_thread) {
        if (t < 0) continue;
        const int64_t tw = t / static_cast<int32_t>(warp_size_);
        if (w >= 0 && tw != w) cta.static_set = false;
        w = tw;
      }
      if (w < 0 || w >= 64 || ((seen >> w) & 1)) {
        cta.static_set = false;
        continue;
      }
      seen |= uint64_t(1) << w;
    }
  }
  for (size_t k = 0; k < formed.size(); ++k) {
    const FormedWarp& fw = formed[k];
    size_t index = k;
    if (cta.static_set)
      for (int32_t t : fw.lane_thread)
        if (t >= 0) {
          index = static_cast<size_t>(t) / warp_size_;
          break;
        }
    WarpSlot& ws = warps_[cta.warp_slots[index]];
    SlotGate& g = gates_[cta.warp_slots[index]];
    ws.formed = true;
    ws.pc = run.pc();
    g.control_ready = std::max(g.control_ready, ready);
    g.blocked = Stall::Issued;
    ws.fetch_pc = kExitPc;
    if (!changed) continue;
    ws.lane_thread = fw.lane_thread;
    pieces_of(fw, warp_size_, ws.pieces);
    ws.lanes = 0;
    for (unsigned h = 0; h < warp_size_; ++h) {
      if (fw.lane_thread[h] < 0) continue;
      ws.lanes |= LaneMask(1) << h;
      cta.lane_of_thread[static_cast<size_t>(fw.lane_thread[h])] = static_cast<uint8_t>(h);
    }
    // Pieces name static warps by slot from here on.
    for (WarpPiece& p : ws.pieces) p.warp = cta.warp_slots[p.warp];
  }
}

bool SmCore::bypasses(WarpSlot& ws, CtaSlot& cta, const Instruction& in) {
  if (!capri_ || in.op != Opcode::Bra || !cta.static_set) return false;
  // Only a region the warp can run alone and leave at one known pc.
  const BranchInfo* b = launch_->program->branch_at(ws.pc);
  if (!b || !b->conditional || !b->structured || b->reconv == kExitPc) return false;
  if (!cta.bypassing) {
    if (cta.arrived > 0) return false;      // the set already waits here
    if (capri_->peek(ws.pc)) return false;  // predicted adequate: synchronise, compact
    cta.bypassing = true;
    cta.bypass_pc = ws.pc;
    cta.bypass_reconv = b->reconv;
  }
  ws.bypass = true;
  ws.exited_before = ws.warp.exited;
  // Its threads, in their logical lanes (a permutation only renames SIMD
  // lanes: addresses, and so coalescing and banks, stay the same).
  LaneMask lanes = 0;
  for (int32_t t : ws.lane_thread)
    if (t >= 0) lanes |= LaneMask(1) << (static_cast<uint32_t>(t) % warp_size_);
  ws.static_lanes = lanes;
  WarpIssuer::add_counters(ws.warp, run_);  // of an earlier bypass
  ws.warp.simt->reset(ws.pc, lanes);
  ws.paths_valid = false;
  gate(ws).blocked = Stall::Issued;
  ws.fetch_pc = kExitPc;
  return true;
}

bool SmCore::rejoin_if_reconverged(WarpSlot& ws, uint64_t now) {
  CtaSlot& cta = ctas_[ws.cta];
  const LaneMask live = ws.static_lanes & ~ws.warp.exited;
  if (live != 0) {
    paths_.clear();
    ws.warp.simt->issuable(paths_);
    if (paths_.size() != 1 || paths_[0].pc != cta.bypass_reconv || paths_[0].mask != live)
      return false;
  }
  ws.bypass = false;
  arrive(ws, cta, cta.bypass_reconv, false, now);
  return true;
}

SmCore::Stall SmCore::try_issue_formed(unsigned sched, unsigned local, unsigned slot,
                                       uint64_t now) {
  WarpSlot& ws = warps_[slot];
  const SlotGate& g = gates_[slot];
  if (!ws.formed) return Stall::Idle;
  if (ws.arrived) return Stall::Control;  // waits for the other formed warps
  if (g.control_ready > now) {            // being formed
    wake_hint_ = std::min(wake_hint_, g.control_ready);
    return Stall::Control;
  }
  fetch(ws, ws.pc, now);
  if (ws.fetch_ready > now) {
    wake_hint_ = std::min(wake_hint_, ws.fetch_ready);
    return Stall::Idle;
  }
  fault_outside_function(ws);
  const Instruction& in = launch_->program->module.at(ws.pc);
  const RegisterOperands& ops = operands_->at(ws.pc);
  // A thread's registers and their pending writes are its static warp's.
  for (const WarpPiece& p : ws.pieces)
    if (warps_[p.warp].scoreboard.blocked(ops, p.lanes)) return Stall::Scoreboard;
  // The register file is addressed per SIMD lane (TBC's requirement): each
  // thread reads its static warp's rows in its own lane's column, so a
  // formed warp's reads conflict exactly as a static warp's do; its banks
  // are booked as its first static warp's.
  uint64_t ready = 0;
  const Stall shared = take_shared_resources(in, ops, ws.pieces.front().warp, now, ready);
  if (shared != Stall::Issued) return shared;
  schedulers_[sched]->issued(local);
  sched_[sched].stale = true;
  CtaSlot& cta = ctas_[ws.cta];
  if (bypasses(ws, cta, in)) {
    // The branch issues as without compaction, splitting the warp's own unit.
    issue(ws, Path{ws.pc, ws.static_lanes, 0}, now, ready);
    ws.taken = ws.executed;
    return Stall::Issued;
  }
  issue_formed(ws, cta, in, now, ready);
  return Stall::Issued;
}

void SmCore::fault_outside_function(WarpSlot& ws) {
  // The issuer faults for the first piece, as the functional executor's
  // lockstep runner does.
  const WarpPiece& piece = ws.pieces.front();
  Warp& w = warps_[piece.warp].warp;
  if (!outside_frame_function(w, ws.pc)) return;
  CtaSlot& cta = ctas_[ws.cta];
  RecordingEnvironment& env = *cta.env;
  env.bind(&w);
  ControlEvent ev;
  issuer_->execute_path(w, Path{ws.pc, piece.lanes, 0}, cta.context, env, ev);
  throw std::logic_error("fault_outside_function: the issuer did not fault at " +
                         hex_string(ws.pc));
}

void SmCore::issue_formed(WarpSlot& ws, CtaSlot& cta, const Instruction& in, uint64_t now,
                          uint64_t operands_ready) {
  const Pc pc = ws.pc;
  const unsigned threads = lane_count(ws.lanes);
  ++stats_.warp_instructions;
  stats_.thread_instructions += threads;
  ++run_.warp_instructions;
  ++run_.issuable_paths_sum;  // one path offered to each formed warp
  run_.max_issuable_paths = std::max(run_.max_issuable_paths, 1u);
  const WarpSlot& first = warps_[ws.pieces.front().warp];
  // The launch's count includes this SM's: it is the only check needed.
  check_launch_budget(first.warp, cta, Path{pc, ws.pieces.front().lanes, 0});
  if (trace_) trace_->issued(TraceRecord{now, id_, ws.global_id, 0, pc, ws.lanes});
  gate(ws).control_ready = now + 1;
  ws.fetch_pc = kExitPc;
  uint64_t wb = units_.issue(unit_of(in), now) + (operands_ready - (now + 1));
  if (synchronises(in, *launch_->program, pc)) {
    // Executed with every formed warp's threads once all have arrived.
    cta.sync_ready = std::max(cta.sync_ready, wb);
    arrive(ws, cta, pc, true, now);
    return;
  }
  // Straight-line code: each static warp's piece executes now.
  RecordingEnvironment& env = *cta.env;
  env.accesses.clear();
  env.cycle = now;
  ControlEvent ev;
  Pc next = pc + kInstrBytes;
  bool marker = false;
  for (const WarpPiece& p : ws.pieces) {
    Warp& w = warps_[p.warp].warp;
    env.bind(&w);
    const size_t before = env.accesses.size();
    issuer_->execute_path(w, Path{pc, p.lanes, 0}, cta.context, env, ev);
    // Accesses name the SIMD lane the thread runs in (coalescing and banks
    // see the formed warp).
    const size_t base = size_t(w.index) * warp_size_;
    for (size_t i = before; i < env.accesses.size(); ++i)
      env.accesses[i].lane = cta.lane_of_thread[base + env.accesses[i].lane];
    if (ev.kind == Control::Branch) next = ev.target;  // unconditional: every thread goes
    marker = ev.marker;
  }
  run_.thread_instructions += threads;
  if (marker) ++run_.marker_instructions;
  const RegisterOperands& ops = operands_->at(pc);
  if (!env.accesses.empty()) wb = std::max(wb, time_memory(ws, Path{pc, ws.lanes, 0}, in, now));
  if (ops.n_writes) {
    for (const WarpPiece& p : ws.pieces) {
      WarpSlot& owner = warps_[p.warp];
      owner.scoreboard.reserve(ops, p.lanes);
      ++owner.writebacks;
      if (wb != kNever) writebacks_.push(Writeback{wb, p.warp, pc, p.lanes});
    }
  }
  ws.pc = next;
  if (next == cta.lockstep->rpc()) arrive(ws, cta, next, false, now);
}

void SmCore::arrive(WarpSlot& ws, CtaSlot& cta, Pc pc, bool at_instruction, uint64_t now) {
  ws.arrived = true;
  ws.arrived_at = now;
  cta.sync_pc = pc;
  cta.sync_at_instruction = at_instruction;
  if (++cta.arrived < cta.formed) return;
  if (!complete_sync(cta, now)) cta.sync_pending = true;
}

bool SmCore::complete_sync(CtaSlot& cta, uint64_t now) {
  CompactingCtaRunner& run = *cta.lockstep;
  const Instruction& in = launch_->program->module.at(cta.sync_pc);
  // An exit inside a device function may leave the function too.
  bool in_callee = false;
  for (unsigned slot : cta.warp_slots) in_callee |= warps_[slot].warp.frames.size() > 1;
  const bool frame_change =
      cta.sync_at_instruction &&
      (in.op == Opcode::Call || in.op == Opcode::Ret || (in.op == Opcode::Exit && in_callee));
  if (frame_change) {
    // A call or return switches register frames: earlier writes drain first.
    for (unsigned slot : cta.warp_slots)
      if (warps_[slot].formed)
        for (const WarpPiece& p : warps_[slot].pieces)
          if (!warps_[p.warp].scoreboard.empty()) return false;
  }
  cta.sync_pending = false;
  ++stats_.compaction_syncs;
  for (unsigned slot : cta.warp_slots)
    if (warps_[slot].formed) stats_.compaction_sync_cycles += now - warps_[slot].arrived_at;
  if (cta.bypassing) {
    // Every warp of the set ran the bypassed region and reached its
    // reconvergence pc: the block stack learns what they did there.
    ++stats_.capri_bypasses;
    const size_t nw = cta.warp_slots.size();
    taken_scratch_.assign(nw, 0);
    exited_scratch_.assign(nw, 0);
    for (size_t k = 0; k < nw; ++k) {
      const WarpSlot& s = warps_[cta.warp_slots[k]];
      if (!s.formed) continue;
      taken_scratch_[k] = s.taken;
      exited_scratch_[k] = s.warp.exited & ~s.exited_before;
    }
    run.rejoin(cta.bypass_pc, taken_scratch_, exited_scratch_, cta.bypass_reconv, run_);
  } else {
    // The formed warps ran the same straight-line code up to here.
    run.jump(cta.sync_pc);
    if (cta.sync_at_instruction) step_synchronised(cta, frame_change, now);
  }
  deal_formed_warps(cta, now + 1);
  return true;
}

void SmCore::step_synchronised(CtaSlot& cta, bool frame_change, uint64_t now) {
  // The threads of the set, per static warp, before the step moves them.
  piece_scratch_.clear();
  for (unsigned slot : cta.warp_slots)
    if (warps_[slot].formed)
      for (const WarpPiece& p : warps_[slot].pieces) piece_scratch_.push_back(p);
  const RegisterOperands& ops = operands_->at(cta.sync_pc);
  cta.lockstep->step(cta.context, run_);
  if (frame_change) {
    for (const WarpPiece& p : piece_scratch_) {
      WarpSlot& owner = warps_[p.warp];
      owner.scoreboard.reset(static_cast<unsigned>(
          launch_->program->module.functions[owner.warp.frames.back().function].regs.size()));
    }
  } else if (ops.n_writes) {
    // A warp-level operation's results (vote, shfl, activemask, redux).
    for (const WarpPiece& p : piece_scratch_) {
      WarpSlot& owner = warps_[p.warp];
      owner.scoreboard.reserve(ops, p.lanes);
      ++owner.writebacks;
      writebacks_.push(Writeback{std::max(cta.sync_ready, now + 1), p.warp, cta.sync_pc, p.lanes});
    }
  }
  cta.sync_ready = 0;
}

}  // namespace warptlm
