#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "transaction/paced_sender.h"

#include <stdexcept>

#include "transaction/sim_now.h"

namespace warptlm {

using sc_core::sc_time;

PacedSender::PacedSender(const std::string& kind, const std::string& name, const sc_time& cycle)
    : name_(name), cycle_(cycle) {
  if (cycle == sc_core::SC_ZERO_TIME)
    throw std::invalid_argument(kind + " " + name + ": cycle must be positive");
  sc_core::sc_spawn_options opts;
  opts.spawn_method();
  opts.set_sensitivity(&wake_);
  opts.dont_initialize();
  sc_core::sc_spawn(
      [this] {
        if (wakeups_) wakeups_->cancel(wakeup_id_);  // a delta wake replaces a timed one
        step();
      },
      name_.c_str(), &opts);
}

void PacedSender::use_wakeups(WakeupScheduler& wakeups) {
  wakeups_ = &wakeups;
  wakeup_id_ = wakeups.add(*this);
}

void PacedSender::push(tlm::tlm_generic_payload* payload, const sc_time& ready, unsigned source) {
  queue_.push(payload, ready, source);
  if (!busy_) schedule();
}

void PacedSender::schedule() {
  if (queue_.empty()) return;
  const sc_time now = sim_now();
  sc_time at = queue_.front().ready > free_at_ ? queue_.front().ready : free_at_;
  if (at <= now)
    wake_.notify(sc_core::SC_ZERO_TIME);
  else if (wakeups_)
    wakeups_->wake_at(wakeup_id_, at.value());
  else
    wake_.notify(at - now);  // an earlier pending notification wins; step() re-schedules
}

void PacedSender::free_after(const sc_time& delay) {
  busy_ = nullptr;
  const sc_time at = sim_now() + delay;
  if (at > free_at_) free_at_ = at;
}

void PacedSender::step() {
  if (busy_ || queue_.empty()) return;
  const sc_time now = sim_now();
  const PayloadQueue::Entry head = queue_.front();
  if (head.ready > now || free_at_ > now) return schedule();
  queue_.pop();
  wait_cycles_ += (now - head.ready).value() / cycle_.value();
  free_at_ = now + cycle_;
  ++sent_;
  send(*head.payload);
  if (!busy_) schedule();
}

}  // namespace warptlm
