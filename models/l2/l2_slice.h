// One L2 cache slice: a TLM-2.0 approximately-timed target towards the
// interconnect and initiator towards memory, with a tag array (no data: the
// functional executor already produced every value; data lives in the DRAM
// model) and MSHRs. One request is looked up per core cycle. Hits answer after
// cache.latency cycles; misses send one line read to memory, merge later misses
// to the same line, and answer cache.latency cycles after the fill arrives.
// Requests that find no free MSHR (or a full queue to memory) are held at the
// socket without END_REQ, which back-pressures the interconnect. A slice with
// cache.size == 0 caches nothing and forwards every request unchanged.
// docs/memory-system.md ("L2 slices") gives the full behaviour.
#pragma once

#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <optional>
#include <systemc>
#include <tlm>
#include <vector>

#include "cache/cache_tags.h"
#include "cache/mshr_table.h"
#include "config/platform_config.h"
#include "l2/l2_stats.h"
#include "l2/ring_queue.h"
#include "transaction/payload_pool.h"
#include "transaction/wakeup_scheduler.h"

namespace warptlm {

struct L2Params {
  CacheConfig cache;             // cache.size is THIS slice's bytes
  unsigned index = 0;            // slice number (writebacks carry it as GpuExtension::sm)
  sc_core::sc_time cycle;        // core clock period
  unsigned mshr_max_merged = 8;  // requests one MSHR holds, the miss that opened it included
};

class L2Slice : public sc_core::sc_module, private WakeupScheduler::Client {
 public:
  // Throws std::invalid_argument naming a bad parameter (cycle, write_policy,
  // or the cache geometry and MSHR counts, as CacheTags and MshrTable check them).
  L2Slice(sc_core::sc_module_name name, const L2Params& params);

  tlm_utils::simple_target_socket<L2Slice> in;      // from the interconnect (AT)
  tlm_utils::simple_initiator_socket<L2Slice> out;  // to memory (AT)

  const L2Stats& stats() const { return stats_; }
  const L2Params& params() const { return params_; }
  bool caches() const { return tags_.has_value(); }
  // Timed wake-ups go through `wakeups` (call during elaboration; see
  // transaction/wakeup_scheduler.h).
  void use_wakeups(WakeupScheduler& wakeups);

 private:
  enum class Op : uint8_t { Read, Write, Atomic };
  enum class Role : uint8_t { Fill, Writeback, Forward };
  struct Slot {  // an own request in flight to memory, indexed by its GpuExtension::tag
    Role role = Role::Fill;
    tlm::tlm_generic_payload* original = nullptr;  // Forward: the request it carries
  };
  struct Response {
    uint64_t ready;  // sc_time value of the earliest BEGIN_RESP
    uint64_t seq;    // order of readiness, to break ties
    tlm::tlm_generic_payload* trans;
  };

  // The upstream (in) side: l2_slice.cc.
  tlm::tlm_sync_enum in_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase,
                           sc_core::sc_time& delay);
  void in_peq_callback(tlm::tlm_generic_payload& t, const tlm::tlm_phase& phase);
  bool begin_request(tlm::tlm_generic_payload& t);  // true: taken in now (END_REQ)
  bool try_lookup(tlm::tlm_generic_payload& t);
  void end_response(tlm::tlm_generic_payload& t);
  void respond(tlm::tlm_generic_payload& t, const sc_core::sc_time& ready,
               tlm::tlm_response_status status);
  void send_responses();

  // The downstream (out) side: l2_memory_side.cc.
  tlm::tlm_sync_enum out_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase,
                            sc_core::sc_time& delay);
  void out_peq_callback(tlm::tlm_generic_payload& t, const tlm::tlm_phase& phase);
  void send_requests();
  void deliver(tlm::tlm_generic_payload& t, const sc_core::sc_time& delay);
  PooledPayload* own_request(Role role, tlm::tlm_generic_payload* original);
  void fetch(uint64_t line_addr, const tlm::tlm_generic_payload& first);
  void write_back(uint64_t line_addr);
  void forward(tlm::tlm_generic_payload& t);

  // The cache policy: l2_lookup.cc.
  bool lookup(tlm::tlm_generic_payload& t);  // false: no resources now, retry later
  void memory_response(tlm::tlm_generic_payload& t);
  void fill_done(tlm::tlm_generic_payload& t);
  Op op_of(const tlm::tlm_generic_payload& t) const;
  void count(Op op);
  bool covers_line(const tlm::tlm_generic_payload& t) const;
  bool out_room() const { return out_queue_.size() < out_limit_; }

  void run();  // intake, requests out, responses up; woken by wake_
  void schedule_wake();
  void wake() override { run(); }

  L2Params params_;
  sc_core::sc_time latency_;  // cache.latency cycles
  bool write_through_ = false;
  std::optional<CacheTags> tags_;
  std::optional<MshrTable> mshrs_;
  PayloadPool pool_;
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_slots_;
  std::vector<uint64_t> waiters_;  // scratch for MshrTable::fill

  tlm::tlm_generic_payload* pending_ = nullptr;  // BEGIN_REQ seen, END_REQ held back
  bool pending_stalled_ = false;                 // pending_ already counted as a stall
  sc_core::sc_time next_lookup_;                 // one lookup per cycle

  RingQueue<tlm::tlm_generic_payload*> out_queue_;  // requests waiting for the out socket
  size_t out_limit_;                                // intake stalls at this many
  tlm::tlm_generic_payload* out_open_ = nullptr;    // BEGIN_REQ sent, END_REQ awaited
  sc_core::sc_time out_free_at_;

  std::vector<Response> responses_;  // min-heap on (ready, seq)
  uint64_t response_seq_ = 0;
  tlm::tlm_generic_payload* response_open_ = nullptr;  // BEGIN_RESP sent, END_RESP awaited
  sc_core::sc_time response_free_at_;

  sc_core::sc_event wake_;
  WakeupScheduler* wakeups_ = nullptr;
  unsigned wakeup_id_ = 0;
  tlm_utils::peq_with_cb_and_phase<L2Slice> in_peq_;
  tlm_utils::peq_with_cb_and_phase<L2Slice> out_peq_;
  L2Stats stats_;
};

}  // namespace warptlm
