// Thread block compaction (Fung & Aamodt, HPCA 2011): every entry of the
// block stack compacts, each thread staying in its home SIMD lane as the
// configured lane permutation places it (SLP, Rhu & Erez, ISCA 2013).
#pragma once

#include <memory>

#include "compaction/compaction_unit.h"
#include "compaction/lane_permutation.h"

namespace warptlm {

class TbcCompaction : public CompactionUnit {
 public:
  explicit TbcCompaction(const CompactionSetup& setup);
  unsigned count_warps(const CtaMask& active) const override;
  void form_warps(const CtaMask& active, std::vector<FormedWarp>& out) const override;

 protected:
  // Whether compacting the two paths `taken` and `not_taken` needs fewer
  // warps than they arrive in (CAPRI's adequacy).
  bool adequate(const CtaMask& taken, const CtaMask& not_taken) const;

 private:
  std::unique_ptr<LanePermutation> permutation_;
};

}  // namespace warptlm
