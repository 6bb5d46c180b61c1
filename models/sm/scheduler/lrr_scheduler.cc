#include "sm/scheduler/lrr_scheduler.h"

namespace warptlm {

LrrScheduler::LrrScheduler(unsigned slots) : slots_(slots), last_(slots - 1) {}

void LrrScheduler::warp_started(unsigned slot, uint64_t) { slots_.start(slot); }

void LrrScheduler::warp_finished(unsigned slot) { slots_.finish(slot); }

void LrrScheduler::order(std::vector<unsigned>& out) {
  out.clear();
  const unsigned n = slots_.size();
  unsigned s = last_;
  for (unsigned i = 0; i < n; ++i) {
    s = s + 1 == n ? 0 : s + 1;
    if (slots_.live(s)) out.push_back(s);
  }
}

void LrrScheduler::issued(unsigned slot) {
  slots_.require_live(slot, "issued");
  last_ = slot;
}

}  // namespace warptlm
