#include "sm/scheduler/two_level_scheduler.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace warptlm {

TwoLevelScheduler::TwoLevelScheduler(unsigned slots, unsigned active_set)
    : slots_(slots), active_set_(active_set), active_(slots, 0), last_(slots - 1) {
  if (active_set == 0)
    throw std::invalid_argument("active_set: the two-level scheduler needs at least one place");
  pending_.reserve(slots);  // every slot at most once: pushes never allocate
}

void TwoLevelScheduler::warp_started(unsigned slot, uint64_t) {
  slots_.start(slot);
  pending_.push_back(slot);
  refill();
}

void TwoLevelScheduler::warp_finished(unsigned slot) {
  slots_.finish(slot);
  if (active_[slot]) {
    active_[slot] = 0;
    --active_count_;
    refill();
  } else {
    pending_.erase(std::find(pending_.begin(), pending_.end(), slot));
  }
}

void TwoLevelScheduler::order(std::vector<unsigned>& out) {
  out.clear();
  const unsigned n = slots_.size();
  unsigned s = last_;
  for (unsigned i = 0; i < n; ++i) {
    s = s + 1 == n ? 0 : s + 1;
    if (active_[s]) out.push_back(s);
  }
}

void TwoLevelScheduler::issued(unsigned slot) {
  slots_.require_live(slot, "issued");
  if (!active_[slot])
    throw std::invalid_argument("slot: issued(" + std::to_string(slot) +
                                "): a pending warp is never offered");
  last_ = slot;
}

bool TwoLevelScheduler::long_latency_stall(unsigned slot) {
  slots_.require_live(slot, "long_latency_stall");
  if (!active_[slot]) return false;  // already pending: it keeps its place in the FIFO
  active_[slot] = 0;
  --active_count_;
  const bool others = !pending_.empty();
  pending_.push_back(slot);
  refill();
  return others;  // alone in the FIFO, it came straight back
}

void TwoLevelScheduler::refill() {
  // Pending warps are few and this runs only on start/finish/stall events, so
  // erasing the head of a vector (no allocation) is cheap enough.
  unsigned moved = 0;
  while (active_count_ + moved < active_set_ && moved < pending_.size()) {
    active_[pending_[moved]] = 1;
    ++moved;
  }
  active_count_ += moved;
  pending_.erase(pending_.begin(), pending_.begin() + moved);
}

}  // namespace warptlm
