#include "simt/ipdom_stack.h"

#include <algorithm>
#include <stdexcept>

#include "simt/stack_arrivals.h"

namespace warptlm {

void IpdomStack::reset(Pc entry, LaneMask mask) {
  stack_.clear();
  counters_ = {};
  push({entry, mask, kExitPc, false});
}

void IpdomStack::push(const Entry& e) {
  stack_.push_back(e);
  counters_.peak_entries =
      std::max<unsigned>(counters_.peak_entries, static_cast<unsigned>(stack_.size()));
}

void IpdomStack::issuable(std::vector<Path>& out) const {
  if (stack_.empty()) return;
  const Entry& top = stack_.back();
  out.push_back({top.pc, top.mask, static_cast<uint32_t>(stack_.size() - 1)});
}

unsigned IpdomStack::pop_reconverged() {
  // Frame entries never reach their rpc (kExitPc); they end through retire().
  while (!stack_.empty() && !stack_.back().call_frame && stack_.back().pc == stack_.back().rpc) {
    const LaneMask lanes = stack_.back().mask;
    stack_.pop_back();
    note_arrival(stack_, lanes, counters_);
  }
  return 0;
}

unsigned IpdomStack::retire(LaneMask lanes, bool whole_kernel) {
  size_t bottom = 0;
  if (!whole_kernel) {
    for (size_t i = stack_.size(); i-- > 0;) {
      if (stack_[i].call_frame) {
        bottom = i;
        break;
      }
    }
  }
  for (size_t i = bottom; i < stack_.size(); ++i) stack_[i].mask &= ~lanes;
  unsigned frames = 0;
  for (size_t i = stack_.size(); i-- > bottom;) {
    if (stack_[i].mask != 0) continue;
    frames += stack_[i].call_frame ? 1 : 0;
    stack_.erase(stack_.begin() + static_cast<std::ptrdiff_t>(i));
  }
  return frames;
}

bool IpdomStack::straight_run(uint32_t split, Pc* stop) const {
  if (stack_.empty() || split != stack_.size() - 1) return false;
  // Only the top entry's pc moves until it reaches the entry's rpc; a call
  // frame's entry ends by ret or exit, never by its pc.
  *stop = stack_.back().call_frame ? kExitPc : stack_.back().rpc;
  return true;
}

void IpdomStack::move_straight(uint32_t split, Pc pc) {
  if (stack_.empty() || split != stack_.size() - 1)
    throw std::logic_error("ipdom: move_straight() on a path that is not the top of the stack");
  stack_.back().pc = pc;
  pop_reconverged();
}

unsigned IpdomStack::advance(uint32_t split, const ControlEvent& ev) {
  if (stack_.empty() || split != stack_.size() - 1)
    throw std::logic_error("ipdom: advance() on a path that is not the top of the stack");
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
        Entry fall{ev.next, not_taken, ev.reconv, false};
        Entry jump{ev.target, taken, ev.reconv, false};
        if (!top.call_frame && top.rpc == ev.reconv) {
          // Same reconvergence point as the entry itself: the two paths
          // replace it instead of stacking a redundant reconvergence entry.
          stack_.pop_back();
        } else {
          top.pc = ev.reconv;
          top.arrived = false;  // it waits for this branch's paths now
        }
        push(fall);
        push(jump);
      }
      break;
    }
    case Control::Call:
      top.pc = ev.next;
      if (ev.executed != 0) {
        push({ev.target, ev.executed, kExitPc, true});
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
