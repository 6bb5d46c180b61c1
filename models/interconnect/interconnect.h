// The on-chip interconnect: a router between the SMs (inputs) and the L2 slices (outputs) on the
// TLM-2.0 approximately-timed base protocol. A request goes to the output its address interleaves
// to and waits `latency` cycles; each output sends at most one request per cycle (and only after
// the slice accepted the previous one); the response returns to the input the request came from,
// again after `latency` cycles, at most one per cycle per input. Payloads pass through unchanged
// (an error response status included); the interconnect never copies or releases them. Requests
// ready for an output in the same cycle leave in input order, responses for an input in output
// order.
#pragma once

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <vector>

#include "stats/stat_info.h"
#include "transaction/request_sender.h"
#include "transaction/response_sender.h"

namespace warptlm {

struct InterconnectParams {
  unsigned inputs = 1;     // SMs
  unsigned outputs = 1;    // L2 slices
  unsigned line = 64;      // interleaving granularity, bytes (the L2 line)
  unsigned latency = 4;    // cycles each way
  sc_core::sc_time cycle;  // core clock period
  // Throws std::invalid_argument naming the first bad field.
  void validate() const;
};

struct InterconnectStats {
  uint64_t requests = 0;   // requests routed (nb_transport; b_transport calls are not counted)
  uint64_t reads = 0;      // of which TLM_READ_COMMAND
  uint64_t writes = 0;     // of which TLM_WRITE_COMMAND
  uint64_t responses = 0;  // responses received from the outputs
  uint64_t error_responses = 0;  // of which with an error status (passed back unchanged)
  // Cycles requests waited for their output beyond `latency` (one request per cycle per output,
  // and back-pressure from the slice), and responses for their input.
  uint64_t request_stall_cycles = 0;
  uint64_t response_stall_cycles = 0;
  std::vector<uint64_t> output_requests;  // per output (L2 slice)
  std::vector<uint64_t> input_requests;   // per input (SM)
  nlohmann::json to_json() const;         // flat: counters, and the per-port lists as arrays
  // The keys of its statistics, in order, with unit and meaning ("<N>" stands
  // for an index in per-part keys).
  static const std::vector<StatInfo>& infos();
};

class Interconnect : public sc_core::sc_module {
 public:
  Interconnect(sc_core::sc_module_name name, const InterconnectParams& params);
  static constexpr unsigned kRouteSlot = 0;  // its slot in a pooled payload (route_extension.h)

  tlm_utils::multi_passthrough_target_socket<Interconnect> in;      // bind each SM's initiator
  tlm_utils::multi_passthrough_initiator_socket<Interconnect> out;  // bind each slice's target

  // Which output an address goes to: line-interleaved, (address / line) % outputs.
  static unsigned output_of(uint64_t address, unsigned line, unsigned outputs) {
    return static_cast<unsigned>((address / line) % outputs);
  }
  const InterconnectParams& params() const { return params_; }
  const InterconnectStats& stats() const;
  // Timed wake-ups of the request senders (by output), then the response senders (by input), go
  // through `wakeups` (call during elaboration; see transaction/wakeup_scheduler.h).
  void use_wakeups(WakeupScheduler& wakeups);

 private:
  tlm::tlm_sync_enum nb_transport_fw(int input, tlm::tlm_generic_payload& payload,
                                     tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void b_transport(int input, tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);
  unsigned transport_dbg(int input, tlm::tlm_generic_payload& payload);
  bool get_direct_mem_ptr(int input, tlm::tlm_generic_payload& payload, tlm::tlm_dmi& dmi);
  tlm::tlm_sync_enum nb_transport_bw(int output, tlm::tlm_generic_payload& payload,
                                     tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void invalidate_direct_mem_ptr(int output, sc_dt::uint64 start, sc_dt::uint64 end);
  void start_of_simulation() override;
  void on_response(tlm::tlm_generic_payload& payload, const sc_core::sc_time& delay,
                   unsigned output);
  unsigned route(const tlm::tlm_generic_payload& payload) const {
    return output_of(payload.get_address(), params_.line, params_.outputs);
  }

  InterconnectParams params_;
  sc_core::sc_time hop_;  // latency * cycle
  std::vector<std::unique_ptr<RequestSender>> to_output_;
  std::vector<std::unique_ptr<ResponseSender>> to_input_;
  mutable InterconnectStats stats_;  // stall cycles are gathered from the senders when read
};

}  // namespace warptlm
