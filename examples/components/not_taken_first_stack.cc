// An example reconvergence scheme written outside models/: an IPDOM stack
// that runs the fall-through side of a divergent branch first (the built-in
// `ipdom` runs the taken side first). Everything else is the classic stack:
// the diverging entry waits at the branch's immediate post-dominator, each
// side pops when it reaches it, a call pushes a frame entry that ends when all
// its lanes returned or exited.
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "example_components.h"

namespace warptlm_example {

using warptlm::Control;
using warptlm::ControlEvent;
using warptlm::kExitPc;
using warptlm::LaneMask;
using warptlm::Path;
using warptlm::Pc;

class NotTakenFirstStack : public warptlm::ReconvergenceUnit {
 public:
  const char* name() const override { return "not_taken_first"; }
  void reset(Pc entry, LaneMask mask) override {
    stack_.clear();
    counters_ = {};
    splits_ = 0;
    push({entry, mask, kExitPc, false});
  }
  bool finished() const override { return stack_.empty(); }
  void issuable(std::vector<Path>& out) const override {
    if (!stack_.empty())
      out.push_back(
          {stack_.back().pc, stack_.back().mask, static_cast<uint32_t>(stack_.size() - 1)});
  }
  unsigned advance(uint32_t split, const ControlEvent& ev) override {
    if (stack_.empty() || split != stack_.size() - 1)
      throw std::logic_error("not_taken_first: advance() of a path that is not the top entry");
    Entry& top = stack_.back();
    unsigned frames = 0;
    switch (ev.kind) {
      case Control::MaskDefer:  // only in programs lowered for exec_mask
      case Control::MaskBranchZ:
      case Control::MaskJoin:
        warptlm::throw_not_lowered_for(name());
      case Control::Branch: {
        const LaneMask taken = ev.executed;
        const LaneMask fall = ev.active & ~taken;
        if (fall == 0) {
          top.pc = ev.target;
        } else if (taken == 0) {
          top.pc = ev.next;
        } else {
          if (!top.frame && top.rpc == ev.reconv)
            stack_.pop_back();  // the sides reconverge where the entry does
          else
            top.pc = ev.reconv;  // the entry waits for both sides there
          push({ev.target, taken, ev.reconv, false});
          push({ev.next, fall, ev.reconv, false});  // on top: runs first
          ++splits_;
        }
        break;
      }
      case Control::Call:
        top.pc = ev.next;
        if (ev.executed) push({ev.target, ev.executed, kExitPc, true});
        return 0;
      case Control::Ret:
      case Control::Exit:
        top.pc = ev.next;
        if (ev.executed) frames = retire(ev.executed, ev.kind == Control::Exit);
        break;
      case Control::None:
      case Control::Barrier:
      case Control::Trap:
        top.pc = ev.next;
        break;
    }
    // Sides that reached their reconvergence pc hand their lanes back.
    while (!stack_.empty() && !stack_.back().frame && stack_.back().pc == stack_.back().rpc) {
      stack_.pop_back();
      ++counters_.reconvergences;
    }
    return frames;
  }
  unsigned max_depth() const override { return counters_.peak_entries; }
  // Its own statistic (not_taken_first_stats()).
  void own_counters(uint64_t* out) const override { out[0] = splits_; }

 private:
  struct Entry {
    Pc pc;
    LaneMask mask;
    Pc rpc;
    bool frame;  // the bottom entry of a device-function call
  };
  void push(const Entry& e) {
    stack_.push_back(e);
    counters_.peak_entries =
        std::max<unsigned>(counters_.peak_entries, static_cast<unsigned>(stack_.size()));
  }
  // Removes `lanes` from the entries above the innermost call frame (a return)
  // or from every entry (an exit); drops the emptied ones and returns how many
  // call frames they ended.
  unsigned retire(LaneMask lanes, bool whole_kernel) {
    size_t bottom = 0;
    if (!whole_kernel)
      for (size_t i = stack_.size(); i-- > 0;)
        if (stack_[i].frame) {
          bottom = i;
          break;
        }
    unsigned frames = 0;
    for (size_t i = stack_.size(); i-- > bottom;) {
      stack_[i].mask &= ~lanes;
      if (stack_[i].mask) continue;
      frames += stack_[i].frame ? 1 : 0;
      stack_.erase(stack_.begin() + static_cast<std::ptrdiff_t>(i));
    }
    return frames;
  }
  std::vector<Entry> stack_;
  uint64_t splits_ = 0;  // divergent branches split, fall-through side first
};

std::vector<warptlm::StatInfo> not_taken_first_stats() {
  return {{"ntf_splits", "branches",
           "not_taken_first: divergent branches split, their fall-through side run first"}};
}

std::unique_ptr<warptlm::ReconvergenceUnit> make_not_taken_first(unsigned,
                                                                 const warptlm::ComponentOptions&) {
  return std::make_unique<NotTakenFirstStack>();
}

}  // namespace warptlm_example
