// A plain loosely-timed TLM-2.0 memory, the kind a virtual prototype binds
// to a bus master: b_transport with a fixed latency per transaction, DMI to
// each allocation of its backing store (when enabled), debug transport (when
// enabled). Its backing store is a DeviceMemory, so an access outside every
// allocation is an address error and a kernel fault names the nearest
// buffer. A simple_target_socket: AT initiators (nb_transport) are adapted
// by the socket. What run_timing binds when asked for a platform memory, and
// what the benchmarks and platforms use as "memory written by someone else".
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <systemc>
#include <tlm>

#include "memory/device_memory.h"

namespace warptlm {

struct TlmMemoryParams {
  sc_core::sc_time latency = sc_core::sc_time(100, sc_core::SC_NS);  // per b_transport
  bool dmi = true;    // grant DMI for each allocation
  bool debug = true;  // implement transport_dbg
};

struct TlmMemoryStats {
  uint64_t reads = 0, writes = 0;  // b_transport
  uint64_t errors = 0;             // b_transport answered with an error
  uint64_t dmi_grants = 0, dmi_refusals = 0;
  uint64_t debug_accesses = 0;
};

class TlmMemory : public sc_core::sc_module {
 public:
  // `store` must outlive the memory; allocations made in it later are served too.
  TlmMemory(sc_core::sc_module_name name, DeviceMemory& store, const TlmMemoryParams& params = {});

  tlm_utils::simple_target_socket<TlmMemory> socket;

  // Withdraws every DMI pointer granted so far (invalidate_direct_mem_ptr over
  // the whole address space), as a memory does when its mapping changes.
  void invalidate_dmi();
  const TlmMemoryStats& stats() const { return stats_; }

 private:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& payload, tlm::tlm_dmi& dmi);
  unsigned transport_dbg(tlm::tlm_generic_payload& payload);

  DeviceMemory* store_;
  TlmMemoryParams params_;
  TlmMemoryStats stats_;
};

}  // namespace warptlm
