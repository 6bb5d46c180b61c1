// The GPU's single way out to memory: merges the L2 slices' traffic onto one initiator socket,
// which the GPU top binds hierarchically to its own `memory` socket (port.out.bind(gpu.memory)).
// Requests leave in arrival order (same-time ones in input order), at most one per cycle; responses
// go back to the slice that sent the request, at most one per cycle per slice. Because the timing
// model executes instructions at issue, memory already holds the newest data when a timing write
// travels: each write's data is refreshed from the target (a DMI or debug read of the same range)
// right before it leaves, and refreshed again whenever an instruction writes bytes it overlaps
// until its response arrives (global_written), so a write never puts stale bytes back, whenever
// the target takes its data: on acceptance (the GPU's DRAM, which may hold a request back while
// its queue is full), in a b_transport called a delta later, or at the response (Accellera's AT
// examples). A target that copies the data at BEGIN_REQ and writes it to memory later is the one
// case this cannot cover. Error responses pass back unchanged.
#pragma once

#include <tlm_utils/multi_passthrough_target_socket.h>

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "interconnect/target_access.h"
#include "memory/global_write_observer.h"
#include "stats/stat_info.h"
#include "transaction/request_sender.h"
#include "transaction/response_sender.h"

namespace warptlm {

struct MemoryPortStats {
  uint64_t reads = 0;             // requests with TLM_READ_COMMAND (nb_transport)
  uint64_t writes = 0;            // requests with TLM_WRITE_COMMAND (nb_transport)
  uint64_t responses = 0;         // responses received from memory
  uint64_t error_responses = 0;   // of which with an error status (passed back unchanged)
  uint64_t writes_refreshed = 0;  // writes whose data was re-read from memory before leaving
  uint64_t refresh_failures = 0;  // writes whose refresh read the target refused
  uint64_t writes_patched = 0;    // in-flight writes refreshed again after a newer store overlapped
  uint64_t request_stall_cycles = 0;   // cycles requests waited for the single outgoing link
  uint64_t response_stall_cycles = 0;  // cycles responses waited for their slice
  // The functional accesses (read(), write()): by DMI, debug transport or
  // b_transport (interconnect/target_access.h).
  TargetAccessStats functional;
  nlohmann::json to_json() const;  // flat
  // The keys of its statistics, in order, with unit and meaning ("<N>" stands
  // for an index in per-part keys).
  static const std::vector<StatInfo>& infos();
};

class MemoryPort : public sc_core::sc_module,
                   public GlobalWriteObserver,
                   private tlm::tlm_bw_transport_if<> {
 public:
  // protocol: "at" (nb_transport to the target; a target built on simple_target_socket that
  // registered only b_transport is adapted by that socket itself) or "lt" (the port calls
  // b_transport, from a worker thread per outstanding transaction, honouring the annotated delay),
  // for targets that offer only b_transport on a plain tlm_target_socket.
  // `dmi`: functional accesses ask the target for DMI (TargetAccess).
  MemoryPort(sc_core::sc_module_name name, unsigned inputs, const std::string& protocol,
             sc_core::sc_time cycle, bool dmi = true);
  static constexpr unsigned kRouteSlot = 1;  // its slot in a pooled payload (route_extension.h)

  tlm_utils::multi_passthrough_target_socket<MemoryPort> in;  // bind each L2 slice's initiator
  tlm::tlm_initiator_socket<> out;

  // Functional access to memory (execute-at-issue, the loosely-timed runner, the registers'
  // LOAD and parameter reads) on `out`, usable once elaboration has bound it: DMI when granted,
  // else debug transport (`delay` null: zero time) or b_transport (`delay` set: from a thread,
  // with the annotated time). False when the target refused (the caller reports a fault).
  bool read(uint64_t address, void* dst, uint64_t bytes, sc_core::sc_time* delay = nullptr) {
    return functional_.read(address, dst, bytes, delay);
  }
  bool write(uint64_t address, const void* src, uint64_t bytes, sc_core::sc_time* delay = nullptr) {
    return functional_.write(address, src, bytes, delay);
  }
  // A DMI region holding [address, address + bytes) (TargetAccess::direct).
  bool direct(uint64_t address, uint64_t bytes, uint64_t* base, uint64_t* span,
              unsigned char** data) {
    return functional_.direct(address, bytes, base, span, data);
  }

  // An instruction wrote [lo, hi) at issue: the writes still in flight that overlap it take the
  // newest bytes (see the top of this file).
  void global_written(uint64_t lo, uint64_t hi) override;

  const std::string& protocol() const { return protocol_; }
  const MemoryPortStats& stats() const;
  // Timed wake-ups of the request sender, then the response senders (by slice), go through
  // `wakeups` (call during elaboration; see transaction/wakeup_scheduler.h).
  void use_wakeups(WakeupScheduler& wakeups);

 private:
  tlm::tlm_sync_enum nb_transport_fw(int input, tlm::tlm_generic_payload& payload,
                                     tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void b_transport(int input, tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);
  unsigned transport_dbg(int input, tlm::tlm_generic_payload& payload);
  bool get_direct_mem_ptr(int input, tlm::tlm_generic_payload& payload, tlm::tlm_dmi& dmi);
  // out's backward path
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) override;

  void start_of_simulation() override;
  void refresh(tlm::tlm_generic_payload& payload);
  void forget(tlm::tlm_generic_payload& payload);  // a write's response came: its data is taken
  void on_response(tlm::tlm_generic_payload& payload, const sc_core::sc_time& delay);

  unsigned inputs_;
  std::string protocol_;
  std::unique_ptr<RequestSender> to_memory_;
  std::vector<std::unique_ptr<ResponseSender>> to_input_;
  TargetAccess functional_;
  // Writes refreshed and sent whose response has not come (few: the DRAM's queues bound them).
  std::vector<tlm::tlm_generic_payload*> in_flight_writes_;
  mutable MemoryPortStats stats_;  // stall cycles are gathered from the senders when read
};

}  // namespace warptlm
