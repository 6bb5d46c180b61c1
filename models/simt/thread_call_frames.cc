#include "simt/thread_call_frames.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace warptlm {

void ThreadCallFrames::reset(unsigned warp_size) {
  warp_size_ = warp_size;
  max_open_ = 0;
  frames_.clear();
}

void ThreadCallFrames::call(LaneMask lanes, unsigned depth, Pc ret_pc) {
  // The deepest level runs first, so a caller is always at the innermost level.
  if (depth != frames_.size())
    throw std::logic_error("call frames: a call from depth " + std::to_string(depth) + " with " +
                           std::to_string(frames_.size()) + " frames open");
  frames_.push_back(lanes);
  max_open_ = std::max<unsigned>(max_open_, static_cast<unsigned>(frames_.size()));
  size_t need = (size_t(depth) + 1) * warp_size_;
  if (ret_pc_.size() < need) ret_pc_.resize(need, kExitPc);
  Pc* row = ret_pc_.data() + size_t(depth) * warp_size_;
  for (unsigned l = 0; l < warp_size_; ++l)
    if ((lanes >> l) & 1) row[l] = ret_pc;
}

unsigned ThreadCallFrames::ret(LaneMask lanes) {
  if (frames_.empty() || (lanes & ~frames_.back()) != 0)
    throw std::logic_error("call frames: ret by lanes that are not inside the innermost call");
  frames_.back() &= ~lanes;
  if (frames_.back() != 0) return 0;
  frames_.pop_back();
  return 1;
}

unsigned ThreadCallFrames::exit(LaneMask lanes) {
  for (LaneMask& f : frames_) f &= ~lanes;
  // Frames nest, so the emptied ones are the innermost.
  unsigned done = 0;
  while (!frames_.empty() && frames_.back() == 0) {
    frames_.pop_back();
    ++done;
  }
  return done;
}

}  // namespace warptlm
