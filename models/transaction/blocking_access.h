// A plain blocking transaction, as hosts and test benches issue them from an
// initiator's thread: one generic payload (no byte enables, streaming width =
// length, no DMI hint) sent with b_transport. One definition for the host CPU,
// the host driver and the test benches' scripted hosts.
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>

namespace warptlm {

// `bytes` bytes at `address` through `socket` (anything whose operator-> is
// the forward interface). Adds the target's annotated delay to `delay`;
// returns the response status.
template <class Socket>
tlm::tlm_response_status blocking_access(Socket& socket, tlm::tlm_command command, uint64_t address,
                                         void* data, unsigned bytes, sc_core::sc_time& delay) {
  tlm::tlm_generic_payload p;
  p.set_command(command);
  p.set_address(address);
  p.set_data_ptr(static_cast<unsigned char*>(data));
  p.set_data_length(bytes);
  p.set_streaming_width(bytes);
  p.set_byte_enable_ptr(nullptr);
  p.set_dmi_allowed(false);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  socket->b_transport(p, delay);
  return p.get_response_status();
}

// A 32-bit register access, little endian: `value` is written, or receives
// what was read (only when the read succeeded).
template <class Socket>
tlm::tlm_response_status register_access(Socket& socket, tlm::tlm_command command, uint64_t address,
                                         uint32_t& value, sc_core::sc_time& delay) {
  uint8_t data[4];
  for (int i = 0; i < 4; ++i) data[i] = static_cast<uint8_t>(value >> (8 * i));
  const tlm::tlm_response_status s = blocking_access(socket, command, address, data, 4, delay);
  if (command == tlm::TLM_READ_COMMAND && s == tlm::TLM_OK_RESPONSE) {
    value = 0;
    for (int i = 0; i < 4; ++i) value |= uint32_t(data[i]) << (8 * i);
  }
  return s;
}

// "TLM_ADDRESS_ERROR_RESPONSE", ...: the generic payload's own wording.
inline std::string response_text(tlm::tlm_response_status status) {
  tlm::tlm_generic_payload p;
  p.set_response_status(status);
  return p.get_response_string();
}

}  // namespace warptlm
