// Validation of a scenario's size parameter, shared by every make_launch,
// and the launch geometry that follows from it.
#pragma once

#include <cstdint>
#include <string>

#include "exec/launch.h"

namespace warptlm::scenarios {

// "in [min_n, max_n]" or "a multiple of M in [min_n, max_n]", for messages.
std::string size_rule(uint64_t min_n, uint64_t max_n, uint64_t multiple);

// Throws std::invalid_argument naming the scenario, the value and the allowed
// range (and multiple, when it is above 1) unless n is in [min_n, max_n] and
// a multiple of `multiple`.
void require_size(const std::string& scenario, uint64_t n, uint64_t min_n, uint64_t max_n,
                  uint64_t multiple = 1);

// ceil(a / b) for b > 0.
inline uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// A launch (no buffers or arguments yet) of block_x x block_y-thread CTAs,
// as few as cover nx x ny threads: the CTAs on the far edges are partly idle
// unless nx and ny are multiples of the block.
LaunchSpec launch_covering(uint64_t nx, uint32_t block_x, uint64_t ny = 1, uint32_t block_y = 1);

}  // namespace warptlm::scenarios
