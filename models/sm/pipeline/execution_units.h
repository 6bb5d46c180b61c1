// The execution pipelines of an SM: per kind (SP, SFU, LD/ST) a number of
// identical units, each with a result latency and an initiation interval. A
// warp instruction needs `passes` cycles on a unit when the SIMD width is
// narrower than the warp. Cycle bookkeeping only: results are computed at
// issue by the semantics.
#pragma once

#include <cstdint>
#include <vector>

#include "sm/pipeline/unit_kind.h"

namespace warptlm {

struct PipelineParams {
  unsigned units = 1, latency = 1, interval = 1;
};

// Cycles a warp instruction occupies a unit's lanes: ceil(warp_size /
// simd_width), at least 1. Throws std::invalid_argument naming a zero parameter.
unsigned pipeline_passes(unsigned warp_size, unsigned simd_width);

class ExecutionUnits {  // per SM
 public:
  // passes: cycles a warp instruction occupies a unit's lanes (warp_size / simd_width, >= 1).
  // Throws std::invalid_argument naming the parameter (e.g. "params[sfu].latency")
  // when a count, latency, interval or `passes` is 0.
  ExecutionUnits(const PipelineParams (&params)[kUnitKinds], unsigned passes);

  // Whether a unit of `kind` accepts an instruction at cycle `now`.
  // Inline, like issue(): the SM calls both for every issue.
  bool can_issue(UnitKind kind, uint64_t now) const {
    for (uint64_t t : free_at_[index(kind)])
      if (t <= now) return true;
    return false;
  }
  // Occupies one free unit of `kind` for max(interval, passes) cycles from `now`; returns the cycle
  // the result is written back: now + latency + passes - 1. Throws std::invalid_argument naming
  // `kind` when no unit of it is free at `now`.
  uint64_t issue(UnitKind kind, uint64_t now) {
    const unsigned k = index(kind);
    for (uint64_t& t : free_at_[k]) {
      if (t <= now) {
        t = now + occupancy_[k];
        return now + params_[k].latency + passes_ - 1;
      }
    }
    none_free(kind, now);
  }
  // Earliest cycle a unit of `kind` accepts.
  uint64_t next_free(UnitKind kind) const;
  // Every unit free from cycle 0.
  void reset();

  const PipelineParams& params(UnitKind kind) const { return params_[index(kind)]; }
  unsigned passes() const { return passes_; }

 private:
  // Throws std::invalid_argument naming `kind` for a value outside the enum.
  static unsigned index(UnitKind kind) {
    const unsigned k = static_cast<unsigned>(kind);
    if (k >= kUnitKinds) bad_kind(k);
    return k;
  }
  [[noreturn]] static void bad_kind(unsigned k);
  [[noreturn]] static void none_free(UnitKind kind, uint64_t now);

  PipelineParams params_[kUnitKinds];
  unsigned passes_;
  unsigned occupancy_[kUnitKinds];             // max(interval, passes)
  std::vector<uint64_t> free_at_[kUnitKinds];  // per unit: first cycle it accepts again
};

}  // namespace warptlm
