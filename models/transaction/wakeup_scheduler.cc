#include "transaction/wakeup_scheduler.h"

#include <algorithm>
#include <functional>

namespace warptlm {

WakeupScheduler::WakeupScheduler(sc_core::sc_module_name name) : sc_module(name) {
  SC_HAS_PROCESS(WakeupScheduler);
  SC_METHOD(fire);
  sensitive << event_;
  dont_initialize();
  heap_.reserve(64);
}

unsigned WakeupScheduler::add(Client& client) {
  clients_.push_back(&client);
  pending_.push_back(kNone);
  return static_cast<unsigned>(clients_.size() - 1);
}

void WakeupScheduler::wake_at(unsigned id, uint64_t at) {
  const uint64_t now = sc_core::sc_time_stamp().value();
  if (at < now) at = now;
  if (pending_[id] <= at) return;
  pending_[id] = at;
  heap_.push_back(Entry{at, id});
  std::push_heap(heap_.begin(), heap_.end(), std::greater<Entry>());
  if (!firing_) arm(at);  // while firing, the loop in fire() takes it
}

void WakeupScheduler::arm(uint64_t at) {
  if (at >= armed_) return;
  armed_ = at;
  const uint64_t now = sc_core::sc_time_stamp().value();
  event_.notify(at > now ? sc_core::sc_time::from_value(at - now) : sc_core::SC_ZERO_TIME);
}

void WakeupScheduler::fire() {
  const uint64_t now = sc_core::sc_time_stamp().value();
  armed_ = kNone;
  firing_ = true;
  while (!heap_.empty() && heap_.front().at <= now) {
    const Entry e = heap_.front();
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<Entry>());
    heap_.pop_back();
    if (pending_[e.id] != e.at) continue;  // cancelled or moved earlier
    pending_[e.id] = kNone;
    clients_[e.id]->wake();
  }
  firing_ = false;
  if (!heap_.empty()) arm(heap_.front().at);
}

}  // namespace warptlm
