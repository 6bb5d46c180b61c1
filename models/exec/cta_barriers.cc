#include "exec/cta_barriers.h"

namespace warptlm {

bool CtaBarriers::arrive(Warp& w, const Outcome& o, Pc pc, std::vector<Warp*>& warps,
                         uint64_t cta_threads, const WarpIssuer& issuer, const CtaContext& cta) {
  uint32_t id = o.barrier_id;
  if (id >= 16)
    issuer.fault(w, cta, pc, lowest_lane(o.executed),
                 "barrier id " + std::to_string(id) + " out of range 0..15");
  if (arrived_.size() <= id) arrived_.resize(id + 1, 0);
  const Instruction& in = issuer.module().at(pc);
  if (!in.sync) {
    // bar.arrive: counted, never waits; completing the barrier releases
    // the threads waiting at it.
    if (pending_.size() > id && arrived_[id] != 0 && pending_[id].op != BarrierRed::None)
      issuer.fault(w, cta, pc, lowest_lane(o.executed),
                   "bar.arrive on barrier " + std::to_string(id) +
                       " while other threads wait there at bar.red");
    arrived_[id] += lane_count(o.executed);
    return arrived_[id] >= o.barrier_count && release(id, warps);
  }
  if (w.barrier_lanes && w.barrier_id != id)
    issuer.fault(w, cta, pc, lowest_lane(o.executed),
                 "lanes of one warp wait at barriers " + std::to_string(w.barrier_id) + " and " +
                     std::to_string(id) + " at once");
  // Per-thread barriers: the warp stops when its next path would run a waiting
  // lane; until then its other lanes may still arrive.
  w.barrier_lanes |= o.executed;
  if (!w.simt->per_thread_barriers()) w.at_barrier = true;
  w.barrier_id = id;
  w.barrier_pc = pc;
  // PTX: bar.red cannot be mixed with bar.sync, nor its operations with
  // each other, on one barrier at once.
  if (pending_.size() <= id) pending_.resize(id + 1);
  Reduction& red = pending_[id];
  if (arrived_[id] == 0) red.op = in.barrier_red;
  if (red.op != in.barrier_red) {
    const auto form = [](BarrierRed r) {
      return std::string(r == BarrierRed::None   ? "bar.sync"
                         : r == BarrierRed::Popc ? "bar.red.popc"
                         : r == BarrierRed::And  ? "bar.red.and"
                                                 : "bar.red.or");
    };
    issuer.fault(w, cta, pc, lowest_lane(o.executed),
                 form(in.barrier_red) + " on barrier " + std::to_string(id) +
                     " while other threads wait there at " + form(red.op));
  }
  if (in.barrier_red != BarrierRed::None) {
    red.votes += lane_count(o.barrier_votes);
    red.pending.push_back(Pending{&w, w.frames.size() - 1, pc, o.executed});
  }
  arrived_[id] += lane_count(o.executed);
  uint64_t expected = o.barrier_count ? o.barrier_count : cta_threads;
  if (arrived_[id] < expected) return false;
  if (red.op != BarrierRed::None) {
    for (const Pending& p : red.pending)
      write_reduction(*p.warp, p.frame, issuer.module().at(p.pc), p.lanes, red.votes, arrived_[id]);
    red.pending.clear();
    red.votes = 0;
  }
  return release(id, warps);
}

bool CtaBarriers::release(uint32_t id, std::vector<Warp*>& warps) {
  arrived_[id] = 0;
  for (Warp* other : warps)
    if (other->barrier_lanes && other->barrier_id == id) {
      other->barrier_lanes = 0;
      other->at_barrier = false;
    }
  return true;
}

void CtaBarriers::write_reduction(Warp& w, size_t frame, const Instruction& red, LaneMask lanes,
                                  uint64_t votes, uint64_t arrived) {
  const Operand& d = red.ops.at(0);
  if (d.kind != Operand::Kind::Reg) return;  // `_`
  const uint64_t value = red.barrier_red == BarrierRed::Popc  ? votes
                         : red.barrier_red == BarrierRed::And ? uint64_t(votes == arrived)
                                                              : uint64_t(votes != 0);
  Frame& f = w.frames.at(frame);
  const WarpRegisters regs{f.regs.data(), f.slots, w.size};
  for (unsigned lane = 0; lane < w.size; ++lane)
    if (lanes >> lane & 1) regs.set(d.reg, lane, value);
}

void CtaBarriers::deadlock(const std::vector<Warp*>& warps, uint64_t cta_threads,
                           const WarpIssuer& issuer, const CtaContext& cta) {
  uint64_t exited = 0;
  for (const Warp* w : warps) exited += lane_count(w->exited);
  const Warp* first = nullptr;
  std::string waiting;
  for (const Warp* w : warps) {
    if (!w->at_barrier) continue;
    if (!first) first = w;
    waiting += (waiting.empty() ? "" : ", ") + std::string("warp ") + std::to_string(w->index) +
               " at barrier " + std::to_string(w->barrier_id) + " (PC " +
               hex_string(w->barrier_pc) + ")";
  }
  if (!first) first = warps.front();
  issuer.fault(*first, cta, first->barrier_pc, lowest_lane(first->valid),
               "barrier deadlock: it can never complete (" + waiting + "; " +
                   std::to_string(exited) + " of the CTA's " + std::to_string(cta_threads) +
                   " threads have exited; threads of one warp may also wait on another path)");
}

}  // namespace warptlm
