#include "sm/pipeline/execution_units.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace warptlm {

unsigned pipeline_passes(unsigned warp_size, unsigned simd_width) {
  if (warp_size == 0) throw std::invalid_argument("warp_size: must be at least 1");
  if (simd_width == 0) throw std::invalid_argument("simd_width: must be at least 1");
  return std::max(1u, (warp_size + simd_width - 1) / simd_width);
}

unsigned ExecutionUnits::index(UnitKind kind) {
  const unsigned k = static_cast<unsigned>(kind);
  if (k >= kUnitKinds) throw std::invalid_argument("kind: not a unit kind: " + std::to_string(k));
  return k;
}

ExecutionUnits::ExecutionUnits(const PipelineParams (&params)[kUnitKinds], unsigned passes)
    : passes_(passes) {
  if (passes == 0) throw std::invalid_argument("passes: must be at least 1");
  for (unsigned k = 0; k < kUnitKinds; ++k) {
    const PipelineParams& p = params[k];
    const std::string where =
        std::string("params[") + unit_kind_name(static_cast<UnitKind>(k)) + "].";
    if (p.units == 0) throw std::invalid_argument(where + "units: must be at least 1");
    if (p.latency == 0) throw std::invalid_argument(where + "latency: must be at least 1");
    if (p.interval == 0) throw std::invalid_argument(where + "interval: must be at least 1");
    params_[k] = p;
    occupancy_[k] = std::max(p.interval, passes);
    free_at_[k].assign(p.units, 0);
  }
}

bool ExecutionUnits::can_issue(UnitKind kind, uint64_t now) const {
  for (uint64_t t : free_at_[index(kind)])
    if (t <= now) return true;
  return false;
}

uint64_t ExecutionUnits::issue(UnitKind kind, uint64_t now) {
  const unsigned k = index(kind);
  for (uint64_t& t : free_at_[k]) {
    if (t <= now) {
      t = now + occupancy_[k];
      return now + params_[k].latency + passes_ - 1;
    }
  }
  throw std::invalid_argument(std::string("kind: no ") + unit_kind_name(kind) +
                              " unit is free at cycle " + std::to_string(now));
}

uint64_t ExecutionUnits::next_free(UnitKind kind) const {
  const auto& units = free_at_[index(kind)];
  return *std::min_element(units.begin(), units.end());
}

void ExecutionUnits::reset() {
  for (auto& units : free_at_) std::fill(units.begin(), units.end(), 0);
}

}  // namespace warptlm
