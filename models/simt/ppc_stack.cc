#include "simt/ppc_stack.h"

#include <stdexcept>
#include <string>

namespace warptlm {

void PairedPathStack::reset(Pc entry, LaneMask mask) {
  stack_.reset(entry, mask);
  counters_ = {};
  counters_.peak_entries = stack_.max_depth();
}

void PairedPathStack::issuable(std::vector<Path>& out) const {
  if (stack_.empty()) return;
  const DpsEntry& top = stack_.top();
  const DpsSide& s = top.side[top.current];
  out.push_back({s.pc, s.mask, stack_.split_id(top.current)});
}

void PairedPathStack::merge_into_parent(Pc pc) {
  stack_.pop();
  // The parent's running side is the one that diverged into the popped entry;
  // its mask already holds the union of the popped entry's lanes.
  DpsEntry& parent = stack_.top();
  parent.side[parent.current].pc = pc;
}

void PairedPathStack::drop_one_sided() {
  while (!stack_.empty() && stack_.top().split()) {
    DpsEntry& top = stack_.top();
    bool taken = top.side[DpsEntry::kTaken].mask != 0;
    bool fall = top.side[DpsEntry::kNotTaken].mask != 0;
    if (taken && fall) return;
    merge_into_parent(top.side[taken ? DpsEntry::kTaken : DpsEntry::kNotTaken].pc);
  }
}

void PairedPathStack::compare() {
  // Comparing again after a deletion lets nested entries that meet at the
  // same PC all reconverge at once (the paper's Fig. 4 compares only the
  // deleted entry; the parent's pair would otherwise be compared only after
  // the next instruction, by which time the running side has moved on).
  while (!stack_.empty() && stack_.top().split()) {
    DpsEntry& top = stack_.top();
    Pc taken = top.side[DpsEntry::kTaken].pc;
    Pc fall = top.side[DpsEntry::kNotTaken].pc;
    if (taken != fall) {
      // Implicit mode compares layout ranks (raw PCs without a program), so
      // the earlier block in a topological order runs first whatever clang's
      // layout; explicit mode keeps the paper's PCs, its markers do the rest.
      bool taken_first =
          mode_ == Mode::Implicit ? layout_order(taken) < layout_order(fall) : taken < fall;
      if (parked(top, DpsEntry::kTaken)) taken_first = false;
      if (parked(top, DpsEntry::kNotTaken)) taken_first = true;
      top.current = taken_first ? DpsEntry::kTaken : DpsEntry::kNotTaken;
      return;
    }
    ++counters_.reconvergences;
    if (taken != top.ipdom) ++counters_.early_reconvergences;
    merge_into_parent(taken);
  }
}

unsigned PairedPathStack::advance(uint32_t split, const ControlEvent& ev) {
  unsigned side = stack_.top_side(split, name());
  if (side != stack_.top().current)
    throw std::logic_error(std::string(name()) + ": advance() on the path that is not running");
  DpsSide& path = stack_.top().side[side];
  bool compare_now = mode_ == Mode::Implicit || ev.marker;
  // Explicit mode parks a side at the marker of its branch's IPDOM.
  Pc rpc = mode_ == Mode::Explicit ? ev.reconv : kExitPc;
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
        // Fig. 5 line 4, then PPC (line 31) picks the side to run first. The
        // diverging side's own PC is stale until the new entry is deleted.
        stack_.push_split(ev.target, taken, ev.next, not_taken, rpc, ev.reconv);
        counters_.peak_entries = stack_.max_depth();
        compare_now = true;
      }
      break;
    }
    case Control::Call:
      path.pc = ev.next;
      // The callee's lanes run alone on a frame entry until they return, so
      // the comparison never switches to a path in another call frame.
      if (ev.executed != 0) stack_.push_frame(ev.target, ev.executed);
      counters_.peak_entries = stack_.max_depth();
      return 0;
    case Control::Ret:
    case Control::Exit:
      path.pc = ev.next;
      if (ev.executed != 0) frames = stack_.retire(ev.executed, ev.kind == Control::Exit);
      drop_one_sided();
      break;
    case Control::None:
    case Control::Barrier:
    case Control::Trap:  // the executor ends the run
      path.pc = ev.next;
      break;
  }
  if (compare_now || (!stack_.empty() && parked(stack_.top(), stack_.top().current))) compare();
  return frames;
}

}  // namespace warptlm
