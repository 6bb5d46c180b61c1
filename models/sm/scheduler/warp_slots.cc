#include "sm/scheduler/warp_slots.h"

#include <stdexcept>
#include <string>

namespace warptlm {

namespace {

[[noreturn]] void bad_slot(const char* what, unsigned slot, const char* why) {
  throw std::invalid_argument(std::string("slot: ") + what + "(" + std::to_string(slot) +
                              "): " + why);
}

}  // namespace

WarpSlots::WarpSlots(unsigned slots) {
  if (slots == 0) throw std::invalid_argument("slots: a warp scheduler needs at least one slot");
  live_.assign(slots, 0);
}

void WarpSlots::start(unsigned slot) {
  if (slot >= live_.size()) bad_slot("warp_started", slot, "out of range");
  if (live_[slot]) bad_slot("warp_started", slot, "the slot already holds a warp");
  live_[slot] = 1;
  ++live_count_;
}

void WarpSlots::finish(unsigned slot) {
  require_live(slot, "warp_finished");
  live_[slot] = 0;
  --live_count_;
}

void WarpSlots::require_live(unsigned slot, const char* what) const {
  if (slot >= live_.size()) bad_slot(what, slot, "out of range");
  if (!live_[slot]) bad_slot(what, slot, "no started, unfinished warp there");
}

}  // namespace warptlm
