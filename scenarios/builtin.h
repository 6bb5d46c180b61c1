// The built-in scenarios, one factory per folder; registry.cc lists them.
#pragma once

#include <string>
#include <utility>

#include "scenario.h"

namespace warptlm::scenarios {

// What every factory below starts from: the scenario's name, which is also its
// folder under scenarios/ (source_dir), and its three functions. The factory
// adds the description, the kernel entry and the allowed sizes.
inline Scenario builtin_scenario(const std::string& name,
                                 decltype(Scenario::make_launch) make_launch,
                                 decltype(Scenario::check) check,
                                 decltype(Scenario::expected) expected) {
  Scenario s;
  s.name = name;
  s.source_dir = name;
  s.make_launch = std::move(make_launch);
  s.check = std::move(check);
  s.expected = std::move(expected);
  return s;
}

Scenario make_reduction();
Scenario make_bitonic();
Scenario make_mandelbrot();
Scenario make_collatz();
Scenario make_hashprobe();
Scenario make_sortnet();
Scenario make_aossort();
Scenario make_laplace3d();
Scenario make_fd3d();
Scenario make_pathfinder();
Scenario make_goto_into_loop();
Scenario make_multi_exit_loop();
Scenario make_short_circuit();
Scenario make_mpipdom_example();
Scenario make_collange_and();
Scenario make_nested3();
Scenario make_spinlock();
Scenario make_backprop();
Scenario make_bfs();
Scenario make_sobel();
Scenario make_convsep();
Scenario make_dwthaar();
Scenario make_quasirandom();
Scenario make_binomial();

}  // namespace warptlm::scenarios
