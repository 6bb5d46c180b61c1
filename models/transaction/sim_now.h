// The current simulated time without a library call: sc_core::sc_time_stamp()
// is out of line in libsystemc, and the memory side and the SM clock ask for
// the time millions of times per run; the simulation context's time_stamp()
// it wraps is inline.
#pragma once

#include <cstdint>
#include <systemc>

namespace warptlm {

inline const sc_core::sc_time& sim_now() { return sc_core::sc_get_curr_simcontext()->time_stamp(); }
// sim_now() in time resolution units.
inline uint64_t sim_now_value() { return sim_now().value(); }

}  // namespace warptlm
