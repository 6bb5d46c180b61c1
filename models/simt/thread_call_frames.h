// Call bookkeeping for the schemes that track threads by their own PC (min_pc,
// sorted_list): every lane's return PC at every call depth, and the lanes
// still inside each open call frame, so that a frame's completion (all lanes
// that entered it returned or exited) can be reported to the executor.
//
// Both schemes run the deepest call level first, so the open frames always
// nest: the lanes of frame d+1 are a subset of those of frame d, and a path
// that calls or returns is always at the innermost level.
#pragma once

#include <cstdint>
#include <vector>

#include "simt/reconvergence_unit.h"

namespace warptlm {

class ThreadCallFrames {
 public:
  // Forgets every frame; sizes the per-lane tables for `warp_size` lanes.
  void reset(unsigned warp_size);
  // `lanes`, at call depth `depth` (the number of open frames), enter a callee;
  // each of them will come back at `ret_pc`, depth `depth`.
  void call(LaneMask lanes, unsigned depth, Pc ret_pc);
  // Where `lane` resumes when it returns to call depth `depth`.
  Pc return_pc(unsigned lane, unsigned depth) const {
    return ret_pc_[size_t(depth) * warp_size_ + lane];
  }
  // `lanes` return from the innermost frame. Returns 1 when that completed it.
  unsigned ret(LaneMask lanes);
  // `lanes` leave the kernel from whatever depth. Returns the frames it completed.
  unsigned exit(LaneMask lanes);
  unsigned open() const { return static_cast<unsigned>(frames_.size()); }
  unsigned max_open() const { return max_open_; }

 private:
  unsigned warp_size_ = 0;
  unsigned max_open_ = 0;
  std::vector<LaneMask> frames_;  // frames_[d]: lanes inside the call made at depth d
  std::vector<Pc> ret_pc_;        // [d * warp_size + lane]; grows with the deepest call
};

}  // namespace warptlm
