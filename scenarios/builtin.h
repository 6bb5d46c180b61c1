// The built-in scenarios, one factory per folder; registry.cc lists them.
#pragma once

#include "scenario.h"

namespace warptlm::scenarios {

Scenario make_reduction();
Scenario make_bitonic();
Scenario make_mandelbrot();
Scenario make_collatz();
Scenario make_hashprobe();

}  // namespace warptlm::scenarios
