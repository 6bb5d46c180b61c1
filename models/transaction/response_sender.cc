#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "transaction/response_sender.h"

#include <stdexcept>

namespace warptlm {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

ResponseSender::ResponseSender(const std::string& name, const sc_time& cycle)
    : name_(name), cycle_(cycle) {
  if (cycle == sc_core::SC_ZERO_TIME)
    throw std::invalid_argument("ResponseSender " + name + ": cycle must be positive");
  sc_core::sc_spawn_options opts;
  opts.spawn_method();
  opts.set_sensitivity(&wake_);
  opts.dont_initialize();
  sc_core::sc_spawn([this] { step(); }, name_.c_str(), &opts);
}

void ResponseSender::push(tlm::tlm_generic_payload* payload, const sc_time& ready) {
  queue_.push(payload, ready);
  if (!busy_) schedule();
}

void ResponseSender::schedule() {
  if (queue_.empty()) return;
  const sc_time now = sc_time_stamp();
  sc_time at = queue_.front().ready > free_at_ ? queue_.front().ready : free_at_;
  if (at <= now)
    wake_.notify(sc_core::SC_ZERO_TIME);
  else
    wake_.notify(at - now);  // an earlier pending notification wins; step() re-schedules
}

void ResponseSender::step() {
  if (busy_ || queue_.empty()) return;
  const sc_time now = sc_time_stamp();
  const PayloadQueue::Entry head = queue_.front();
  if (head.ready > now || free_at_ > now) return schedule();
  queue_.pop();
  wait_cycles_ += (now - head.ready).value() / cycle_.value();
  free_at_ = now + cycle_;
  ++sent_;
  busy_ = head.payload;  // before the call: END_RESP may come from inside it
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_time delay = sc_core::SC_ZERO_TIME;
  // After TLM_COMPLETED or END_RESP the initiator may already have released the payload: only
  // its address is compared from here on.
  switch (initiator_->nb_transport_bw(*head.payload, phase, delay)) {
    case tlm::TLM_ACCEPTED:
      break;  // END_RESP comes on the forward path (or already came, from inside the call)
    case tlm::TLM_UPDATED:
      if (phase == tlm::END_RESP) {
        free_after(delay);
      } else {
        SC_REPORT_ERROR(name_.c_str(), "initiator returned TLM_UPDATED with an invalid phase");
      }
      break;
    case tlm::TLM_COMPLETED:
      free_after(delay);
      break;
  }
  if (!busy_) schedule();
}

tlm::tlm_sync_enum ResponseSender::end_response(tlm::tlm_generic_payload& payload,
                                                const sc_time& delay) {
  if (&payload == busy_) {
    free_after(delay);
    schedule();
  }
  return tlm::TLM_COMPLETED;
}

void ResponseSender::free_after(const sc_time& delay) {
  busy_ = nullptr;
  const sc_time at = sc_time_stamp() + delay;
  if (at > free_at_) free_at_ = at;
}

}  // namespace warptlm
