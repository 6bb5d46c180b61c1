// The DRAM model: a TLM-2.0 target holding the GPU's global memory data (a
// DeviceMemory backing store) and timing its accesses over channels of banks
// with row buffers (see dram_channel.h for the timing and dram_address_map.h
// for the address map). Approximately-timed requests queue per channel and are
// scheduled by config.scheduler; a full queue holds the request's END_REQ back.
// b_transport serves an access at once, bypassing the queues, and returns the
// modelled delay in its annotation; transport_dbg moves data without timing.
#pragma once

#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <systemc>
#include <tlm>
#include <vector>

#include "config/platform_config.h"
#include "dram/dram_address_map.h"
#include "dram/dram_channel.h"
#include "dram/dram_stats.h"
#include "memory/device_memory.h"
#include "transaction/wakeup_scheduler.h"

namespace warptlm {

class DramModel : public sc_core::sc_module, private WakeupScheduler::Client {
 public:
  static constexpr unsigned kDefaultQueueDepth = 16;

  // store: the backing store. line: request granularity, bytes (the address
  // map's interleaving unit). queue_depth: requests each channel queues.
  // Throws std::invalid_argument naming a bad parameter.
  DramModel(sc_core::sc_module_name name, const DramConfig& config, unsigned line,
            DeviceMemory& store, unsigned queue_depth = kDefaultQueueDepth);

  tlm_utils::simple_target_socket<DramModel> in;

  const DramStats& stats() const { return stats_; }
  const sc_core::sc_time& clock_period() const { return period_; }
  const DramAddressMap& address_map() const { return map_; }
  // Timed wake-ups go through `wakeups` (call during elaboration; see
  // transaction/wakeup_scheduler.h).
  void use_wakeups(WakeupScheduler& wakeups);

 private:
  struct Completion {
    uint64_t done;  // cycle the response is due
    uint64_t seq;   // arrival order, to break ties
    tlm::tlm_generic_payload* trans;
  };

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);
  void peq_callback(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase);

  bool begin_request(tlm::tlm_generic_payload& trans);  // true: accepted now
  void accept(tlm::tlm_generic_payload& trans, const DramAddress& where);
  void end_response(tlm::tlm_generic_payload& trans);
  void run();  // the scheduler and response sender, woken by wake_
  void send_responses();
  void schedule_wake();
  void wake() override { run(); }
  void complete_at(uint64_t cycle, tlm::tlm_generic_payload& trans);
  void count(unsigned channel, tlm::tlm_command command, unsigned bytes, const DramService& s);

  uint64_t cycle_at(const sc_core::sc_time& t) const;  // the first edge at or after t
  sc_core::sc_time time_of(uint64_t cycle) const;

  DramAddressMap map_;
  DeviceMemory& store_;
  sc_core::sc_time period_;
  std::vector<DramChannel> channels_;
  std::vector<uint64_t> next_start_;     // per channel, cached DramChannel::next_start
  std::vector<Completion> completions_;  // min-heap on (done, seq)
  uint64_t seq_ = 0;
  tlm::tlm_generic_payload* blocked_ = nullptr;  // waiting for a slot in blocked_channel_
  unsigned blocked_channel_ = 0;
  tlm::tlm_generic_payload* response_open_ = nullptr;  // BEGIN_RESP sent, END_RESP awaited
  sc_core::sc_time response_free_at_;                  // an early END_RESP's annotated time
  sc_core::sc_event wake_;
  WakeupScheduler* wakeups_ = nullptr;
  unsigned wakeup_id_ = 0;
  tlm_utils::peq_with_cb_and_phase<DramModel> peq_;
  DramStats stats_;
};

}  // namespace warptlm
