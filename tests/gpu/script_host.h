// A scripted host for GPU tests: its SC_THREAD runs a test's lambda, which
// reads and writes control registers over TLM (b_transport) and waits on
// events; the simulation stops when the script returns.
#pragma once

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <functional>
#include <systemc>
#include <tlm>

namespace warptlm::testing {

class ScriptHost : public sc_core::sc_module {
 public:
  ScriptHost(sc_core::sc_module_name name, std::function<void(ScriptHost&)> script)
      : sc_module(name), socket("socket"), script_(std::move(script)) {
    SC_HAS_PROCESS(ScriptHost);
    SC_THREAD(run);
  }

  tlm_utils::simple_initiator_socket<ScriptHost> socket;
  bool finished = false;  // the script ran to its end

  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t address, uint32_t& value) {
    uint8_t data[4];
    for (int i = 0; i < 4; ++i) data[i] = static_cast<uint8_t>(value >> (8 * i));
    tlm::tlm_generic_payload p;
    p.set_command(cmd);
    p.set_address(address);
    p.set_data_ptr(data);
    p.set_data_length(4);
    p.set_streaming_width(4);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(p, delay);
    value = 0;
    for (int i = 0; i < 4; ++i) value |= uint32_t(data[i]) << (8 * i);
    return p.get_response_status();
  }
  tlm::tlm_response_status write(uint64_t address, uint32_t value) {
    return access(tlm::TLM_WRITE_COMMAND, address, value);
  }
  // A read that must succeed.
  uint32_t read(uint64_t address) {
    uint32_t v = 0;
    EXPECT_EQ(access(tlm::TLM_READ_COMMAND, address, v), tlm::TLM_OK_RESPONSE) << address;
    return v;
  }
  // A write that must succeed.
  void set(uint64_t address, uint32_t value) {
    EXPECT_EQ(write(address, value), tlm::TLM_OK_RESPONSE) << address;
  }

 private:
  void run() {
    script_(*this);
    finished = true;
    sc_core::sc_stop();
  }
  std::function<void(ScriptHost&)> script_;
};

}  // namespace warptlm::testing
