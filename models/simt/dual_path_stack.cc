#include "simt/dual_path_stack.h"

namespace warptlm {

void DualPathStack::issuable(std::vector<Path>& out) const {
  if (stack_.empty()) return;
  const DpsEntry& top = stack_.top();
  for (unsigned s = 0; s < (top.split() ? 2u : 1u); ++s)
    if (top.side[s].mask != 0 && !waiting(top, s))
      out.push_back({top.side[s].pc, top.side[s].mask, stack_.split_id(s)});
}

void DualPathStack::pop_reconverged() {
  // The parent's diverged path already sits at the popped entry's rpc (set
  // when the entry was pushed), with the union of the entry's lanes.
  while (!stack_.empty() && stack_.top().split()) {
    const DpsEntry& top = stack_.top();
    bool done = true;
    for (unsigned s = 0; s < 2; ++s) done = done && (top.side[s].mask == 0 || waiting(top, s));
    if (!done) return;
    // Both sides still hold lanes: they merge, at the IPDOM by construction.
    if (top.side[0].mask != 0 && top.side[1].mask != 0) ++counters_.reconvergences;
    stack_.pop();
  }
}

unsigned DualPathStack::advance(uint32_t split, const ControlEvent& ev) {
  unsigned side = stack_.top_side(split, name());
  DpsSide& path = stack_.top().side[side];
  unsigned frames = 0;
  switch (ev.kind) {
    case Control::MaskDefer:  // only in programs lowered for exec_mask
    case Control::MaskBranchZ:
    case Control::MaskJoin:
      throw_not_lowered_for(name());
    case Control::Branch: {
      LaneMask taken = ev.executed;
      LaneMask not_taken = ev.active & ~taken;
      if (not_taken == 0) {
        path.pc = ev.target;
      } else if (taken == 0) {
        path.pc = ev.next;
      } else {
        // The diverging path waits for its two halves at the branch's IPDOM;
        // `path` is invalidated by the push.
        path.pc = ev.reconv;
        stack_.push_split(ev.target, taken, ev.next, not_taken, ev.reconv, ev.reconv);
        counters_.peak_entries = stack_.max_depth();  // only a push deepens the stack
      }
      break;
    }
    case Control::Call:
      path.pc = ev.next;
      // The callee's lanes run alone until they return: the caller's pair
      // (possibly in mid-divergence) is not issuable meanwhile, so paths never
      // straddle call frames.
      if (ev.executed != 0) stack_.push_frame(ev.target, ev.executed);
      counters_.peak_entries = stack_.max_depth();
      return 0;
    case Control::Ret:
    case Control::Exit:
      path.pc = ev.next;
      if (ev.executed != 0) frames = stack_.retire(ev.executed, ev.kind == Control::Exit);
      break;
    case Control::None:
    case Control::Barrier:
    case Control::Trap:  // the executor ends the run
      path.pc = ev.next;
      break;
  }
  pop_reconverged();
  return frames;
}

}  // namespace warptlm
