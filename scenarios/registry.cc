// The list of built-in scenarios. Built by explicit calls in a fixed order
// (no self-registration), so the order never depends on link order.
#include <stdexcept>

#include "builtin.h"

namespace warptlm::scenarios {

const std::vector<Scenario>& all() {
  static const std::vector<Scenario> scenarios = {
      make_reduction(), make_bitonic(), make_mandelbrot(), make_collatz(), make_hashprobe(),
  };
  return scenarios;
}

const Scenario& find(const std::string& name) {
  std::string known;
  for (const Scenario& s : all()) {
    if (s.name == name) return s;
    known += (known.empty() ? "" : ", ") + s.name;
  }
  throw std::invalid_argument("unknown scenario '" + name + "'; known scenarios: " + known);
}

}  // namespace warptlm::scenarios
