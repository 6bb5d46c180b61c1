// An example warp scheduler written outside models/: youngest-first, the
// mirror image of gto's oldest-first tail. Each cycle it offers the live slots
// by age, youngest (largest age) first; ties by slot number.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "example_components.h"

namespace warptlm_example {

class YoungestFirstScheduler : public warptlm::WarpScheduler {
 public:
  explicit YoungestFirstScheduler(unsigned slots) : age_(slots), live_(slots, false) {}
  const char* name() const override { return "youngest_first"; }
  void warp_started(unsigned slot, uint64_t age) override {
    check(slot);
    age_[slot] = age;
    live_[slot] = true;
  }
  void warp_finished(unsigned slot) override {
    check(slot);
    live_[slot] = false;
  }
  void order(std::vector<unsigned>& out) override {
    out.clear();
    for (unsigned s = 0; s < live_.size(); ++s)
      if (live_[s]) out.push_back(s);
    std::stable_sort(out.begin(), out.end(),
                     [this](unsigned a, unsigned b) { return age_[a] > age_[b]; });
  }
  void issued(unsigned slot) override { check(slot); }
  // The order depends only on which warps started and finished.
  OrderKind order_kind() const override { return OrderKind::Stable; }

 private:
  void check(unsigned slot) const {
    if (slot >= live_.size())
      throw std::invalid_argument("youngest_first: slot " + std::to_string(slot) + " out of range");
  }
  std::vector<uint64_t> age_;
  std::vector<bool> live_;
};

std::unique_ptr<warptlm::WarpScheduler> make_youngest_first(unsigned slots,
                                                            const warptlm::SchedulerParams&) {
  return std::make_unique<YoungestFirstScheduler>(slots);
}

}  // namespace warptlm_example
