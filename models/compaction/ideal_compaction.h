// Ideal compaction (SLP's upper bound): the active threads pack into
// ceil(threads / warp_size) warps, any thread in any SIMD lane.
#pragma once

#include "compaction/compaction_unit.h"

namespace warptlm {

class IdealCompaction : public CompactionUnit {
 public:
  explicit IdealCompaction(const CompactionSetup& setup) : warp_size_(setup.warp_size) {}
  unsigned count_warps(const CtaMask& active) const override {
    return nw_ideal(active, warp_size_);
  }
  void form_warps(const CtaMask& active, std::vector<FormedWarp>& out) const override {
    form_warps_ideal(active, warp_size_, out);
  }

 private:
  unsigned warp_size_;
};

}  // namespace warptlm
