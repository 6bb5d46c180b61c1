#include "sm/scheduler/gto_scheduler.h"

#include <algorithm>

namespace warptlm {

GtoScheduler::GtoScheduler(unsigned slots) : slots_(slots), age_(slots, 0) {
  by_age_.reserve(slots);  // never grows past the slot count: no allocation later
}

void GtoScheduler::warp_started(unsigned slot, uint64_t age) {
  slots_.start(slot);
  age_[slot] = age;
  // Insert after every slot that sorts before (age, slot): O(slots), once per warp.
  auto later = std::upper_bound(by_age_.begin(), by_age_.end(), slot, [&](unsigned a, unsigned b) {
    return age_[a] != age_[b] ? age_[a] < age_[b] : a < b;
  });
  by_age_.insert(later, slot);
}

void GtoScheduler::warp_finished(unsigned slot) {
  slots_.finish(slot);
  by_age_.erase(std::find(by_age_.begin(), by_age_.end(), slot));
  if (greedy_ == slot) greedy_ = kNone;
}

void GtoScheduler::order(std::vector<unsigned>& out) {
  out.clear();
  if (greedy_ != kNone) out.push_back(greedy_);
  for (unsigned s : by_age_)
    if (s != greedy_) out.push_back(s);
}

void GtoScheduler::issued(unsigned slot) {
  slots_.require_live(slot, "issued");
  greedy_ = slot;
}

}  // namespace warptlm
