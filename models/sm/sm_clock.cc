#include "sm/sm_clock.h"

#include <algorithm>
#include <stdexcept>

#include "transaction/sim_now.h"

namespace warptlm {

SmClock::SmClock(WakeupScheduler& wakeups) : wakeups_(wakeups), id_(wakeups.add(*this)) {}

unsigned SmClock::add(Member& sm) {
  members_.push_back(&sm);
  due_.push_back(kNone);
  return static_cast<unsigned>(members_.size() - 1);
}

void SmClock::set_host_threads(unsigned threads) {
  if (threads == 0) throw std::invalid_argument("host_threads: 0; at least 1 is needed");
  workers_.reset();
  if (threads > 1) workers_ = std::make_unique<PhaseWorkers>(threads);
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
  if (workers_ && choice_.parallel(now)) {
    tick_in_parallel(now);
    for (uint64_t due : due_) next = std::min(next, due);
  } else {
    for (size_t i = 0; i < members_.size(); ++i) {
      if (due_[i] <= now) {
        due_[i] = kNone;
        members_[i]->clocked();
      }
      next = std::min(next, due_[i]);
    }
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

void SmClock::tick_in_parallel(uint64_t now) {
  // The members due now are those the serial loop would tick: a member's
  // tick requests only its own next ticks, never one at `now`, and nothing
  // else asks for a tick in the middle of this pass. Requests made during the
  // pass leave their mark in due_ and late_, which wake() reads afterwards:
  // the next wake-up is the serial loop's.
  due_now_.clear();
  for (unsigned i = 0; i < members_.size(); ++i) {
    if (due_[i] <= now) {
      due_[i] = kNone;
      due_now_.push_back(i);
    }
  }
  if (due_now_.size() < 2) {
    for (unsigned i : due_now_) members_[i]->clocked();
    return;
  }
  auto private_part = [this, now](unsigned i) { members_[i]->clocked_private(now); };
  workers_->run(due_now_, private_part);
  for (unsigned i : due_now_) members_[i]->clocked_serial();
}

}  // namespace warptlm
