#include "sm/compaction_issue.h"

#include <algorithm>
#include <stdexcept>

namespace warptlm {

CompactionIssue::CompactionIssue(CompactionHost& host, const ExecConfig& exec, const Params& params)
    : host_(host),
      exec_(exec),
      params_(params),
      slots_(params.warp_slots),
      ctas_(params.cta_slots),
      unit_(make_compaction_unit(exec.compaction, exec.compaction_setup())),
      selective_(unit_ && unit_->selective()) {}

bool CompactionIssue::synchronises(const Instruction& in, const Program& program, Pc pc,
                                   bool sync_uniform_branches) {
  switch (in.op) {
    case Opcode::Bra: {
      // A conditional branch needs every thread's outcome before the stack
      // can split; an unconditional one, or one that cannot split the CTA
      // when so configured, is followed by each formed warp.
      const BranchInfo* b = program.branch_at(pc);
      return b == nullptr || (b->conditional && (sync_uniform_branches || !b->cta_uniform));
    }
    case Opcode::Call:
    case Opcode::Ret:
    case Opcode::Exit:
    case Opcode::Bar:
    case Opcode::Trap:
      return true;
    default:
      // Warp-level operations read other lanes of a static warp, which may
      // sit in other formed warps: they execute once all have arrived.
      return is_warp_collective(in.op);
  }
}

void CompactionIssue::start_cta(unsigned c) {
  const CompactionHost::Cta cta = host_.cta(c);
  Cta& cc = ctas_[c];
  // Per CTA: the runner holds the launch's issuer and the CTA's block stack.
  // The SM's unit serves all its CTAs (CAPRI: one table per SM).
  cc.lockstep = std::make_unique<CompactingCtaRunner>(host_.issuer(), host_.memory(), exec_,
                                                      unit_.get(), nullptr, nullptr);
  cc.lockstep->begin(cta.warps);
  cc.lane_of_thread.assign(cta.warps.size() * params_.warp_size, 0);
  cc.formation_version = ~uint64_t(0);
  cc.arrived = 0;
  cc.sync_pending = false;
  for (unsigned slot : cta.warp_slots) host_.set_done(slot, false);
  deal_formed_warps(c, 0);
}

void CompactionIssue::deal_formed_warps(unsigned c, uint64_t ready) {
  const CompactionHost::Cta cta = host_.cta(c);
  Cta& cc = ctas_[c];
  CompactingCtaRunner& run = *cc.lockstep;
  const unsigned warp_size = params_.warp_size;
  cc.arrived = 0;
  if (run.finished()) {
    // Every thread exited: the slots leave once their writes complete.
    cc.formed = 0;
    for (unsigned slot : cta.warp_slots) {
      slots_[slot].formed = false;
      host_.set_done(slot, true);
    }
    return;
  }
  const bool changed = run.version() != cc.formation_version;
  const std::vector<FormedWarp>& formed = run.formation();
  if (changed) {
    cc.formation_version = run.version();
    cc.formed = static_cast<unsigned>(formed.size());
    ++host_.sm_stats().warp_formations;
    host_.sm_stats().formed_warps += formed.size();
    ready += params_.warp_formation_cycles;
  }
  // A set dealt by a tick that issued nothing (a bypass's last rejoin) must
  // still wake the SM.
  host_.wake_at(ready);
  for (unsigned slot : cta.warp_slots) {
    Slot& f = slots_[slot];
    f.formed = f.arrived = f.bypass = false;
  }
  cc.bypassing = false;
  if (changed) {
    // A set whose every warp is one whole static warp (an entry that was not
    // compacted, or one compaction left as it was) keeps each in its static
    // warp's slot, where a CAPRI bypass can run that warp itself; other sets
    // fill the CTA's slots in order.
    cc.static_set = true;
    uint64_t seen = 0;  // static warps with a formed warp (sets of up to 64 warps)
    for (const FormedWarp& fw : formed) {
      int64_t w = -1;
      for (int32_t t : fw.lane_thread) {
        if (t < 0) continue;
        const int64_t tw = t / static_cast<int32_t>(warp_size);
        if (w >= 0 && tw != w) cc.static_set = false;
        w = tw;
      }
      if (w < 0 || w >= 64 || ((seen >> w) & 1)) {
        cc.static_set = false;
        continue;
      }
      seen |= uint64_t(1) << w;
    }
  }
  if (changed) {
    cc.leader_lane.assign(cta.warps.size(), static_cast<uint8_t>(warp_size));
    for (const FormedWarp& fw : formed)
      for (int32_t t : fw.lane_thread) {
        if (t < 0) continue;
        uint8_t& leader = cc.leader_lane[static_cast<size_t>(t) / warp_size];
        leader = std::min(leader, static_cast<uint8_t>(static_cast<size_t>(t) % warp_size));
      }
  }
  for (size_t k = 0; k < formed.size(); ++k) {
    const FormedWarp& fw = formed[k];
    size_t index = k;
    if (cc.static_set)
      for (int32_t t : fw.lane_thread)
        if (t >= 0) {
          index = static_cast<size_t>(t) / warp_size;
          break;
        }
    const unsigned slot = cta.warp_slots[index];
    Slot& f = slots_[slot];
    f.formed = true;
    f.pc = run.pc();
    host_.deal(slot, ready);
    if (!changed) continue;
    f.lane_thread = fw.lane_thread;
    pieces_of(fw, warp_size, f.pieces);
    f.lanes = 0;
    for (unsigned h = 0; h < warp_size; ++h) {
      if (fw.lane_thread[h] < 0) continue;
      f.lanes |= LaneMask(1) << h;
      cc.lane_of_thread[static_cast<size_t>(fw.lane_thread[h])] = static_cast<uint8_t>(h);
    }
    // Pieces name static warps by slot from here on.
    for (WarpPiece& p : f.pieces) p.warp = cta.warp_slots[p.warp];
  }
}

bool CompactionIssue::bypasses(unsigned slot, const Instruction& in) {
  Slot& f = slots_[slot];
  const CompactionHost::Slot ws = host_.slot(slot);
  Cta& cc = ctas_[ws.cta];
  if (!selective_ || in.op != Opcode::Bra || !cc.static_set) return false;
  if (!synchronises(in, host_.program(), f.pc, params_.sync_uniform_branches)) return false;
  // Only a region the warp can run alone and leave at one known pc.
  const BranchInfo* b = host_.program().branch_at(f.pc);
  if (!b || !b->conditional || !b->structured || b->reconv == kExitPc) return false;
  if (!cc.bypassing) {
    if (cc.arrived > 0) return false;            // the set already waits here
    if (unit_->may_compact(f.pc)) return false;  // synchronise; the unit decides then
    cc.bypassing = true;
    cc.bypass_pc = f.pc;
    cc.bypass_reconv = b->reconv;
  }
  f.bypass = true;
  f.exited_before = ws.warp.exited;
  // Its threads, in their logical lanes (a permutation only renames SIMD
  // lanes: addresses, and so coalescing and banks, stay the same).
  LaneMask lanes = 0;
  for (int32_t t : f.lane_thread)
    if (t >= 0) lanes |= LaneMask(1) << (static_cast<uint32_t>(t) % params_.warp_size);
  f.static_lanes = lanes;
  WarpIssuer::add_counters(ws.warp, host_.launch_counts());  // of an earlier bypass
  ws.warp.simt->reset(f.pc, lanes);
  host_.unit_reset(slot);
  return true;
}

bool CompactionIssue::rejoin(unsigned slot, uint64_t now) {
  Slot& f = slots_[slot];
  const CompactionHost::Slot ws = host_.slot(slot);
  const Cta& cc = ctas_[ws.cta];
  const LaneMask live = f.static_lanes & ~ws.warp.exited;
  if (live != 0) {
    std::vector<Path>& paths = path_scratch_;
    paths.clear();
    ws.warp.simt->issuable(paths);
    if (paths.size() != 1 || paths[0].pc != cc.bypass_reconv || paths[0].mask != live) return false;
  }
  f.bypass = false;
  arrive(slot, cc.bypass_reconv, false, now);
  return true;
}

IssueStall CompactionIssue::try_issue(unsigned sched, unsigned local, unsigned slot, uint64_t now) {
  Slot& f = slots_[slot];
  if (!f.formed || f.arrived) {  // no formed warp, or it waits for the set's others
    host_.slot_waits(slot);
    return f.formed ? IssueStall::Control : IssueStall::Idle;
  }
  if (host_.held(slot, now)) return IssueStall::Control;  // being formed
  if (f.sleep_until > now) {                              // nanosleep
    host_.wake_at(f.sleep_until);
    return IssueStall::Sleep;
  }
  if (!host_.fetched(slot, f.pc, now)) return IssueStall::Idle;
  fault_outside_function(slot);
  const Instruction& in = host_.program().module.at(f.pc);
  const RegisterOperands& ops = host_.operands().at(f.pc);
  // A thread's registers and their pending writes are its static warp's.
  for (const WarpPiece& p : f.pieces)
    if (host_.slot(p.warp).scoreboard.blocked(ops, p.lanes)) return IssueStall::Scoreboard;
  // The register file is addressed per SIMD lane (TBC's requirement): each
  // thread reads its static warp's rows in its own lane's column, so a
  // formed warp's reads conflict exactly as a static warp's do; its banks
  // are booked as its first static warp's.
  uint64_t ready = 0;
  const IssueStall shared = host_.take_shared_resources(in, ops, f.pieces.front().warp, now, ready);
  if (shared != IssueStall::Issued) return shared;
  host_.scheduler_issued(sched, local);
  if (bypasses(slot, in)) {
    // The branch issues as without compaction, splitting the warp's own unit.
    host_.issue_own(slot, Path{f.pc, f.static_lanes, 0}, now, ready);
    f.taken = f.executed;
    return IssueStall::Issued;
  }
  issue_formed(slot, in, now, ready);
  return IssueStall::Issued;
}

void CompactionIssue::fault_outside_function(unsigned slot) {
  // The issuer faults for the first piece, as the functional executor's
  // lockstep runner does.
  const Slot& f = slots_[slot];
  const WarpPiece& piece = f.pieces.front();
  Warp& w = host_.slot(piece.warp).warp;
  const Function& fn = host_.program().module.functions[w.frames.back().function];
  if (f.pc >= fn.begin && f.pc < fn.end) return;
  const CompactionHost::Cta cta = host_.cta(host_.slot(slot).cta);
  RecordingEnvironment& env = cta.environment;
  env.bind(&w);
  ControlEvent ev;
  host_.issuer().execute_path(w, Path{f.pc, piece.lanes, 0}, cta.context, env, ev);
  throw std::logic_error("fault_outside_function: the issuer did not fault at " + hex_string(f.pc));
}

void CompactionIssue::issue_formed(unsigned slot, const Instruction& in, uint64_t now,
                                   uint64_t operands_ready) {
  Slot& f = slots_[slot];
  const unsigned c = host_.slot(slot).cta;
  const CompactionHost::Cta cta = host_.cta(c);
  Cta& cc = ctas_[c];
  const Pc pc = f.pc;
  const unsigned threads = lane_count(f.lanes);
  SmStats& stats = host_.sm_stats();
  RunStats& run = host_.launch_counts();
  ++stats.warp_instructions;
  stats.thread_instructions += threads;
  ++run.warp_instructions;
  ++run.issuable_paths_sum;  // one path offered to each formed warp
  run.max_issuable_paths = std::max(run.max_issuable_paths, 1u);
  const WarpPiece& first = f.pieces.front();
  uint64_t wb = host_.issue_formed(slot, in, pc, f.lanes, host_.slot(first.warp).warp, first.lanes,
                                   now, operands_ready);
  if (synchronises(in, host_.program(), pc, params_.sync_uniform_branches)) {
    // Executed with every formed warp's threads once all have arrived.
    cc.sync_ready = std::max(cc.sync_ready, wb);
    arrive(slot, pc, true, now);
    return;
  }
  // Straight-line code: each static warp's piece executes now.
  RecordingEnvironment& env = cta.environment;
  env.accesses.clear();
  env.cycle = now;
  ControlEvent ev;
  Pc next = pc + kInstrBytes;
  bool marker = false;
  const unsigned warp_size = params_.warp_size;
  const WarpIssuer& issuer = host_.issuer();
  // A conditional branch here is one the CTA's threads decide alike
  // (synchronises()): the formed warp follows it as its threads all do.
  const bool conditional = in.op == Opcode::Bra && in.has_guard;
  bool taken = false, not_taken = false;
  for (const WarpPiece& p : f.pieces) {
    Warp& w = host_.slot(p.warp).warp;
    env.bind(&w);
    const size_t before = env.accesses.size();
    const IssueResult r = issuer.execute_path(w, Path{pc, p.lanes, 0}, cta.context, env, ev);
    if (conditional) {
      taken |= ev.executed != 0;
      not_taken |= ev.executed != p.lanes;
      // Once per static warp, as the lockstep runner counts a branch.
      if (static_cast<unsigned>(__builtin_ctzll(p.lanes)) == cc.leader_lane[w.index])
        WarpIssuer::count_branch(r, p.lanes, run);
    }
    if (r.outcome.sleep_ns)  // a formed warp sleeps as long as its longest request
      f.sleep_until = std::max(f.sleep_until, now + 1 + env.cycles_for_ns(r.outcome.sleep_ns));
    // Accesses name the SIMD lane the thread runs in (coalescing and banks
    // see the formed warp).
    const size_t base = size_t(w.index) * warp_size;
    for (size_t i = before; i < env.accesses.size(); ++i)
      env.accesses[i].lane = cc.lane_of_thread[base + env.accesses[i].lane];
    if (ev.kind == Control::Branch && !conditional) next = ev.target;  // every thread goes
    marker = ev.marker;
  }
  if (conditional) {
    if (taken && not_taken)
      throw std::logic_error("SM " + std::to_string(params_.sm_id) + ": the branch at pc " +
                             hex_string(pc) +
                             ", proved CTA-uniform by the frontend, split a formed warp");
    if (taken) next = ev.target;
  }
  run.thread_instructions += threads;
  if (marker) ++run.marker_instructions;
  if (!env.accesses.empty())
    wb = std::max(wb, host_.time_memory(slot, Path{pc, f.lanes, 0}, in, now));
  if (host_.operands().at(pc).n_writes)
    for (const WarpPiece& p : f.pieces) host_.write_back(p.warp, pc, p.lanes, wb);
  f.pc = next;
  if (next == cc.lockstep->rpc()) arrive(slot, next, false, now);
}

void CompactionIssue::arrive(unsigned slot, Pc pc, bool at_instruction, uint64_t now) {
  Slot& f = slots_[slot];
  const unsigned c = host_.slot(slot).cta;
  Cta& cc = ctas_[c];
  f.arrived = true;
  f.arrived_at = now;
  // The set's warps ran the same code, so they meet at one point; anything
  // else is a model error (a branch wrongly proved CTA-uniform, say).
  if (cc.arrived > 0 && (pc != cc.sync_pc || at_instruction != cc.sync_at_instruction))
    throw std::logic_error("SM " + std::to_string(params_.sm_id) + ": the formed warps of a CTA " +
                           "met at different points, pc " + hex_string(cc.sync_pc) + " and " +
                           hex_string(pc));
  cc.sync_pc = pc;
  cc.sync_at_instruction = at_instruction;
  if (++cc.arrived < cc.formed) return;
  if (!complete_sync(c, now)) cc.sync_pending = true;
}

void CompactionIssue::complete_pending_syncs(uint64_t now) {
  // (A CTA whose set waits here has threads left: it cannot have retired.)
  for (unsigned c = 0; c < ctas_.size(); ++c)
    if (ctas_[c].sync_pending) complete_sync(c, now);
}

bool CompactionIssue::complete_sync(unsigned c, uint64_t now) {
  const CompactionHost::Cta cta = host_.cta(c);
  Cta& cc = ctas_[c];
  CompactingCtaRunner& run = *cc.lockstep;
  const Instruction& in = host_.program().module.at(cc.sync_pc);
  // An exit inside a device function may leave the function too.
  bool in_callee = false;
  for (const Warp* w : cta.warps) in_callee |= w->frames.size() > 1;
  const bool frame_change =
      cc.sync_at_instruction &&
      (in.op == Opcode::Call || in.op == Opcode::Ret || (in.op == Opcode::Exit && in_callee));
  if (frame_change) {
    // A call or return switches register frames: earlier writes drain first.
    for (unsigned slot : cta.warp_slots)
      if (slots_[slot].formed)
        for (const WarpPiece& p : slots_[slot].pieces)
          if (!host_.slot(p.warp).scoreboard.empty()) return false;
  }
  cc.sync_pending = false;
  SmStats& stats = host_.sm_stats();
  ++stats.compaction_syncs;
  uint64_t waited = 0;
  for (unsigned slot : cta.warp_slots)
    if (slots_[slot].formed) waited += now - slots_[slot].arrived_at;
  stats.compaction_sync_cycles += waited;
  if (cc.bypassing) {
    // Every warp of the set ran the bypassed region and reached its
    // reconvergence pc: the block stack learns what they did there.
    ++stats.capri_bypasses;
    const size_t nw = cta.warp_slots.size();
    taken_scratch_.assign(nw, 0);
    exited_scratch_.assign(nw, 0);
    for (size_t k = 0; k < nw; ++k) {
      const unsigned slot = cta.warp_slots[k];
      const Slot& f = slots_[slot];
      if (!f.formed) continue;
      taken_scratch_[k] = f.taken;
      exited_scratch_[k] = cta.warps[k]->exited & ~f.exited_before;
    }
    run.rejoin(cc.bypass_pc, taken_scratch_, exited_scratch_, cc.bypass_reconv,
               host_.launch_counts());
  } else {
    // The formed warps ran the same straight-line code up to here.
    run.jump(cc.sync_pc);
    if (cc.sync_at_instruction) {
      step_synchronised(c, frame_change, now);
      if (run.stepped_uniform_branch()) {
        ++stats.compaction_uniform_syncs;
        stats.compaction_uniform_sync_cycles += waited;
      }
    }
  }
  deal_formed_warps(c, now + 1);
  return true;
}

void CompactionIssue::step_synchronised(unsigned c, bool frame_change, uint64_t now) {
  const CompactionHost::Cta cta = host_.cta(c);
  Cta& cc = ctas_[c];
  // The threads of the set, per static warp, before the step moves them.
  piece_scratch_.clear();
  for (unsigned slot : cta.warp_slots)
    if (slots_[slot].formed)
      for (const WarpPiece& p : slots_[slot].pieces) piece_scratch_.push_back(p);
  const RegisterOperands& ops = host_.operands().at(cc.sync_pc);
  cc.lockstep->step(cta.context, host_.launch_counts());
  if (frame_change) {
    const Module& module = host_.program().module;
    for (const WarpPiece& p : piece_scratch_) {
      const CompactionHost::Slot owner = host_.slot(p.warp);
      owner.scoreboard.reset(
          static_cast<unsigned>(module.functions[owner.warp.frames.back().function].regs.size()));
    }
  } else if (ops.n_writes) {
    // A warp-level operation's results (vote, shfl, activemask, redux).
    for (const WarpPiece& p : piece_scratch_)
      host_.write_back(p.warp, cc.sync_pc, p.lanes, std::max(cc.sync_ready, now + 1));
  }
  cc.sync_ready = 0;
}

void CompactionIssue::check_stalled(unsigned c, bool at_barrier) const {
  if (at_barrier) return;
  const Cta& cc = ctas_[c];
  throw std::logic_error("SM " + std::to_string(params_.sm_id) +
                         ": a compacting CTA stalled with " + std::to_string(cc.arrived) + " of " +
                         std::to_string(cc.formed) + " formed warps at pc " +
                         std::to_string(cc.sync_pc));
}

}  // namespace warptlm
