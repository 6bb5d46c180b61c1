#include "simt/exec_mask_unit.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "frontend/hex_text.h"

namespace warptlm {

void ExecMaskUnit::reset(Pc entry, LaneMask mask) {
  counters_ = {};
  pc_ = entry;
  exec_ = live_ = mask;
  masks_.clear();
  frames_.clear();
}

void ExecMaskUnit::issuable(std::vector<Path>& out) const {
  if (live_) out.push_back({pc_, exec_, 0});
}

LaneMask ExecMaskUnit::waiting(uint64_t id) const {
  const size_t base = frames_.empty() ? 0 : frames_.back().masks_base;
  return base + id < masks_.size() ? masks_[base + id] : 0;
}

LaneMask& ExecMaskUnit::mask(uint64_t id) {
  const size_t i = (frames_.empty() ? 0 : frames_.back().masks_base) + id;
  if (i >= masks_.size()) masks_.resize(i + 1, 0);
  return masks_[i];
}

void ExecMaskUnit::note_waiting() {
  const auto in_use = static_cast<unsigned>(
      std::count_if(masks_.begin(), masks_.end(), [](LaneMask m) { return m; }));
  counters_.peak_entries = std::max(counters_.peak_entries, in_use);
}

unsigned ExecMaskUnit::advance(uint32_t split, const ControlEvent& ev) {
  if (split != 0 || !live_) throw std::logic_error("exec_mask: advance() on no path");
  pc_ = ev.next;
  switch (ev.kind) {
    case Control::Branch: {
      const LaneMask taken = ev.executed, rest = ev.active & ~taken;
      if (ev.active == 0) {
        if (ev.reconv == kExitPc)
          throw std::logic_error("exec_mask: an empty exec mask at the branch at " +
                                 hex_string(ev.next - kInstrBytes) +
                                 ", which has no reconvergence pc");
        pc_ = ev.reconv;  // where the next waiting lanes are
      } else if (rest == 0) {
        pc_ = ev.target;
      } else if (taken != 0) {
        throw ControlFault(
            "exec_mask: a branch kept uniform (bra.uni, or a predicate the "
            "uniformity analysis found uniform) sends lanes " +
            hex_string(taken) + " to " + hex_string(ev.target) + " and lanes " + hex_string(rest) +
            " on; exec_mask runs it as a scalar branch, so its lanes must agree "
            "(drop .uni if they may not)");
      }
      return 0;
    }
    case Control::Call:
      if (ev.executed == 0) return 0;
      frames_.push_back({ev.next, ev.active & ~ev.executed, masks_.size()});
      exec_ = ev.executed;
      pc_ = ev.target;
      return 0;
    case Control::Ret: {
      if (frames_.empty()) throw std::logic_error("exec_mask: a return outside a call");
      const Frame f = frames_.back();
      for (size_t i = f.masks_base; i < masks_.size(); ++i)
        if (masks_[i])
          throw std::logic_error("exec_mask: lanes " + hex_string(masks_[i]) +
                                 " still wait in mask " + std::to_string(i - f.masks_base) +
                                 " at a return");
      masks_.resize(f.masks_base);
      frames_.pop_back();
      exec_ = (ev.executed | f.bystanders) & live_;
      pc_ = f.return_pc;
      return 1;
    }
    case Control::Exit:
      live_ &= ~ev.executed;
      exec_ &= ~ev.executed;
      return 0;
    case Control::MaskDefer:
      if (ev.executed) {
        mask(ev.target) |= ev.executed;
        exec_ &= ~ev.executed;
        note_waiting();
      }
      return 0;
    case Control::MaskBranchZ:
      if (exec_ == 0) pc_ = ev.target;
      return 0;
    case Control::MaskJoin: {
      LaneMask& m = mask(ev.target);
      if (m && exec_) ++counters_.reconvergences;
      exec_ |= m;
      m = 0;
      return 0;
    }
    case Control::None:
    case Control::Barrier:
    case Control::Trap:
      return 0;
  }
  return 0;
}

}  // namespace warptlm
