#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "transaction/request_sender.h"

#include <stdexcept>

namespace warptlm {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

RequestSender::RequestSender(const std::string& name, const sc_time& cycle, Mode mode,
                             ResponseHandler on_response)
    : name_(name), cycle_(cycle), mode_(mode), on_response_(std::move(on_response)) {
  if (cycle == sc_core::SC_ZERO_TIME)
    throw std::invalid_argument("RequestSender " + name + ": cycle must be positive");
  sc_core::sc_spawn_options opts;
  opts.spawn_method();
  opts.set_sensitivity(&wake_);
  opts.dont_initialize();
  sc_core::sc_spawn([this] { step(); }, name_.c_str(), &opts);
}

void RequestSender::push(tlm::tlm_generic_payload* payload, const sc_time& ready) {
  queue_.push(payload, ready);
  if (!busy_) schedule();
}

void RequestSender::schedule() {
  if (queue_.empty()) return;
  const sc_time now = sc_time_stamp();
  sc_time at = queue_.front().ready > free_at_ ? queue_.front().ready : free_at_;
  if (at <= now)
    wake_.notify(sc_core::SC_ZERO_TIME);
  else
    wake_.notify(at - now);  // an earlier pending notification wins; step() re-schedules
}

void RequestSender::step() {
  if (busy_ || queue_.empty()) return;
  const sc_time now = sc_time_stamp();
  const PayloadQueue::Entry head = queue_.front();
  if (head.ready > now || free_at_ > now) return schedule();
  queue_.pop();
  wait_cycles_ += (now - head.ready).value() / cycle_.value();
  free_at_ = now + cycle_;
  ++sent_;
  if (before_send_) before_send_(*head.payload);
  if (mode_ == Mode::NonBlocking)
    send_nonblocking(*head.payload);
  else
    send_blocking(*head.payload);
  if (!busy_) schedule();
}

void RequestSender::send_nonblocking(tlm::tlm_generic_payload& p) {
  busy_ = &p;  // before the call: the target may answer on the backward path from inside it
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_time delay = sc_core::SC_ZERO_TIME;
  switch (target_->nb_transport_fw(p, phase, delay)) {
    case tlm::TLM_ACCEPTED:
      return;  // END_REQ or BEGIN_RESP will come on the backward path
    case tlm::TLM_UPDATED:
      if (phase == tlm::END_REQ) return end_request(delay);
      if (phase == tlm::BEGIN_RESP) {
        end_request(delay);
        // Accept the response at once: END_RESP on the forward path, with the same timing.
        tlm::tlm_phase end = tlm::END_RESP;
        sc_time end_delay = delay;
        target_->nb_transport_fw(p, end, end_delay);
        return on_response_(p, delay);
      }
      SC_REPORT_ERROR(name_.c_str(), "target returned TLM_UPDATED with an invalid phase");
      return;
    case tlm::TLM_COMPLETED:
      end_request(delay);
      return on_response_(p, delay);
  }
}

tlm::tlm_sync_enum RequestSender::nb_transport_bw(tlm::tlm_generic_payload& p,
                                                  tlm::tlm_phase& phase, sc_time& delay) {
  if (phase == tlm::END_REQ) {
    if (&p == busy_) end_request(delay);
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::BEGIN_RESP) {
    if (&p == busy_) end_request(delay);  // BEGIN_RESP implies END_REQ
    on_response_(p, delay);
    return tlm::TLM_COMPLETED;
  }
  SC_REPORT_ERROR(name_.c_str(), "invalid phase on the backward path");
  return tlm::TLM_COMPLETED;
}

void RequestSender::end_request(const sc_time& delay) {
  busy_ = nullptr;
  const sc_time at = sc_time_stamp() + delay;
  if (at > free_at_) free_at_ = at;
  schedule();
}

void RequestSender::send_blocking(tlm::tlm_generic_payload& p) {
  ++outstanding_blocking_;
  if (!idle_workers_.empty()) {
    Worker* w = idle_workers_.back();
    idle_workers_.pop_back();
    w->job = &p;
    w->wake.notify(sc_core::SC_ZERO_TIME);
    return;
  }
  // A new worker starts with its first job; afterwards it sleeps in the idle list.
  workers_.push_back(std::make_unique<Worker>());
  Worker* w = workers_.back().get();
  w->job = &p;
  sc_core::sc_spawn_options opts;  // a thread: b_transport may wait
  sc_core::sc_spawn([this, w] { work(w); },
                    (name_ + "_lt_" + std::to_string(workers_.size())).c_str(), &opts);
}

void RequestSender::work(Worker* w) {
  for (;;) {
    tlm::tlm_generic_payload& p = *w->job;
    sc_time delay = sc_core::SC_ZERO_TIME;
    target_->b_transport(p, delay);
    sc_core::wait(delay);  // honour the target's timing annotation
    w->job = nullptr;
    --outstanding_blocking_;
    idle_workers_.push_back(w);
    on_response_(p, sc_core::SC_ZERO_TIME);
    sc_core::wait(w->wake);
  }
}

}  // namespace warptlm
