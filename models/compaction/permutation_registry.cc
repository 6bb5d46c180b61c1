// The registry of lane permutations by name, with the built-in ones registered on first use (a
// function-local table rather than static registrars, which a static library's linker may drop).
#include <stdexcept>
#include <utility>

#include "compaction/balanced_permutation.h"
#include "compaction/flip_odd_permutation.h"
#include "compaction/lane_permutation.h"
#include "compaction/random_permutation.h"
#include "compaction/rotate_odd_permutation.h"
#include "compaction/xor_permutations.h"

namespace warptlm {
namespace {

using Entry = std::pair<std::string, LanePermutationFactory>;

template <typename T>
std::unique_ptr<LanePermutation> make_unseeded(unsigned warp_size, uint64_t /*seed*/) {
  return std::make_unique<T>(warp_size);
}

std::unique_ptr<LanePermutation> make_random(unsigned warp_size, uint64_t seed) {
  return std::make_unique<RandomPermutation>(warp_size, seed);
}

// The order of issue 7's list, xor_half (the paper's section 4.2 example) last.
std::vector<Entry>& registry() {
  static std::vector<Entry> entries = {
      {"none", &make_unseeded<IdentityPermutation>},
      {"odd_even", &make_unseeded<OddEvenPermutation>},
      {"rev_wid", &make_unseeded<RevWidPermutation>},
      {"wid", &make_unseeded<WidPermutation>},
      {"random", &make_random},
      {"flip_odd", &make_unseeded<FlipOddPermutation>},
      {"rotate_odd_1", &make_unseeded<RotateOddPermutation>},
      {"balanced", &make_unseeded<BalancedPermutation>},
      {"xor_half", &make_unseeded<XorHalfPermutation>},
  };
  return entries;
}

std::string joined_names() {
  std::string out;
  for (const Entry& e : registry()) out += (out.empty() ? "" : ", ") + e.first;
  return out;
}

}  // namespace

void register_lane_permutation(const std::string& name, LanePermutationFactory factory) {
  if (name.empty()) throw std::invalid_argument("lane permutation name must not be empty");
  if (factory == nullptr) {
    throw std::invalid_argument("lane permutation '" + name + "': factory must not be null");
  }
  for (const Entry& e : registry()) {
    if (e.first == name) {
      throw std::invalid_argument("lane permutation '" + name + "' is already registered");
    }
  }
  registry().emplace_back(name, factory);
}

std::vector<std::string> lane_permutation_names() {
  std::vector<std::string> names;
  for (const Entry& e : registry()) names.push_back(e.first);
  return names;
}

std::unique_ptr<LanePermutation> make_lane_permutation(const std::string& name, unsigned warp_size,
                                                       uint64_t seed) {
  for (const Entry& e : registry()) {
    if (e.first == name) {
      lane_bits(warp_size);  // validates before the factory runs
      return e.second(warp_size, seed);
    }
  }
  throw std::invalid_argument("unknown permutation '" + name + "'; known: " + joined_names());
}

}  // namespace warptlm
