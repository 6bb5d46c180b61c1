// The built-in scenarios, one factory per folder; registry.cc lists them.
#pragma once

#include "scenario.h"

namespace warptlm::scenarios {

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
