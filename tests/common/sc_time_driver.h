// Helpers for tests of timed SystemC components: times in nanoseconds, and a
// module whose one method process runs a test's body at time 0 (where
// components request their wake-ups, as they do from their own processes).
#pragma once

#include <cstdint>
#include <functional>
#include <systemc>

namespace warptlm::testing {

// `v` nanoseconds in SystemC time-resolution units (sc_time::value()).
inline uint64_t ns(unsigned v) { return sc_core::sc_time(v, sc_core::SC_NS).value(); }
// The current simulation time in whole nanoseconds.
inline unsigned now_ns() {
  return static_cast<unsigned>(sc_core::sc_time_stamp().to_seconds() * 1e9);
}

struct Driver : sc_core::sc_module {
  SC_HAS_PROCESS(Driver);
  Driver(sc_core::sc_module_name n, std::function<void()> body) : sc_module(n), body(body) {
    SC_METHOD(start);
  }
  void start() { body(); }
  std::function<void()> body;
};

}  // namespace warptlm::testing
