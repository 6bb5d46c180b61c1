#include "common/size_rules.h"

#include <stdexcept>

namespace warptlm::scenarios {

std::string size_rule(uint64_t min_n, uint64_t max_n, uint64_t multiple) {
  std::string range = "in [" + std::to_string(min_n) + ", " + std::to_string(max_n) + "]";
  return multiple > 1 ? "a multiple of " + std::to_string(multiple) + " " + range : range;
}

void require_size(const std::string& scenario, uint64_t n, uint64_t min_n, uint64_t max_n,
                  uint64_t multiple) {
  bool in_range = n >= min_n && n <= max_n;
  bool aligned = multiple <= 1 || n % multiple == 0;
  if (in_range && aligned) return;
  throw std::invalid_argument(scenario + ": size " + std::to_string(n) +
                              " is not allowed; it must be " + size_rule(min_n, max_n, multiple));
}

LaunchSpec launch_covering(uint64_t nx, uint32_t block_x, uint64_t ny, uint32_t block_y) {
  LaunchSpec l;
  l.grid.x = uint32_t(ceil_div(nx, block_x));
  l.grid.y = uint32_t(ceil_div(ny, block_y));
  l.block.x = block_x;
  l.block.y = block_y;
  return l;
}

}  // namespace warptlm::scenarios
