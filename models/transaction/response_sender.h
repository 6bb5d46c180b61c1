// The target side of one hop's return path: queues responses and sends each upstream with
// BEGIN_RESP, at most one per cycle and only after the previous response's END_RESP (the TLM-2.0
// base protocol's response exclusion rule), handling every legal return (TLM_ACCEPTED and END_RESP
// later on the forward path, TLM_UPDATED with END_RESP, TLM_COMPLETED). Construct it during
// elaboration (it spawns its process); bind it before the simulation starts.
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>

#include "transaction/payload_queue.h"

namespace warptlm {

class ResponseSender {
 public:
  ResponseSender(const std::string& name, const sc_core::sc_time& cycle);
  ResponseSender(const ResponseSender&) = delete;
  ResponseSender& operator=(const ResponseSender&) = delete;

  void bind(tlm::tlm_bw_transport_if<>* initiator) { initiator_ = initiator; }

  // Queues the response of `payload` to leave no earlier than `ready` (absolute simulated time).
  void push(tlm::tlm_generic_payload* payload, const sc_core::sc_time& ready);

  // END_RESP from the initiator on the forward path; the answer is TLM_COMPLETED.
  tlm::tlm_sync_enum end_response(tlm::tlm_generic_payload& payload, const sc_core::sc_time& delay);

  uint64_t sent() const { return sent_; }
  // Cycles responses waited past their ready time (contention and back-pressure).
  uint64_t wait_cycles() const { return wait_cycles_; }
  bool idle() const { return queue_.empty() && !busy_; }

 private:
  void step();
  void schedule();
  void free_after(const sc_core::sc_time& delay);

  std::string name_;
  sc_core::sc_time cycle_;
  tlm::tlm_bw_transport_if<>* initiator_ = nullptr;
  PayloadQueue queue_;
  tlm::tlm_generic_payload* busy_ = nullptr;  // BEGIN_RESP sent, END_RESP not yet seen
  sc_core::sc_time free_at_;                  // earliest time for the next BEGIN_RESP
  sc_core::sc_event wake_;
  uint64_t sent_ = 0;
  uint64_t wait_cycles_ = 0;
};

}  // namespace warptlm
