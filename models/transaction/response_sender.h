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

#include "transaction/paced_sender.h"

namespace warptlm {

class ResponseSender : public PacedSender {
 public:
  ResponseSender(const std::string& name, const sc_core::sc_time& cycle);

  void bind(tlm::tlm_bw_transport_if<>* initiator) { initiator_ = initiator; }

  // END_RESP from the initiator on the forward path; the answer is TLM_COMPLETED.
  tlm::tlm_sync_enum end_response(tlm::tlm_generic_payload& payload, const sc_core::sc_time& delay);

  bool idle() const { return queue_.empty() && !busy_; }

 private:
  void send(tlm::tlm_generic_payload& payload) override;

  tlm::tlm_bw_transport_if<>* initiator_ = nullptr;
};

}  // namespace warptlm
