#include "compaction/tbc_compaction.h"

namespace warptlm {

TbcCompaction::TbcCompaction(const CompactionSetup& setup)
    : permutation_(make_lane_permutation(setup.permutation, setup.warp_size, setup.seed)) {}

unsigned TbcCompaction::count_warps(const CtaMask& active) const {
  return nw_tbc(active, *permutation_);
}

void TbcCompaction::form_warps(const CtaMask& active, std::vector<FormedWarp>& out) const {
  form_warps_tbc(active, *permutation_, out);
}

bool TbcCompaction::adequate(const CtaMask& taken, const CtaMask& not_taken) const {
  const unsigned compacted = nw_tbc(taken, *permutation_) + nw_tbc(not_taken, *permutation_);
  const unsigned arriving = nw_no_compaction(taken) + nw_no_compaction(not_taken);
  return compacted < arriving;
}

}  // namespace warptlm
