// The list of built-in scenarios. Built by explicit calls in a fixed order
// (no self-registration), so the order never depends on link order.
#include <stdexcept>

#include "builtin.h"

namespace warptlm::scenarios {

const std::vector<Scenario>& all() {
  static const std::vector<Scenario> scenarios = {
      make_reduction(),     make_bitonic(),         make_mandelbrot(),
      make_collatz(),       make_hashprobe(),       make_sortnet(),
      make_aossort(),       make_laplace3d(),       make_fd3d(),
      make_pathfinder(),    make_goto_into_loop(),  make_multi_exit_loop(),
      make_short_circuit(), make_mpipdom_example(), make_collange_and(),
      make_nested3(),       make_spinlock(),        make_backprop(),
      make_bfs(),           make_sobel(),           make_convsep(),
      make_dwthaar(),       make_quasirandom(),     make_binomial(),
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
