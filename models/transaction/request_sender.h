// The initiator side of one hop: queues payloads and sends each to a downstream target, at most one
// per cycle. NonBlocking mode follows the TLM-2.0 approximately-timed base protocol: BEGIN_REQ only
// after the previous request's END_REQ (the request exclusion rule), every legal return handled
// (TLM_ACCEPTED, TLM_UPDATED with END_REQ or BEGIN_RESP, TLM_COMPLETED), and every response
// accepted at once (the owner buffers it). Blocking mode calls b_transport from a pooled worker
// thread per outstanding transaction and waits out the annotated delay before handing the response
// back. Construct it during elaboration (it spawns its process); bind it before the simulation
// starts.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "transaction/paced_sender.h"

namespace warptlm {

class RequestSender : public PacedSender {
 public:
  enum class Mode { NonBlocking, Blocking };
  // The response to `payload` begins `delay` after the current time; it is complete on this hop.
  using ResponseHandler =
      std::function<void(tlm::tlm_generic_payload& payload, const sc_core::sc_time& delay)>;
  // Called on each payload right before it leaves (after its queueing, at its sending time).
  using SendHook = std::function<void(tlm::tlm_generic_payload& payload)>;

  RequestSender(const std::string& name, const sc_core::sc_time& cycle, Mode mode,
                ResponseHandler on_response);

  void bind(tlm::tlm_fw_transport_if<>* target) { target_ = target; }
  void set_before_send(SendHook hook) { before_send_ = std::move(hook); }

  // The target's backward calls for this hop (END_REQ, BEGIN_RESP); the owner's nb_transport_bw
  // forwards them here.
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);

  bool idle() const { return queue_.empty() && !busy_ && outstanding_blocking_ == 0; }

 private:
  struct Worker {
    tlm::tlm_generic_payload* job = nullptr;
    sc_core::sc_event wake;
  };

  void send(tlm::tlm_generic_payload& payload) override;
  void send_nonblocking(tlm::tlm_generic_payload& payload);
  void send_blocking(tlm::tlm_generic_payload& payload);
  void work(Worker* worker);
  void end_request(const sc_core::sc_time& delay);

  Mode mode_;
  ResponseHandler on_response_;
  SendHook before_send_;
  tlm::tlm_fw_transport_if<>* target_ = nullptr;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<Worker*> idle_workers_;
  unsigned outstanding_blocking_ = 0;
};

}  // namespace warptlm
