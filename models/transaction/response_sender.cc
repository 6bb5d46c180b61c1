#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "transaction/response_sender.h"

#include <stdexcept>

namespace warptlm {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

ResponseSender::ResponseSender(const std::string& name, const sc_time& cycle)
    : PacedSender("ResponseSender", name, cycle) {}

void ResponseSender::send(tlm::tlm_generic_payload& payload) {
  busy_ = &payload;  // before the call: END_RESP may come from inside it
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_time delay = sc_core::SC_ZERO_TIME;
  // After TLM_COMPLETED or END_RESP the initiator may already have released the payload: only
  // its address is compared from here on.
  switch (initiator_->nb_transport_bw(payload, phase, delay)) {
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
}

tlm::tlm_sync_enum ResponseSender::end_response(tlm::tlm_generic_payload& payload,
                                                const sc_time& delay) {
  if (&payload == busy_) {
    free_after(delay);
    schedule();
  }
  return tlm::TLM_COMPLETED;
}

}  // namespace warptlm
