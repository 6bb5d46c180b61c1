// Which divergence every lane of a warp is under, for the statistics of the
// schemes that merge paths wherever they meet (sorted_list, min_pc). They keep
// no reconvergence PC, so they ask this record whether a merge counts as a
// reconvergence and whether it came before the IPDOM.
//
// A join is one divergent branch (its IPDOM, the lanes of the path it split,
// the join it happened under) or one call (the return address, the calling
// path's lanes, guarded-off lanes included). Each lane points at its innermost
// join, and the join remembers which of its lanes issued at its IPDOM. Two
// paths that merge are judged by their innermost common join: a call's means
// the call completed (not a reconvergence), none means no branch split them
// (not one either), a branch's is a reconvergence: at the IPDOM when the
// merge pc is that branch's IPDOM, early when it is not and neither path has
// been through the IPDOM yet, late (counted, not early) when one has (paths
// that run through the IPDOM apart and merge after it, e.g. at a barrier
// behind it). A path holding every live lane of its join leaves it (the
// divergence is over), so loops do not pile joins up.
//
// Cost: issued() is O(1) per instruction; splits, merges, calls and returns
// do O(lanes + nesting) work. Joins are recycled when no live lane reaches them
// (mark and sweep when the reserved pool runs out), so steady divergence does
// not allocate.
#pragma once

#include <cstdint>
#include <vector>

#include "simt/reconvergence_unit.h"

namespace warptlm {

class DivergenceJoins {
 public:
  enum class Merge : uint8_t {
    NotDivergence,  // a call completing, or paths no branch split: not counted
    AtIpdom,
    Early,
    Late,  // after one path ran through the IPDOM alone
  };

  explicit DivergenceJoins(unsigned warp_size);
  // Every lane of `live` undiverged, outside any call.
  void reset(LaneMask live);
  // The path of lanes `path` at call depth `depth` diverged at a branch whose
  // IPDOM is `reconv`.
  void split(LaneMask path, Pc reconv, unsigned depth);
  // The path `path` at depth `depth` called (some lanes may be guarded off:
  // they wait at `return_pc`, where the callers come back).
  void call(LaneMask path, Pc return_pc, unsigned depth);
  // `lanes` returned to call depth `depth`: they leave every join of the callee.
  void ret(LaneMask lanes, unsigned depth);
  void exit(LaneMask lanes) { live_ &= ~lanes; }
  // The path `path` issues the instruction at `pc` (before its effect).
  void issued(LaneMask path, Pc pc) {
    Join& j = joins_[join_of(path)];
    if (j.rpc == pc && !j.call) j.passed |= path;  // the root's rpc is never a pc
  }
  // Paths `a` and `b` (disjoint lanes) became one at `pc`, call depth
  // `depth`; counts it into `counters` and says how it was judged.
  Merge merge(LaneMask a, LaneMask b, Pc pc, unsigned depth, ReconvergenceCounters& counters);

  // Joins ever allocated, the root included (tests of the recycling).
  size_t pool_size() const { return joins_.size(); }

 private:
  struct Join {
    Pc rpc = kExitPc;     // IPDOM (branch) or return address (call)
    LaneMask mask = 0;    // the path's lanes when it split or called
    LaneMask passed = 0;  // lanes that issued at rpc since
    uint32_t parent = 0;  // the join it happened under (root: itself)
    uint32_t height = 0;  // joins above it up to the root
    uint32_t level = 0;   // call depth of the splitting or calling path
    bool call = false;
    bool marked = false;
  };
  static constexpr uint32_t kRoot = 0;

  uint32_t join_of(LaneMask path) const { return lane_join_[__builtin_ctzll(path)]; }
  // The innermost join of `j`'s chain that still has live lanes outside
  // `path` (at depth `depth`: a call's join is left only after returning).
  uint32_t heal(uint32_t j, LaneMask path, unsigned depth) const;
  uint32_t open(Pc rpc, LaneMask mask, uint32_t parent, unsigned level, bool call);
  void assign(LaneMask lanes, uint32_t j);
  // Frees the joins no live lane reaches.
  void collect();

  unsigned warp_size_;
  size_t sweep_at_;  // pool size at which a full pool is swept rather than grown
  LaneMask live_ = 0;
  std::vector<Join> joins_;  // [0] is the root
  std::vector<uint32_t> free_;
  uint32_t lane_join_[kMaxWarpSize] = {};
};

}  // namespace warptlm
