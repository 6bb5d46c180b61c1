#include "compaction/block_stack.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace warptlm {
namespace {

bool any_thread(const LaneMask* m, unsigned warps) {
  for (unsigned w = 0; w < warps; ++w)
    if (m[w]) return true;
  return false;
}

bool overlaps(const LaneMask* a, const LaneMask* b, unsigned warps) {
  for (unsigned w = 0; w < warps; ++w)
    if (a[w] & b[w]) return true;
  return false;
}

}  // namespace

void BlockStack::reset(Pc entry, const CtaMask& mask) {
  warps_ = static_cast<unsigned>(mask.size());
  entries_.clear();
  masks_.clear();
  taken_.assign(warps_, 0);
  not_taken_.assign(warps_, 0);
  call_depth_ = 0;
  counters_ = {};
  ++version_;
  push({entry, kExitPc, false, false}, mask.data());
}

void BlockStack::push(const Entry& e, const LaneMask* mask) {
  entries_.push_back(e);
  masks_.insert(masks_.end(), mask, mask + warps_);
  counters_.peak_entries =
      std::max<unsigned>(counters_.peak_entries, static_cast<unsigned>(entries_.size()));
  ++version_;
}

void BlockStack::erase(size_t i) {
  if (entries_[i].call_frame) --call_depth_;
  entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(i));
  auto first = masks_.begin() + static_cast<std::ptrdiff_t>(i * warps_);
  masks_.erase(first, first + warps_);
  ++version_;
}

void BlockStack::pop_reconverged() {
  // Frame entries never reach their rpc (kExitPc); they end through retire().
  while (!entries_.empty() && !entries_.back().call_frame &&
         entries_.back().pc == entries_.back().rpc) {
    // The parent is the nearest entry below holding any of the popped
    // threads (the ones in between are its siblings, disjoint from it); every
    // arrival after its first is one more path merged into it.
    const size_t t = entries_.size() - 1;
    for (size_t i = t; i-- > 0;) {
      if (!overlaps(mask(i), mask(t), warps_)) continue;
      if (entries_[i].arrived) ++counters_.reconvergences;
      entries_[i].arrived = true;
      break;
    }
    erase(t);
  }
}

unsigned BlockStack::retire(const LaneMask* threads, bool whole_kernel) {
  size_t bottom = 0;
  if (!whole_kernel) {
    for (size_t i = entries_.size(); i-- > 0;) {
      if (entries_[i].call_frame) {
        bottom = i;
        break;
      }
    }
  }
  for (size_t i = bottom; i < entries_.size(); ++i) {
    LaneMask* m = masks_.data() + i * warps_;
    for (unsigned w = 0; w < warps_; ++w) m[w] &= ~threads[w];
  }
  ++version_;
  unsigned frames = 0;
  for (size_t i = entries_.size(); i-- > bottom;) {
    if (any_thread(mask(i), warps_)) continue;
    frames += entries_[i].call_frame ? 1 : 0;
    erase(i);
  }
  return frames;
}

unsigned BlockStack::advance(const CtaControlEvent& ev) {
  if (entries_.empty()) throw std::logic_error("block stack: advance() on a finished CTA");
  if (ev.executed.size() != warps_ && ev.kind != Control::None && ev.kind != Control::Barrier)
    throw std::invalid_argument("block stack: event mask has " +
                                std::to_string(ev.executed.size()) + " warps, the CTA " +
                                std::to_string(warps_));
  Entry& top = entries_.back();
  switch (ev.kind) {
    case Control::MaskDefer:  // only in programs lowered for exec_mask
    case Control::MaskBranchZ:
    case Control::MaskJoin:
      throw_not_lowered_for("the block-wide stack of thread block compaction");
    case Control::Branch: {
      const LaneMask* active = top_mask();
      for (unsigned w = 0; w < warps_; ++w) {
        taken_[w] = active[w] & ev.executed[w];
        not_taken_[w] = active[w] & ~ev.executed[w];
      }
      if (!any_thread(not_taken_.data(), warps_)) {
        top.pc = ev.target;
      } else if (!any_thread(taken_.data(), warps_)) {
        top.pc = ev.next;
      } else {
        if (!top.call_frame && top.rpc == ev.reconv) {
          // Same reconvergence point as the entry itself: the two paths
          // replace it instead of stacking a redundant reconvergence entry.
          erase(entries_.size() - 1);
        } else {
          top.pc = ev.reconv;
          top.arrived = false;  // it waits for this branch's paths now
        }
        push({ev.next, ev.reconv, false, false, ev.compact_paths}, not_taken_.data());
        push({ev.target, ev.reconv, false, false, ev.compact_paths}, taken_.data());
      }
      break;
    }
    case Control::Call:
      top.pc = ev.next;
      if (any_thread(ev.executed.data(), warps_)) {
        const bool compact = top.compact;  // push() may move `top`
        push({ev.target, kExitPc, true, false, compact}, ev.executed.data());
        ++call_depth_;
        return 0;
      }
      break;
    case Control::Ret:
    case Control::Exit: {
      top.pc = ev.next;
      if (!any_thread(ev.executed.data(), warps_)) break;
      unsigned frames = retire(ev.executed.data(), ev.kind == Control::Exit);
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
