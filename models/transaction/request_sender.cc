#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "transaction/request_sender.h"

#include <stdexcept>

namespace warptlm {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

RequestSender::RequestSender(const std::string& name, const sc_time& cycle, Mode mode,
                             ResponseHandler on_response)
    : PacedSender("RequestSender", name, cycle),
      mode_(mode),
      on_response_(std::move(on_response)) {}

void RequestSender::send(tlm::tlm_generic_payload& payload) {
  if (before_send_) before_send_(payload);
  if (mode_ == Mode::NonBlocking)
    send_nonblocking(payload);
  else
    send_blocking(payload);
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
  free_after(delay);
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
