#include "simt/dual_path_entries.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace warptlm {

void DpsEntries::reset(Pc entry, LaneMask mask) {
  stack_.clear();
  // Divergence pushes at most one entry per lane split (plus call frames):
  // reserving a warp's worth keeps allocation off the common path.
  stack_.reserve(8);
  max_depth_ = 0;
  DpsEntry base;
  base.kind = DpsEntry::Kind::Base;
  base.side[0] = {entry, mask};
  push(base);
}

void DpsEntries::push(const DpsEntry& e) {
  stack_.push_back(e);
  max_depth_ = std::max<unsigned>(max_depth_, static_cast<unsigned>(stack_.size()));
}

void DpsEntries::push_split(Pc taken_pc, LaneMask taken, Pc fall_pc, LaneMask fall, Pc rpc,
                            Pc ipdom) {
  DpsEntry e;
  e.kind = DpsEntry::Kind::Split;
  e.side[DpsEntry::kTaken] = {taken_pc, taken};
  e.side[DpsEntry::kNotTaken] = {fall_pc, fall};
  e.rpc = rpc;
  e.ipdom = ipdom;
  push(e);
}

void DpsEntries::push_frame(Pc entry, LaneMask mask) {
  DpsEntry e;
  e.kind = DpsEntry::Kind::Frame;
  e.side[0] = {entry, mask};
  push(e);
}

unsigned DpsEntries::top_side(uint32_t split, const char* scheme) const {
  if (stack_.empty() || (split >> 1) != stack_.size() - 1)
    throw std::logic_error(std::string(scheme) +
                           ": advance() on a path that is not in the top stack entry");
  unsigned side = split & 1;
  if (stack_.back().side[side].mask == 0)
    throw std::logic_error(std::string(scheme) + ": advance() on an empty path");
  return side;
}

unsigned DpsEntries::retire(LaneMask lanes, bool whole_kernel) {
  size_t bottom = 0;
  if (!whole_kernel) {
    for (size_t i = stack_.size(); i-- > 0;) {
      if (stack_[i].kind == DpsEntry::Kind::Frame) {
        bottom = i;
        break;
      }
    }
  }
  for (size_t i = bottom; i < stack_.size(); ++i) {
    stack_[i].side[0].mask &= ~lanes;
    stack_[i].side[1].mask &= ~lanes;
  }
  // An entry's lanes include those of every entry above it, so the emptied
  // entries are the top ones.
  unsigned frames = 0;
  while (!stack_.empty() && (stack_.back().side[0].mask | stack_.back().side[1].mask) == 0) {
    frames += stack_.back().kind == DpsEntry::Kind::Frame ? 1 : 0;
    stack_.pop_back();
  }
  return frames;
}

}  // namespace warptlm
