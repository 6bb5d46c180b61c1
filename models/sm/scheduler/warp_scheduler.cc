// The registry of warp-scheduling policies by name.
#include "sm/scheduler/warp_scheduler.h"

#include <stdexcept>

#include "registry/component_registry.h"
#include "sm/scheduler/gto_scheduler.h"
#include "sm/scheduler/lrr_scheduler.h"
#include "sm/scheduler/srr_scheduler.h"
#include "sm/scheduler/two_level_scheduler.h"

namespace warptlm {
namespace {

using Registry = ComponentRegistry<WarpSchedulerFactory>;

// The built-in policies, in the documented order (docs/schedulers.md).
std::vector<Registry::Entry> builtins() {
  return {
      {"lrr", "loose round-robin: slot order from just after the last issuer",
       [](unsigned slots, const SchedulerParams&) -> std::unique_ptr<WarpScheduler> {
         return std::make_unique<LrrScheduler>(slots);
       }},
      {"gto", "greedy-then-oldest: the last issuer, then the others oldest first",
       [](unsigned slots, const SchedulerParams&) -> std::unique_ptr<WarpScheduler> {
         return std::make_unique<GtoScheduler>(slots);
       }},
      {"two_level", "an active set (sm.two_level_active) refilled from a pending FIFO",
       [](unsigned slots, const SchedulerParams& p) -> std::unique_ptr<WarpScheduler> {
         return std::make_unique<TwoLevelScheduler>(slots, p.active_set);
       }},
      {"srr", "sticky round-robin: the last issuer while it can, then round-robin",
       [](unsigned slots, const SchedulerParams&) -> std::unique_ptr<WarpScheduler> {
         return std::make_unique<SrrScheduler>(slots);
       }},
  };
}

Registry& registry() {
  static Registry r("warp scheduler", "scheduler", &builtins);
  return r;
}

}  // namespace

void register_warp_scheduler(const std::string& name, WarpSchedulerFactory factory,
                             const std::string& description) {
  registry().add(name, description, factory);
}

std::vector<std::string> warp_scheduler_names() { return registry().names(); }

std::vector<std::pair<std::string, std::string>> warp_scheduler_descriptions() {
  return registry().descriptions();
}

std::unique_ptr<WarpScheduler> make_warp_scheduler(const std::string& name, unsigned slots,
                                                   const SchedulerParams& params) {
  const WarpSchedulerFactory factory = registry().factory(name);
  if (slots == 0) throw std::invalid_argument("slots: a warp scheduler needs at least one slot");
  return factory(slots, params);
}

}  // namespace warptlm
