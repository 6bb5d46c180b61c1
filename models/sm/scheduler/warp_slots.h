// The bookkeeping every warp scheduler shares: which of its slots hold a
// started, unfinished warp, with the argument checks of the WarpScheduler calls.
#pragma once

#include <cstdint>
#include <vector>

namespace warptlm {

class WarpSlots {
 public:
  // Throws std::invalid_argument naming `slots` when it is 0.
  explicit WarpSlots(unsigned slots);

  unsigned size() const { return static_cast<unsigned>(live_.size()); }
  unsigned live_count() const { return live_count_; }
  // Whether `slot` holds a started, unfinished warp (false out of range).
  bool live(unsigned slot) const { return slot < live_.size() && live_[slot] != 0; }

  // Each throws std::invalid_argument naming the slot: out of range, start of a
  // live slot, finish of one that is not.
  void start(unsigned slot);
  void finish(unsigned slot);
  // Throws unless `slot` is live; `what` names the call in the message.
  void require_live(unsigned slot, const char* what) const;

 private:
  std::vector<uint8_t> live_;
  unsigned live_count_ = 0;
};

}  // namespace warptlm
