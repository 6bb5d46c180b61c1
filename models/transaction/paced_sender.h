// The send side of one TLM hop: payloads wait in a queue ordered by the time
// they may leave, and at most one leaves per cycle, and only once the previous
// one's phase was answered (the base protocol's exclusion rules). The request
// and response senders differ only in how a payload leaves (send()).
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>

#include "transaction/payload_queue.h"
#include "transaction/wakeup_scheduler.h"

namespace warptlm {

class PacedSender : private WakeupScheduler::Client {
 public:
  // `kind` names the sender in errors ("RequestSender").
  PacedSender(const std::string& kind, const std::string& name, const sc_core::sc_time& cycle);
  virtual ~PacedSender() = default;
  PacedSender(const PacedSender&) = delete;
  PacedSender& operator=(const PacedSender&) = delete;

  // Queues `payload` to leave no earlier than `ready` (an absolute simulated time). Among
  // payloads ready at the same time, the lower `source` (the owner's input index) leaves first,
  // whatever order they were pushed in; equal sources keep their push order.
  void push(tlm::tlm_generic_payload* payload, const sc_core::sc_time& ready, unsigned source = 0);
  // Timed wake-ups go through `wakeups` from now on (call during elaboration), so same-time
  // senders run in registration order.
  void use_wakeups(WakeupScheduler& wakeups);
  uint64_t sent() const { return sent_; }
  // Cycles payloads waited past their ready time (contention and back-pressure).
  uint64_t wait_cycles() const { return wait_cycles_; }
  size_t queued() const { return queue_.size(); }

 protected:
  // Sends `payload`, whose time has come. Sets busy_ while its phase awaits an answer.
  virtual void send(tlm::tlm_generic_payload& payload) = 0;
  // The awaited answer came, `delay` from now: the next payload may leave then.
  void free_after(const sc_core::sc_time& delay);
  void schedule();

  std::string name_;
  sc_core::sc_time cycle_;
  PayloadQueue queue_;
  tlm::tlm_generic_payload* busy_ = nullptr;  // sent, its phase not yet answered
  sc_core::sc_time free_at_;                  // earliest time the next payload may leave

 private:
  void step();
  void wake() override { step(); }
  sc_core::sc_event wake_;
  WakeupScheduler* wakeups_ = nullptr;
  unsigned wakeup_id_ = 0;
  uint64_t sent_ = 0;
  uint64_t wait_cycles_ = 0;
};

}  // namespace warptlm
