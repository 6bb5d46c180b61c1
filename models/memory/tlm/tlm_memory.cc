#include "memory/tlm/tlm_memory.h"

#include <cstring>

namespace warptlm {

TlmMemory::TlmMemory(sc_core::sc_module_name name, DeviceMemory& store,
                     const TlmMemoryParams& params)
    : sc_module(name), socket("socket"), store_(&store), params_(params) {
  socket.register_b_transport(this, &TlmMemory::b_transport);
  socket.register_get_direct_mem_ptr(this, &TlmMemory::get_direct_mem_ptr);
  if (params.debug) socket.register_transport_dbg(this, &TlmMemory::transport_dbg);
}

void TlmMemory::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  delay += params_.latency;
  const uint64_t address = p.get_address();
  const unsigned n = p.get_data_length();
  const unsigned width = p.get_streaming_width();
  const unsigned char* enables = p.get_byte_enable_ptr();
  const unsigned enable_length = p.get_byte_enable_length();
  auto fail = [&](tlm::tlm_response_status status) {
    ++stats_.errors;
    p.set_response_status(status);
  };
  if (!p.is_read() && !p.is_write()) return p.set_response_status(tlm::TLM_OK_RESPONSE);
  if (width != 0 && width < n) return fail(tlm::TLM_BURST_ERROR_RESPONSE);
  if (enables && enable_length == 0) return fail(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
  DeviceMemory::Allocation* a = store_->find(address, n);
  if (!a || !p.get_data_ptr()) return fail(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  uint8_t* at = a->bytes.data() + (address - a->base);
  for (unsigned i = 0; i < n; ++i) {
    if (enables && enables[i % enable_length] != TLM_BYTE_ENABLED) continue;
    if (p.is_read())
      p.get_data_ptr()[i] = at[i];
    else
      at[i] = p.get_data_ptr()[i];
  }
  ++(p.is_read() ? stats_.reads : stats_.writes);
  p.set_dmi_allowed(params_.dmi);
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool TlmMemory::get_direct_mem_ptr(tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi) {
  const uint64_t address = p.get_address();
  DeviceMemory::Allocation* a = params_.dmi ? store_->find(address, 1) : nullptr;
  if (!a || a->bytes.empty()) {
    ++stats_.dmi_refusals;
    dmi.set_start_address(address);  // no DMI here (the gap is not worth describing)
    dmi.set_end_address(address);
    return false;
  }
  ++stats_.dmi_grants;
  dmi.set_dmi_ptr(a->bytes.data());
  dmi.set_start_address(a->base);
  dmi.set_end_address(a->base + a->bytes.size() - 1);
  dmi.allow_read_write();
  dmi.set_read_latency(params_.latency);
  dmi.set_write_latency(params_.latency);
  return true;
}

unsigned TlmMemory::transport_dbg(tlm::tlm_generic_payload& p) {
  ++stats_.debug_accesses;
  const uint64_t address = p.get_address();
  const unsigned n = p.get_data_length();
  DeviceMemory::Allocation* a = store_->find(address, n);
  if (!a || !p.get_data_ptr()) return 0;
  uint8_t* at = a->bytes.data() + (address - a->base);
  if (p.is_read()) std::memcpy(p.get_data_ptr(), at, n);
  if (p.is_write()) std::memcpy(at, p.get_data_ptr(), n);
  return p.is_read() || p.is_write() ? n : 0;
}

void TlmMemory::invalidate_dmi() { socket->invalidate_direct_mem_ptr(0, ~uint64_t(0)); }

}  // namespace warptlm
