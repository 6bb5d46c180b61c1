// The registry of lane permutations by name (registry/component_registry.h).
#include <stdexcept>
#include <utility>

#include "compaction/balanced_permutation.h"
#include "compaction/flip_odd_permutation.h"
#include "compaction/lane_permutation.h"
#include "compaction/random_permutation.h"
#include "compaction/rotate_odd_permutation.h"
#include "compaction/xor_permutations.h"
#include "registry/component_registry.h"

namespace warptlm {
namespace {

using Registry = ComponentRegistry<LanePermutationFactory>;

template <typename T>
std::unique_ptr<LanePermutation> make_unseeded(unsigned warp_size, uint64_t /*seed*/) {
  return std::make_unique<T>(warp_size);
}

std::unique_ptr<LanePermutation> make_random(unsigned warp_size, uint64_t seed) {
  return std::make_unique<RandomPermutation>(warp_size, seed);
}

// The order of issue 7's list, xor_half (the paper's section 4.2 example)
// last; docs/compaction.md gives each formula.
std::vector<Registry::Entry> builtins() {
  return {
      {"none", "home lane l (baseline TBC)", &make_unseeded<IdentityPermutation>},
      {"odd_even", "odd warps l XOR 1", &make_unseeded<OddEvenPermutation>},
      {"rev_wid", "l XOR bit-reversed warp id", &make_unseeded<RevWidPermutation>},
      {"wid", "l XOR warp id", &make_unseeded<WidPermutation>},
      {"random", "a seeded shuffle per warp", &make_random},
      {"flip_odd", "odd warps W-1-l", &make_unseeded<FlipOddPermutation>},
      {"rotate_odd_1", "odd warps (l+1) mod W", &make_unseeded<RotateOddPermutation>},
      {"balanced", "SLP's balanced permutation (Equation 2)", &make_unseeded<BalancedPermutation>},
      {"xor_half", "odd warps l XOR W/2", &make_unseeded<XorHalfPermutation>},
  };
}

Registry& registry() {
  static Registry r("permutation", "permutation", &builtins);
  return r;
}

}  // namespace

void register_lane_permutation(const std::string& name, LanePermutationFactory factory,
                               const std::string& description) {
  registry().add(name, description, factory);
}

std::vector<std::string> lane_permutation_names() { return registry().names(); }

std::vector<std::pair<std::string, std::string>> lane_permutation_descriptions() {
  return registry().descriptions();
}

std::unique_ptr<LanePermutation> make_lane_permutation(const std::string& name, unsigned warp_size,
                                                       uint64_t seed) {
  const LanePermutationFactory factory = registry().factory(name);
  lane_bits(warp_size);  // validates before the factory runs
  return factory(warp_size, seed);
}

}  // namespace warptlm
