#include "simt/minority_first_stack.h"

#include <algorithm>
#include <bitset>
#include <stdexcept>

#include "simt/stack_arrivals.h"

namespace warptlm {
namespace {

unsigned lanes(LaneMask m) { return static_cast<unsigned>(std::bitset<64>(m).count()); }

}  // namespace

MinorityFirstStack::MinorityFirstStack(unsigned warp_size) {
  // Depth-first nesting: a base entry plus a join, a saved and a run entry
  // per level; reserve so a warp's divergence does not allocate.
  stack_.reserve(4 + 3 * std::max(1u, warp_size));
}

bool MinorityFirstStack::run_taken_first(LaneMask taken, LaneMask not_taken) {
  return lanes(taken) <= lanes(not_taken);
}

void MinorityFirstStack::reset(Pc entry, LaneMask mask) {
  stack_.clear();
  counters_ = {};
  max_joins_ = max_entries_ = 0;
  stack_.push_back({entry, mask, kExitPc, Kind::Join});
  note_occupancy();
}

void MinorityFirstStack::note_occupancy() {
  unsigned saved = 0, joins = 0;
  for (size_t i = 0; i + 1 < stack_.size(); ++i) {
    if (stack_[i].kind == Kind::Saved)
      ++saved;
    else if (stack_[i].kind == Kind::Join || stack_[i].kind == Kind::Frame)
      ++joins;
  }
  counters_.peak_entries = std::max(counters_.peak_entries, saved);
  max_joins_ = std::max(max_joins_, joins);
  max_entries_ = std::max(max_entries_, static_cast<unsigned>(stack_.size()));
}

void MinorityFirstStack::issuable(std::vector<Path>& out) const {
  if (stack_.empty()) return;
  const Entry& top = stack_.back();
  out.push_back({top.pc, top.mask, static_cast<uint32_t>(stack_.size() - 1)});
}

void MinorityFirstStack::pop_reconverged() {
  // Frame entries never reach their rpc (kExitPc); they end through retire().
  bool popped = false;
  while (!stack_.empty() && stack_.back().kind != Kind::Frame &&
         stack_.back().pc == stack_.back().rpc) {
    const LaneMask lanes = stack_.back().mask;
    stack_.pop_back();
    note_arrival(stack_, lanes, counters_);
    popped = true;
  }
  if (popped) note_occupancy();
}

unsigned MinorityFirstStack::retire(LaneMask gone, bool whole_kernel) {
  size_t bottom = 0;
  if (!whole_kernel) {
    for (size_t i = stack_.size(); i-- > 0;) {
      if (stack_[i].kind == Kind::Frame) {
        bottom = i;
        break;
      }
    }
  }
  // Saved paths never hold the retiring lanes (they are disjoint from the
  // active path), so only the active path and the joins below it shrink.
  for (size_t i = bottom; i < stack_.size(); ++i) stack_[i].mask &= ~gone;
  unsigned frames = 0;
  for (size_t i = stack_.size(); i-- > bottom;) {
    if (stack_[i].mask != 0) continue;
    frames += stack_[i].kind == Kind::Frame ? 1 : 0;
    stack_.erase(stack_.begin() + static_cast<std::ptrdiff_t>(i));
  }
  note_occupancy();
  return frames;
}

bool MinorityFirstStack::straight_run(uint32_t split, Pc* stop) const {
  if (stack_.empty() || split != stack_.size() - 1) return false;
  // As ipdom: only the top entry's pc moves until it reaches the entry's rpc.
  *stop = stack_.back().kind == Kind::Frame ? kExitPc : stack_.back().rpc;
  return true;
}

void MinorityFirstStack::move_straight(uint32_t split, Pc pc) {
  if (stack_.empty() || split != stack_.size() - 1)
    throw std::logic_error(
        "minority_first: move_straight() on a path that is not the top of the stack");
  stack_.back().pc = pc;
  pop_reconverged();
}

unsigned MinorityFirstStack::advance(uint32_t split, const ControlEvent& ev) {
  if (stack_.empty() || split != stack_.size() - 1)
    throw std::logic_error("minority_first: advance() on a path that is not the top of the stack");
  Entry& top = stack_.back();
  switch (ev.kind) {
    case Control::MaskDefer:  // only in programs lowered for exec_mask
    case Control::MaskBranchZ:
    case Control::MaskJoin:
      throw_not_lowered_for(name());
    case Control::Branch: {
      LaneMask taken = ev.executed;
      LaneMask not_taken = ev.active & ~taken;
      if (not_taken == 0) {
        top.pc = ev.target;
      } else if (taken == 0) {
        top.pc = ev.next;
      } else {
        Entry jump{ev.target, taken, ev.reconv, Kind::Run};
        Entry fall{ev.next, not_taken, ev.reconv, Kind::Run};
        if (top.kind != Kind::Frame && top.rpc == ev.reconv) {
          // The entry already waits at this IPDOM: the two paths replace it
          // (no partial join before it, and no redundant entry).
          stack_.pop_back();
        } else {
          top.pc = ev.reconv;
          top.arrived = false;  // it waits for this branch's paths now
          if (top.kind != Kind::Frame) top.kind = Kind::Join;
        }
        Entry& major = run_taken_first(taken, not_taken) ? fall : jump;
        Entry& minor = &major == &fall ? jump : fall;
        major.kind = Kind::Saved;
        stack_.push_back(major);
        stack_.push_back(minor);
        note_occupancy();
      }
      break;
    }
    case Control::Call:
      top.pc = ev.next;
      if (ev.executed != 0) {
        // The suspended caller, no longer a saved sibling (a frame stays one).
        if (top.kind != Kind::Frame) top.kind = Kind::Join;
        stack_.push_back({ev.target, ev.executed, kExitPc, Kind::Frame});
        note_occupancy();
        return 0;
      }
      break;
    case Control::Ret:
    case Control::Exit: {
      top.pc = ev.next;
      if (ev.executed == 0) break;
      unsigned frames = retire(ev.executed, ev.kind == Control::Exit);
      pop_reconverged();
      return frames;
    }
    case Control::None:
    case Control::Barrier:
    case Control::Trap:  // the executor ends the run; nothing to reconverge
      top.pc = ev.next;
      break;
  }
  pop_reconverged();
  return 0;
}

}  // namespace warptlm
