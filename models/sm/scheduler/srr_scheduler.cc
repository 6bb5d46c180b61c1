#include "sm/scheduler/srr_scheduler.h"

namespace warptlm {

SrrScheduler::SrrScheduler(unsigned slots) : slots_(slots), last_(slots - 1) {}

void SrrScheduler::warp_started(unsigned slot, uint64_t) { slots_.start(slot); }

void SrrScheduler::warp_finished(unsigned slot) {
  slots_.finish(slot);
  if (slot == last_) sticky_ = false;
}

void SrrScheduler::order(std::vector<unsigned>& out) {
  out.clear();
  const unsigned n = slots_.size();
  // Sticky: start at the last issuer itself; otherwise just after it.
  unsigned s = sticky_ ? last_ : (last_ + 1 == n ? 0 : last_ + 1);
  for (unsigned i = 0; i < n; ++i) {
    if (slots_.live(s)) out.push_back(s);
    s = s + 1 == n ? 0 : s + 1;
  }
}

void SrrScheduler::issued(unsigned slot) {
  slots_.require_live(slot, "issued");
  last_ = slot;
  sticky_ = true;
}

}  // namespace warptlm
