// LanePermutation: where each thread of a CTA lives. Logical lane l of CTA warp w runs in the home
// SIMD lane home_lane(w, l), fixed when the warp is launched (SIMD lane permutation, Rhu & Erez
// ISCA 2013, section 4). Compaction keeps every thread in its home lane, so the permutation decides
// how well divergent warps compact. Implementations are chosen by name through a registry.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace warptlm {

class LanePermutation {
 public:
  virtual ~LanePermutation() = default;
  virtual const char* name() const = 0;
  unsigned warp_size() const { return warp_size_; }
  // A bijection on [0, warp_size) for every warp index (warp index within the CTA).
  virtual unsigned home_lane(unsigned warp, unsigned lane) const = 0;

  // The home lane of every logical lane of `warp`: row[l] == home_lane(warp, l). Rows of warps
  // below cached_warps() come from a table built once (compaction runs at every divergent branch,
  // so the hot path must not make warp_size virtual calls); other warps are computed into
  // `scratch`, which must hold warp_size() entries. The returned pointer is either into the table
  // or `scratch`.
  const uint8_t* home_lane_row(unsigned warp, uint8_t* scratch) const;
  // Number of warps whose rows are cached (0 until the concrete class calls cache_rows()).
  unsigned cached_warps() const { return cached_warps_; }

  // Threads per CTA the cache covers (CUDA's 1024-thread CTA limit, twice over for margin).
  static constexpr unsigned kCachedThreads = 2048;

 protected:
  explicit LanePermutation(unsigned warp_size);
  // Fills the row cache for warps [0, kCachedThreads / warp_size). Concrete (final) classes call it
  // at the end of their constructor, when fill_row() already dispatches to them.
  void cache_rows();
  // Writes home_lane(warp, l) for every l into row[0, warp_size). The default asks home_lane() lane
  // by lane; a permutation that builds whole rows at once (random) overrides it.
  virtual void fill_row(unsigned warp, uint8_t* row) const;

 private:
  unsigned warp_size_;
  unsigned cached_warps_ = 0;
  std::vector<uint8_t> rows_;  // rows_[w * warp_size + l] == home_lane(w, l)
};

using LanePermutationFactory = std::unique_ptr<LanePermutation> (*)(unsigned warp_size,
                                                                    uint64_t seed);
// Adds permutation `name` (registry/component_registry.h): std::invalid_argument
// for an empty name, a null factory or a name already registered.
void register_lane_permutation(const std::string& name, LanePermutationFactory factory,
                               const std::string& description = "");
std::vector<std::string> lane_permutation_names();  // registration order
std::vector<std::pair<std::string, std::string>> lane_permutation_descriptions();
// Throws std::invalid_argument listing the known names for an unknown one (and naming warp_size
// when it is not a power of two in [4, 64]).
std::unique_ptr<LanePermutation> make_lane_permutation(const std::string& name, unsigned warp_size,
                                                       uint64_t seed);

// log2 of a warp size; throws std::invalid_argument naming `warp_size` unless it is a power of two
// in [4, 64] (the sizes the permutations are defined for).
unsigned lane_bits(unsigned warp_size);

}  // namespace warptlm
