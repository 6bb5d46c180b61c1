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

void ExecutionUnits::bad_kind(unsigned k) {
  throw std::invalid_argument("kind: not a unit kind: " + std::to_string(k));
}

void ExecutionUnits::none_free(UnitKind kind, uint64_t now) {
  throw std::invalid_argument(std::string("kind: no ") + unit_kind_name(kind) +
                              " unit is free at cycle " + std::to_string(now));
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

uint64_t ExecutionUnits::next_free(UnitKind kind) const {
  const auto& units = free_at_[index(kind)];
  return *std::min_element(units.begin(), units.end());
}

void ExecutionUnits::reset() {
  for (auto& units : free_at_) std::fill(units.begin(), units.end(), 0);
}

}  // namespace warptlm
