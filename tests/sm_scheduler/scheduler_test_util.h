// Helpers for the warp scheduler tests: the order a scheduler offers now.
#pragma once

#include <vector>

#include "sm/scheduler/warp_scheduler.h"

namespace warptlm::test {

using Order = std::vector<unsigned>;

inline Order order_of(WarpScheduler& s) {
  Order out{99, 98};  // order() must clear what the caller's vector held
  s.order(out);
  return out;
}

}  // namespace warptlm::test
