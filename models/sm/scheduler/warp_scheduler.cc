// The registry of warp-scheduling policies by name.
#include "sm/scheduler/warp_scheduler.h"

#include <mutex>
#include <stdexcept>
#include <utility>

#include "sm/scheduler/gto_scheduler.h"
#include "sm/scheduler/lrr_scheduler.h"
#include "sm/scheduler/srr_scheduler.h"
#include "sm/scheduler/two_level_scheduler.h"

namespace warptlm {

namespace {

// A vector rather than a map: names() lists the policies in registration
// order, which is the documented order.
struct Registry {
  std::mutex mutex;
  std::vector<std::pair<std::string, WarpSchedulerFactory>> entries;
};

Registry& registry() {
  static Registry r;
  return r;
}

// Caller holds the mutex.
void add(Registry& r, const std::string& name, WarpSchedulerFactory factory) {
  for (auto& e : r.entries) {
    if (e.first == name) {
      e.second = factory;
      return;
    }
  }
  r.entries.emplace_back(name, factory);
}

std::string known_names(const Registry& r) {
  std::string known;
  for (const auto& e : r.entries) known += (known.empty() ? "" : ", ") + e.first;
  return known;
}

}  // namespace

void register_builtin_warp_schedulers() {
  static std::once_flag once;
  std::call_once(once, [] {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    add(r, "lrr", [](unsigned slots, const SchedulerParams&) -> std::unique_ptr<WarpScheduler> {
      return std::make_unique<LrrScheduler>(slots);
    });
    add(r, "gto", [](unsigned slots, const SchedulerParams&) -> std::unique_ptr<WarpScheduler> {
      return std::make_unique<GtoScheduler>(slots);
    });
    add(r, "two_level",
        [](unsigned slots, const SchedulerParams& p) -> std::unique_ptr<WarpScheduler> {
          return std::make_unique<TwoLevelScheduler>(slots, p.active_set);
        });
    add(r, "srr", [](unsigned slots, const SchedulerParams&) -> std::unique_ptr<WarpScheduler> {
      return std::make_unique<SrrScheduler>(slots);
    });
  });
}

void register_warp_scheduler(const std::string& name, WarpSchedulerFactory factory) {
  if (name.empty()) throw std::invalid_argument("name: a warp scheduler needs a name");
  if (factory == nullptr)
    throw std::invalid_argument("factory: null factory for warp scheduler '" + name + "'");
  // Builtins first, so a later override of a builtin name is not overwritten.
  register_builtin_warp_schedulers();
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  add(r, name, factory);
}

std::vector<std::string> warp_scheduler_names() {
  register_builtin_warp_schedulers();
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::string> names;
  names.reserve(r.entries.size());
  for (const auto& e : r.entries) names.push_back(e.first);
  return names;
}

std::unique_ptr<WarpScheduler> make_warp_scheduler(const std::string& name, unsigned slots,
                                                   const SchedulerParams& params) {
  register_builtin_warp_schedulers();
  WarpSchedulerFactory factory = nullptr;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (const auto& e : r.entries)
      if (e.first == name) factory = e.second;
    if (factory == nullptr)
      throw std::invalid_argument("scheduler: unknown warp scheduler '" + name +
                                  "' (known: " + known_names(r) + ")");
  }
  if (slots == 0) throw std::invalid_argument("slots: a warp scheduler needs at least one slot");
  return factory(slots, params);
}

}  // namespace warptlm
