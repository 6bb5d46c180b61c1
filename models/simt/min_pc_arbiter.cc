#include "simt/min_pc_arbiter.h"

#include <algorithm>
#include <stdexcept>

namespace warptlm {

MinPcArbiter::MinPcArbiter(unsigned warp_size)
    : warp_size_(warp_size), pc_(warp_size, 0), depth_(warp_size, 0), joins_(warp_size) {}

void MinPcArbiter::reset(Pc entry, LaneMask mask) {
  live_ = mask;
  sel_pc_ = entry;
  sel_mask_ = mask;
  sel_depth_ = 0;
  converged_ = true;
  parked_ = 0;
  calls_.reset(warp_size_);
  joins_.reset(mask);
  counters_ = {};
  counters_.peak_entries = mask ? 1 : 0;
}

void MinPcArbiter::issuable(std::vector<Path>& out) const {
  if (live_) out.push_back({sel_pc_, sel_mask_, 0});
}

void MinPcArbiter::spread() {
  for (unsigned l = 0; l < warp_size_; ++l) {
    pc_[l] = sel_pc_;
    depth_[l] = sel_depth_;
  }
  converged_ = false;
}

void MinPcArbiter::select() {
  sel_mask_ = 0;
  const LaneMask runnable = live_ & ~parked_;
  for (unsigned l = 0; l < warp_size_; ++l) {
    if (!((runnable >> l) & 1)) continue;
    const LaneMask bit = LaneMask(1) << l;
    if (sel_mask_ == 0 || depth_[l] > sel_depth_ || (depth_[l] == sel_depth_ && pc_[l] < sel_pc_)) {
      sel_depth_ = depth_[l];
      sel_pc_ = pc_[l];
      sel_mask_ = bit;
    } else if (depth_[l] == sel_depth_ && pc_[l] == sel_pc_) {
      sel_mask_ |= bit;
    }
  }
  // Everyone at one place again: back to the cheap representation.
  converged_ = sel_mask_ == live_;
}

unsigned MinPcArbiter::count_paths() const {
  if (converged_) return live_ ? 1 : 0;
  // Only after a split; at most warp_size groups.
  Pc pcs[64];
  unsigned depths[64];
  unsigned n = 0;
  for (unsigned l = 0; l < warp_size_; ++l) {
    if (!((live_ >> l) & 1)) continue;
    unsigned i = 0;
    while (i < n && !(pcs[i] == pc_[l] && depths[i] == depth_[l])) ++i;
    if (i == n) pcs[n] = pc_[l], depths[n++] = depth_[l];
  }
  return n;
}

void MinPcArbiter::arrived(LaneMask moved, Pc pc, unsigned depth) {
  // Lanes at one (pc, depth) are one group, so at most one group is there.
  LaneMask there = 0;
  for (LaneMask m = live_ & ~moved; m; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctzll(m));
    if (pc_[l] == pc && depth_[l] == depth) there |= LaneMask(1) << l;
  }
  if (there) joins_.merge(there, moved, pc, depth, counters_);
}

unsigned MinPcArbiter::advance(uint32_t split, const ControlEvent& ev) {
  if (split != 0 || sel_mask_ == 0)
    throw std::logic_error("min_pc: advance() on a path that was not selected");
  const LaneMask active = sel_mask_;
  joins_.issued(active, sel_pc_);
  const LaneMask done = ev.executed & active;  // lanes the instruction acted on
  const LaneMask rest = active & ~done;
  // The common case: the selected threads move together to one PC.
  Pc uniform = ev.next;
  bool moves_together = false;
  switch (ev.kind) {
    case Control::MaskDefer:  // only in programs lowered for exec_mask
    case Control::MaskBranchZ:
    case Control::MaskJoin:
      throw_not_lowered_for(name());
    case Control::Branch:
      moves_together = done == 0 || rest == 0;
      if (rest == 0) uniform = ev.target;
      break;
    case Control::None:
    case Control::Trap:  // the executor ends the run on a trap
      moves_together = true;
      break;
    case Control::Barrier:
      // Barriers are per thread (sm_70): the arrived lanes wait aside while
      // the warp's other lanes run to the barrier, unless none is left.
      moves_together = true;
      parked_ |= done;
      if ((live_ & ~parked_) == 0) parked_ = 0;
      break;
    default:
      break;
  }
  if (moves_together) {
    if (converged_ && parked_ == 0) {
      sel_pc_ = uniform;
      return 0;
    }
    if (converged_) spread();
    for (LaneMask m = active; m; m &= m - 1) pc_[__builtin_ctzll(m)] = uniform;
    arrived(active, uniform, sel_depth_);
    select();
    return 0;
  }

  if (converged_) spread();
  unsigned frames = 0;
  // Each group moves, then meets whoever is where it arrives: one at a time,
  // so two halves landing on one pc merge once.
  for (LaneMask m = rest; m; m &= m - 1) pc_[__builtin_ctzll(m)] = ev.next;
  if (ev.kind == Control::Branch) joins_.split(active, ev.reconv, sel_depth_);
  if (rest) arrived(rest, ev.next, sel_depth_);
  switch (ev.kind) {
    case Control::Branch:
      for (LaneMask m = done; m; m &= m - 1) pc_[__builtin_ctzll(m)] = ev.target;
      arrived(done, ev.target, sel_depth_);
      break;
    case Control::Call:
      if (done) calls_.call(done, sel_depth_, ev.next);
      if (done) joins_.call(active, ev.next, sel_depth_);
      for (LaneMask m = done; m; m &= m - 1) {
        unsigned l = __builtin_ctzll(m);
        pc_[l] = ev.target;
        depth_[l] = sel_depth_ + 1;
      }
      if (done) arrived(done, ev.target, sel_depth_ + 1);
      break;
    case Control::Ret:
      if (done && sel_depth_ == 0) throw std::logic_error("min_pc: ret at call depth 0");
      if (done) frames = calls_.ret(done);
      if (done) joins_.ret(done, sel_depth_ - 1);
      for (LaneMask m = done; m; m &= m - 1) {
        unsigned l = __builtin_ctzll(m);
        depth_[l] = sel_depth_ - 1;
        pc_[l] = calls_.return_pc(l, depth_[l]);  // this thread's own return PC
      }
      // Threads of one group may return to different call sites.
      for (LaneMask left = done; left;) {
        const Pc back = pc_[__builtin_ctzll(left)];
        LaneMask group = 0;
        for (LaneMask m = left; m; m &= m - 1)
          if (pc_[__builtin_ctzll(m)] == back) group |= LaneMask(1) << __builtin_ctzll(m);
        arrived(group, back, sel_depth_ - 1);
        left &= ~group;
      }
      break;
    case Control::Exit:
      if (done) frames = calls_.exit(done);
      joins_.exit(done);
      live_ &= ~done;
      parked_ &= live_;
      if ((live_ & ~parked_) == 0) parked_ = 0;  // the lanes at a barrier go on
      break;
    default:
      break;
  }
  if (live_ == 0) {
    sel_mask_ = 0;
    return frames;
  }
  select();
  if (done && rest) counters_.peak_entries = std::max(counters_.peak_entries, count_paths());
  return frames;
}

}  // namespace warptlm
