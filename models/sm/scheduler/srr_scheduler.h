// Sticky round-robin (srr), the scheduler of the SLP paper's GPGPU-Sim table:
// the warp that issued last is offered first again, so it keeps issuing while
// it can; once it cannot, the others follow in round-robin order from it and
// the first of them to issue becomes the sticky one.
#pragma once

#include "sm/scheduler/warp_scheduler.h"
#include "sm/scheduler/warp_slots.h"

namespace warptlm {

class SrrScheduler : public WarpScheduler {
 public:
  explicit SrrScheduler(unsigned slots);
  const char* name() const override { return "srr"; }
  void warp_started(unsigned slot, uint64_t age) override;
  void warp_finished(unsigned slot) override;
  void order(std::vector<unsigned>& out) override;
  void issued(unsigned slot) override;
  // order() is the live slots in increasing slot order, wrapping around,
  // starting at start().
  unsigned start() const { return sticky_ ? last_ : (last_ + 1 == slots_.size() ? 0 : last_ + 1); }
  OrderKind order_kind() const override { return OrderKind::Rotation; }
  unsigned rotation_start() const override { return start(); }

 private:
  WarpSlots slots_;
  // The slot that issued last (slots-1 before any issue, so slot 0 comes
  // first). `sticky_` says its warp is still there to be offered first; when
  // it finishes, the rotation goes on after its position and a new warp in
  // that slot does not inherit the priority.
  unsigned last_;
  bool sticky_ = false;
};

}  // namespace warptlm
