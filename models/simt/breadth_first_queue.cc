#include "simt/breadth_first_queue.h"

#include <algorithm>
#include <stdexcept>

namespace warptlm {

BreadthFirstQueue::BreadthFirstQueue(unsigned warp_size) : warp_size_(std::max(1u, warp_size)) {
  // At most one path and one join per lane: reserved once, so that divergence
  // and rotation never allocate (a new call depth allocates its queue once).
  queues_.resize(1);
  queues_[0].reserve(warp_size_ + 1);
  joins_.reserve(warp_size_);
  free_joins_.reserve(warp_size_);
}

void BreadthFirstQueue::reset(Pc entry, LaneMask mask) {
  for (auto& q : queues_) q.clear();
  joins_.clear();
  free_joins_.clear();
  levels_ = 1;
  next_id_ = 0;
  live_joins_ = max_joins_ = 0;
  counters_ = {};
  ipdom_merges_ = early_merges_ = 0;
  queues_[0].push_back({entry, mask, kNoJoin, next_id_++});
  note_occupancy();
}

void BreadthFirstQueue::note_occupancy() {
  unsigned paths = 0;
  for (unsigned l = 0; l < levels_; ++l) paths += static_cast<unsigned>(queues_[l].size());
  counters_.peak_entries = std::max(counters_.peak_entries, paths);
  max_joins_ = std::max(max_joins_, live_joins_);
}

void BreadthFirstQueue::issuable(std::vector<Path>& out) const {
  if (levels_ == 0) return;
  const Entry& head = queues_[levels_ - 1].front();
  out.push_back({head.pc, head.mask, head.id});
}

uint32_t BreadthFirstQueue::open_join(Pc rpc, LaneMask mask, uint32_t parent) {
  uint32_t j;
  if (!free_joins_.empty()) {
    j = free_joins_.back();
    free_joins_.pop_back();
  } else {
    j = static_cast<uint32_t>(joins_.size());
    joins_.emplace_back();
  }
  joins_[j] = Join{rpc, mask, 0, parent, levels_ - 1, true};
  ++live_joins_;
  return j;
}

void BreadthFirstQueue::drop_join(uint32_t j) {
  joins_[j].live = false;
  free_joins_.push_back(j);
  --live_joins_;
}

void BreadthFirstQueue::park(const Entry& e) {
  Join& join = joins_[e.join];
  // A path parking beside lanes already there merges with them (at the
  // IPDOM); a call to complete the join (no lanes) merges nothing.
  if (join.arrived != 0 && e.mask != 0) ++counters_.reconvergences;
  join.arrived |= e.mask;
  if (join.arrived != join.mask) return;
  // The join's last live lane arrived: its lanes go on as one path.
  Entry merged{join.rpc, join.mask, join.parent, next_id_++};
  drop_join(e.join);
  ++ipdom_merges_;
  enqueue(merged);
}

void BreadthFirstQueue::enqueue(Entry e) {
  if (e.join != kNoJoin && e.pc == joins_[e.join].rpc) {
    park(e);
    return;
  }
  std::vector<Entry>& q = top();
  for (Entry& other : q) {
    if (other.pc == e.pc && other.join == e.join) {
      other.mask |= e.mask;  // the two paths meet: one path from now on
      ++early_merges_;
      // The paths' innermost split is their join's branch (or branches with
      // that one IPDOM); they meet before it: early.
      ++counters_.reconvergences;
      ++counters_.early_reconvergences;
      return;
    }
  }
  q.push_back(e);
}

unsigned BreadthFirstQueue::retire(LaneMask gone, bool whole_kernel) {
  Entry& head = top().front();
  uint32_t chain = head.join;
  head.mask &= ~gone;
  if (whole_kernel) {
    // Exited lanes leave every join and the suspended callers of every level.
    for (Join& j : joins_)
      if (j.live) j.mask &= ~gone, j.arrived &= ~gone;
    for (unsigned l = 0; l + 1 < levels_; ++l)
      for (Entry& e : queues_[l]) e.mask &= ~gone;
  } else {
    // Returned lanes leave the joins of this call only; the caller keeps them.
    for (uint32_t j = chain; j != kNoJoin; j = joins_[j].parent) joins_[j].mask &= ~gone;
  }
  unsigned frames = 0;
  for (bool changed = true; changed && levels_ > 0;) {
    changed = false;
    std::vector<Entry>& q = top();
    if (!q.empty() && q.front().mask == 0) {
      q.erase(q.begin());
      changed = true;
    } else if (!q.empty() && q.front().join != kNoJoin &&
               q.front().pc == joins_[q.front().join].rpc) {
      Entry e = q.front();  // the rest of the path, or a resumed caller, at its IPDOM
      q.erase(q.begin());
      park(e);
      changed = true;
    }
    // Joins of this level left empty, or now complete without the gone lanes.
    for (uint32_t j = 0; j < joins_.size(); ++j) {
      if (!joins_[j].live || joins_[j].level != levels_ - 1) continue;
      if (joins_[j].mask == 0) {
        drop_join(j);
        changed = true;
      } else if (joins_[j].arrived == joins_[j].mask) {
        Entry last{joins_[j].rpc, 0, j, 0};  // parks nothing new, completes the join
        park(last);
        changed = true;
      }
    }
    if (top().empty()) {
      // Every lane of this level returned or exited: the call completes and
      // the caller resumes (or, at level 0, the warp is done).
      for (uint32_t j = 0; j < joins_.size(); ++j)
        if (joins_[j].live && joins_[j].level == levels_ - 1) drop_join(j);
      --levels_;
      frames += levels_ > 0 ? 1 : 0;
      changed = true;
    }
  }
  note_occupancy();
  return frames;
}

unsigned BreadthFirstQueue::advance(uint32_t split, const ControlEvent& ev) {
  if (levels_ == 0 || top().front().id != split)
    throw std::logic_error("breadth_first: advance() on a path that is not the head of the queue");
  std::vector<Entry>& q = top();
  Entry& head = q.front();
  switch (ev.kind) {
    case Control::MaskDefer:  // only in programs lowered for exec_mask
    case Control::MaskBranchZ:
    case Control::MaskJoin:
      throw_not_lowered_for(name());
    case Control::Branch: {
      LaneMask taken = ev.executed;
      LaneMask not_taken = ev.active & ~taken;
      if (taken == 0 || not_taken == 0) {
        head.pc = not_taken == 0 ? ev.target : ev.next;
        bool at_join = head.join != kNoJoin && head.pc == joins_[head.join].rpc;
        if (q.size() == 1 && !at_join) return 0;  // alone: nobody to yield to
        Entry e = head;                           // end of a basic block: to the back of the queue
        q.erase(q.begin());
        enqueue(e);
      } else {
        uint32_t join = head.join;
        if (join == kNoJoin || joins_[join].rpc != ev.reconv)
          join = open_join(ev.reconv, head.mask, head.join);
        q.erase(q.begin());
        enqueue({ev.next, not_taken, join, next_id_++});
        enqueue({ev.target, taken, join, next_id_++});
      }
      break;
    }
    case Control::Call:
      head.pc = ev.next;
      if (ev.executed == 0) return 0;
      // Not preemptible: the callee's paths get a queue of their own, and the
      // caller waits at the head of its queue until they are all done.
      if (queues_.size() == levels_) {
        queues_.emplace_back();
        queues_.back().reserve(warp_size_ + 1);
      }
      queues_[levels_].clear();
      queues_[levels_].push_back({ev.target, ev.executed, kNoJoin, next_id_++});
      ++levels_;
      break;
    case Control::Ret:
    case Control::Exit:
      head.pc = ev.next;
      if (ev.executed != 0) return retire(ev.executed, ev.kind == Control::Exit);
      [[fallthrough]];
    case Control::None:
    case Control::Barrier:
    case Control::Trap:  // the executor ends the run; nothing to reconverge
      head.pc = ev.next;
      if (head.join == kNoJoin || head.pc != joins_[head.join].rpc) return 0;
      {
        Entry e = head;  // fell through into its IPDOM
        q.erase(q.begin());
        park(e);
      }
      break;
  }
  if (levels_ > 0 && top().empty())
    throw std::logic_error("breadth_first: no runnable path left while lanes wait at a join");
  note_occupancy();
  return 0;
}

}  // namespace warptlm
