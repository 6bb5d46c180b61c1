// Loose round-robin (lrr): each cycle the slots are tried in slot order
// starting after the slot that issued last, so every ready warp gets a turn.
#pragma once

#include "sm/scheduler/warp_scheduler.h"
#include "sm/scheduler/warp_slots.h"

namespace warptlm {

class LrrScheduler : public WarpScheduler {
 public:
  explicit LrrScheduler(unsigned slots);
  const char* name() const override { return "lrr"; }
  void warp_started(unsigned slot, uint64_t age) override;
  void warp_finished(unsigned slot) override;
  void order(std::vector<unsigned>& out) override;
  void issued(unsigned slot) override;
  // order() is the live slots in increasing slot order, wrapping around,
  // starting at start().
  unsigned start() const { return last_ + 1 == slots_.size() ? 0 : last_ + 1; }
  OrderKind order_kind() const override { return OrderKind::Rotation; }
  unsigned rotation_start() const override { return start(); }

 private:
  WarpSlots slots_;
  // The slot that issued last; slots-1 before any issue, so slot 0 comes first.
  // Kept when that warp finishes: the rotation goes on from its position.
  unsigned last_;
};

}  // namespace warptlm
