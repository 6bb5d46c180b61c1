// Greedy-then-oldest (gto): the warp that issued last is offered first (greedy),
// then every other warp from the oldest (smallest age) to the youngest; equal
// ages go by slot number. Rogers, O'Connor and Aamodt, MICRO 2012.
#pragma once

#include "sm/scheduler/warp_scheduler.h"
#include "sm/scheduler/warp_slots.h"

namespace warptlm {

class GtoScheduler : public WarpScheduler {
 public:
  explicit GtoScheduler(unsigned slots);
  const char* name() const override { return "gto"; }
  void warp_started(unsigned slot, uint64_t age) override;
  void warp_finished(unsigned slot) override;
  void order(std::vector<unsigned>& out) override;
  void issued(unsigned slot) override;
  // order() is a function of the state the calls above change.
  OrderKind order_kind() const override { return OrderKind::Stable; }

 private:
  static constexpr unsigned kNone = ~0u;
  WarpSlots slots_;
  std::vector<uint64_t> age_;     // by slot
  std::vector<unsigned> by_age_;  // live slots, oldest first; kept sorted on start/finish
  unsigned greedy_ = kNone;       // the last issuer while its warp lives
};

}  // namespace warptlm
