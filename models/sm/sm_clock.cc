#include "sm/sm_clock.h"

#include <algorithm>

namespace warptlm {

SmClock::SmClock(WakeupScheduler& wakeups) : wakeups_(wakeups), id_(wakeups.add(*this)) {}

unsigned SmClock::add(Member& sm) {
  members_.push_back(&sm);
  due_.push_back(kNone);
  return static_cast<unsigned>(members_.size() - 1);
}

void SmClock::request(unsigned sm, uint64_t at) {
  if (due_[sm] <= at) return;
  due_[sm] = at;
  if (ticking_ || at >= armed_) return;  // wake() arms the earliest after its pass
  armed_ = at;
  wakeups_.wake_at(id_, at);
}

void SmClock::wake() {
  const uint64_t now = sc_core::sc_time_stamp().value();
  armed_ = kNone;
  ticking_ = true;
  for (size_t i = 0; i < members_.size(); ++i) {
    if (due_[i] > now) continue;
    due_[i] = kNone;
    members_[i]->clocked();
  }
  ticking_ = false;
  // A member below one that ticked may have asked for now: the scheduler then
  // runs this again at once (WakeupScheduler takes requests for now).
  const uint64_t next = *std::min_element(due_.begin(), due_.end());
  if (next != kNone) {
    armed_ = next;
    wakeups_.wake_at(id_, next);
  }
}

}  // namespace warptlm
