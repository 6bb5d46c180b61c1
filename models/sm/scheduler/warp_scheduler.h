// The warp scheduler interface of an SM issue slot, and the registry that
// creates a policy by name (lrr, gto, two_level, srr; see docs/schedulers.md).
// A scheduler only orders its warp slots; the SM decides which of them is
// ready, so the policies stay plain C++ and cost O(slots) per cycle.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace warptlm {

struct SchedulerParams {
  unsigned active_set = 8;  // two_level: size of the active set
};

class WarpScheduler {
 public:
  virtual ~WarpScheduler() = default;
  virtual const char* name() const = 0;
  // The scheduler owns warp slots 0..slots-1. A warp entered `slot`; `age` grows with launch order
  // (smaller = older).
  virtual void warp_started(unsigned slot, uint64_t age) = 0;
  virtual void warp_finished(unsigned slot) = 0;
  // Fills `out` (cleared first) with the started, unfinished slots in the order to try this cycle,
  // best first. The SM issues the first one that is ready, then calls issued(); if none is ready it
  // calls nothing.
  virtual void order(std::vector<unsigned>& out) = 0;
  virtual void issued(unsigned slot) = 0;
  // `slot` now waits on a long-latency operation (a global load), at a barrier for the rest of its
  // CTA, or (compaction) for its CTA's set; two_level moves it to the pending set. True when that
  // changed order()'s answer.
  virtual bool long_latency_stall(unsigned slot) {
    (void)slot;
    return false;
  }

  // What the SM may assume about order(), so that it need not ask every cycle:
  //  Changing: nothing (asked every cycle; the default, always correct).
  //  Stable: order() changes only through the calls above, so it is asked
  //    again only after one of them.
  //  Rotation: Stable, and order() is the live slots in increasing slot order,
  //    wrapping around, starting at rotation_start(): the SM walks that
  //    rotation itself (a bit mask of live slots) instead of copying a vector
  //    after every issue.
  enum class OrderKind { Changing, Stable, Rotation };
  virtual OrderKind order_kind() const { return OrderKind::Changing; }
  virtual unsigned rotation_start() const { return 0; }
};

using WarpSchedulerFactory = std::unique_ptr<WarpScheduler> (*)(unsigned slots,
                                                                const SchedulerParams&);

// Adds the policy `name` with a one-line description. std::invalid_argument
// for an empty name, a null factory or a name already registered.
void register_warp_scheduler(const std::string& name, WarpSchedulerFactory factory,
                             const std::string& description = "");
// The known policies: "lrr", "gto", "two_level", "srr", then any registered
// later, in registration order.
std::vector<std::string> warp_scheduler_names();
// (name, description) of each, in the same order.
std::vector<std::pair<std::string, std::string>> warp_scheduler_descriptions();
// Throws std::invalid_argument listing the known names for an unknown one, and
// naming the parameter for slots == 0 (or active_set == 0 for two_level).
std::unique_ptr<WarpScheduler> make_warp_scheduler(const std::string& name, unsigned slots,
                                                   const SchedulerParams& params = {});

}  // namespace warptlm
