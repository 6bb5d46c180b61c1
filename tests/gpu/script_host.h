// A scripted host for GPU tests: its SC_THREAD runs a test's lambda, which
// reads and writes control registers over TLM (b_transport) and waits on
// events; the simulation stops when the script returns.
#pragma once

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <functional>
#include <systemc>
#include <tlm>

#include "transaction/blocking_access.h"

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
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    return register_access(socket, cmd, address, value, delay);
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
