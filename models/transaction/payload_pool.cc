#include "transaction/payload_pool.h"

#include <stdexcept>

namespace warptlm {

PayloadPool::PayloadPool(unsigned data_bytes) : data_bytes_(data_bytes) {
  if (data_bytes == 0) throw std::invalid_argument("PayloadPool: data_bytes must be positive");
}

PayloadPool::~PayloadPool() = default;  // each payload's destructor frees its extensions

PooledPayload* PayloadPool::allocate() {
  PooledPayload* p;
  if (free_.empty()) {
    all_.push_back(std::make_unique<PooledPayload>(this, data_bytes_));
    p = all_.back().get();  // its GpuExtension stays attached for the payload's whole life
  } else {
    p = free_.back();
    free_.pop_back();
    p->gpu.reset();
  }
  p->set_command(tlm::TLM_IGNORE_COMMAND);
  p->set_address(0);
  p->set_data_ptr(p->buffer.data());
  p->set_data_length(0);
  p->set_streaming_width(0);
  p->set_byte_enable_ptr(nullptr);
  p->set_byte_enable_length(0);
  p->set_dmi_allowed(false);
  p->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  p->set_gp_option(tlm::TLM_MIN_PAYLOAD);
  p->acquire();
  ++outstanding_;
  return p;
}

void PayloadPool::free(tlm::tlm_generic_payload* payload) {
  // Only payloads this pool made carry it as their memory manager, so the downcast is exact.
  payload->reset();  // frees auto extensions; ordinary (sticky) ones, ours included, stay
  free_.push_back(static_cast<PooledPayload*>(payload));
  --outstanding_;
}

}  // namespace warptlm
