#include "sm/sm_clock.h"

#include <algorithm>

#include "transaction/sim_now.h"

namespace warptlm {

SmClock::SmClock(WakeupScheduler& wakeups) : wakeups_(wakeups), id_(wakeups.add(*this)) {}

unsigned SmClock::add(Member& sm) {
  members_.push_back(&sm);
  due_.push_back(kNone);
  return static_cast<unsigned>(members_.size() - 1);
}

void SmClock::arm(uint64_t at) {
  armed_ = at;
  wakeups_.wake_at(id_, at);
}

void SmClock::wake() {
  const uint64_t now = sim_now_value();
  armed_ = kNone;
  ticking_ = true;
  late_ = kNone;
  uint64_t next = kNone;
  for (size_t i = 0; i < members_.size(); ++i) {
    if (due_[i] <= now) {
      due_[i] = kNone;
      members_[i]->clocked();
    }
    next = std::min(next, due_[i]);
  }
  ticking_ = false;
  // Requests made while ticking for members already passed; one for now (a
  // member below the one ticking) makes the scheduler run this again at once
  // (WakeupScheduler takes requests for now).
  next = std::min(next, late_);
  if (next != kNone) {
    armed_ = next;
    wakeups_.wake_at(id_, next);
  }
}

}  // namespace warptlm
