// Two-level warp scheduling (Narasiman et al., MICRO 2011; Gebhart et al.,
// ISCA 2011): at most `active_set` warps are schedulable, round-robin in slot
// order after the last issuer. A warp that hits a long-latency stall (a
// global load, or waiting at a barrier for the rest of its CTA) leaves for
// the pending set, a FIFO, and the warp at its head (the one pending
// longest) takes the free place. New warps join the active set while it has
// room and queue at the back of the pending FIFO otherwise. Pending warps are
// never offered.
#pragma once

#include "sm/scheduler/warp_scheduler.h"
#include "sm/scheduler/warp_slots.h"

namespace warptlm {

class TwoLevelScheduler : public WarpScheduler {
 public:
  // Throws std::invalid_argument naming `active_set` when it is 0.
  TwoLevelScheduler(unsigned slots, unsigned active_set);
  const char* name() const override { return "two_level"; }
  void warp_started(unsigned slot, uint64_t age) override;
  void warp_finished(unsigned slot) override;
  void order(std::vector<unsigned>& out) override;
  void issued(unsigned slot) override;
  // order() is a function of the state the calls above change.
  OrderKind order_kind() const override { return OrderKind::Stable; }
  bool long_latency_stall(unsigned slot) override;

  // For statistics and tests.
  bool active(unsigned slot) const { return slot < active_.size() && active_[slot] != 0; }
  const std::vector<unsigned>& pending() const { return pending_; }  // head first

 private:
  void refill();  // moves pending warps (head first) into free active places

  WarpSlots slots_;
  unsigned active_set_;
  unsigned active_count_ = 0;
  std::vector<uint8_t> active_;    // by slot
  std::vector<unsigned> pending_;  // FIFO, head first; capacity reserved for every slot
  unsigned last_;                  // slot that issued last; slots-1 before any issue
};

}  // namespace warptlm
