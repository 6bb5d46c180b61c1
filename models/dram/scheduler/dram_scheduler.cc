// The registry of DRAM request schedulers by name, and the built-ins.
#include "dram/scheduler/dram_scheduler.h"

#include "registry/component_registry.h"

namespace warptlm {
namespace {

// Oldest first, strictly in order (a request waits for the one ahead of it).
class FcfsScheduler : public DramScheduler {
 public:
  const char* name() const override { return "fcfs"; }
  bool in_order() const override { return true; }
  size_t pick(const std::vector<DramRequest>&, const std::vector<DramBankState>&,
              uint64_t) override {
    return 0;
  }
};

// First-ready FCFS (Rixner et al., ISCA 2000): among the requests whose bank
// is free, the oldest row hit, else the oldest.
class FrFcfsScheduler : public DramScheduler {
 public:
  const char* name() const override { return "frfcfs"; }
  size_t pick(const std::vector<DramRequest>& queue, const std::vector<DramBankState>& banks,
              uint64_t now) override {
    size_t first_ready = queue.size();
    for (size_t i = 0; i < queue.size(); ++i) {
      const DramBankState& b = banks[queue[i].bank];
      if (b.ready > now) continue;
      if (b.open && b.row == queue[i].row) return i;
      if (first_ready == queue.size()) first_ready = i;
    }
    return first_ready;
  }
};

using Registry = ComponentRegistry<DramSchedulerFactory>;

template <typename T>
std::unique_ptr<DramScheduler> make(unsigned) {
  return std::make_unique<T>();
}

std::vector<Registry::Entry> builtins() {
  return {
      {"frfcfs", "first-ready FCFS: the oldest row hit among free banks, else the oldest",
       &make<FrFcfsScheduler>},
      {"fcfs", "oldest first, in order", &make<FcfsScheduler>},
  };
}

Registry& registry() {
  static Registry r("DRAM scheduler", "memory.dram.scheduler", &builtins);
  return r;
}

}  // namespace

void register_dram_scheduler(const std::string& name, DramSchedulerFactory factory,
                             const std::string& description) {
  registry().add(name, description, factory);
}

std::vector<std::string> dram_scheduler_registry_names() { return registry().names(); }

std::vector<std::pair<std::string, std::string>> dram_scheduler_descriptions() {
  return registry().descriptions();
}

std::unique_ptr<DramScheduler> make_dram_scheduler(const std::string& name, unsigned banks) {
  return registry().factory(name)(banks);
}

}  // namespace warptlm
