// The compactability analysis of the SLP paper (Rhu & Erez, ISCA 2013,
// sections 3.3 and 6.1-6.2), aggregated in one pass of the functional
// executor: for every CTA-wide path a divergent branch creates, how many
// warps it needs without compaction (NW_NoTBC), with ideal compaction
// (NW_ideal) and with thread block compaction under every registered lane
// permutation (NW_TBC), grouped by branch, direction and the fraction of the
// CTA's threads in the path; and the same counts summed over every lockstep
// instruction, from which SIMD utilisation follows. Memory stays bounded: one
// group per (branch pc, direction, activity bucket), never one record per
// dynamic path. The runner (exec/compacting_cta_runner) fills it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compaction/cta_mask.h"
#include "compaction/lane_permutation.h"
#include "frontend/program.h"

namespace warptlm {

// Fraction of the CTA's threads active in a path, in quarters: bucket b holds
// [25b%, 25(b+1)%), the last one [75%, 100%].
constexpr unsigned kActivityBuckets = 4;
unsigned activity_bucket(unsigned active_threads, unsigned cta_threads);
const char* activity_bucket_name(unsigned bucket);  // "0-25%", "25-50%", "50-75%", "75-100%"

// The warps one CTA-wide mask needs.
struct WarpCounts {
  unsigned threads = 0;
  unsigned nw_no_compaction = 0;  // NW_NoTBC: static warps with an active thread
  unsigned nw_ideal = 0;          // ceil(threads / warp size)
  std::vector<unsigned> nw_tbc;   // NW_TBC per permutation (CompactionAnalysis order)
};

// The paths of one (branch pc, direction, activity bucket).
struct PathKey {
  Pc branch_pc = 0;
  bool taken = false;  // the taken or the not-taken side
  unsigned bucket = 0;
  bool operator<(const PathKey& o) const;
};

struct PathGroup {
  Taint taint = Taint::Programmatic;  // the branch's class (finalizer's taint)
  uint64_t paths = 0;                 // dynamic CTA-wide paths
  uint64_t threads = 0;               // their active threads, summed
  uint64_t nw_no_compaction = 0;      // sums over the paths
  uint64_t nw_ideal = 0;
  uint64_t ideal_compacted = 0;         // paths with NW_ideal < NW_NoTBC
  std::vector<uint64_t> nw_tbc;         // per permutation: sum of NW_TBC
  std::vector<uint64_t> tbc_compacted;  // per permutation: paths with NW_TBC < NW_NoTBC
};

// Sums over every lockstep (CTA-wide) instruction issued.
struct InstructionTotals {
  uint64_t instructions = 0;
  uint64_t threads = 0;
  uint64_t nw_no_compaction = 0;
  uint64_t nw_ideal = 0;
  std::vector<uint64_t> nw_tbc;  // per permutation
};

// What the branches of one class did, summed over their groups (optionally
// one activity bucket): the paper's Figures 11-13.
struct ClassSummary {
  uint64_t paths = 0;
  uint64_t ideal_compacted = 0;
  std::vector<uint64_t> tbc_compacted;  // per permutation
};

class CompactionAnalysis {
 public:
  // Clears the analysis for a run at `warp_size` and builds every registered
  // permutation (lane_permutation_names() order), seeded with `seed`.
  void reset(unsigned warp_size, uint64_t seed);
  unsigned warp_size() const { return warp_size_; }
  const std::vector<std::string>& permutations() const { return names_; }
  // Index of permutation `name` in permutations(); std::invalid_argument
  // naming `permutation` and listing them otherwise.
  size_t permutation_index(const std::string& name) const;

  // The counts of `mask` under every scheme and permutation. `out` keeps its
  // storage between calls (no allocation once sized).
  void measure(const CtaMask& mask, WarpCounts& out) const;
  // One lockstep instruction issued by threads whose counts are `c`.
  void add_instruction(const WarpCounts& c);
  // One CTA-wide path of the divergent branch at `branch_pc` (class `taint`),
  // its `taken` or not-taken side, with counts `c`, in a CTA of `cta_threads`.
  void add_path(Pc branch_pc, Taint taint, bool taken, unsigned cta_threads, const WarpCounts& c);

  const std::map<PathKey, PathGroup>& groups() const { return groups_; }
  const InstructionTotals& totals() const { return totals_; }

  // Sums over the groups of branches of class `taint` (all buckets, or one).
  ClassSummary summary(Taint taint) const;
  ClassSummary summary(Taint taint, unsigned bucket) const;
  // Fraction of the class's paths with NW_TBC < NW_NoTBC under permutation
  // `perm` (the paper's compaction rate, section 3.3); 0 without paths.
  double compaction_rate(Taint taint, size_t perm) const;
  // Fraction with NW_ideal < NW_NoTBC.
  double ideal_compaction_rate(Taint taint) const;
  // Active threads over issued warp slots, over every lockstep instruction:
  // without compaction, with ideal compaction, with TBC under `perm`.
  double simd_utilisation_no_compaction() const;
  double simd_utilisation_ideal() const;
  double simd_utilisation_tbc(size_t perm) const;

 private:
  double utilisation(uint64_t warps) const;

  unsigned warp_size_ = 0;
  std::vector<std::string> names_;
  std::vector<std::unique_ptr<LanePermutation>> perms_;
  std::map<PathKey, PathGroup> groups_;
  InstructionTotals totals_;
};

}  // namespace warptlm
