// Helpers for the compaction tests: masks from the SLP paper's figure notation ("0-2-" means
// logical lanes 0 and 2 of that warp are active) and the inverse, rendering threads as the figures
// label them.
#pragma once

#include <string>
#include <vector>

#include "compaction/cta_mask.h"
#include "compaction/lane_permutation.h"
#include "compaction/warp_formation.h"

namespace warptlm::testing {

// The figures' thread labels: 0-9 then A-V (thread 10 = A, 16 = G, 24 = O, 31 = V).
inline char thread_label(int thread) {
  return thread < 0 ? '-' : "0123456789ABCDEFGHIJKLMNOPQRSTUV"[thread];
}

// One string per static warp; a character other than '-' marks that logical lane active.
inline CtaMask mask_of(const std::vector<std::string>& warps) {
  CtaMask mask;
  for (const std::string& w : warps) {
    LaneMask m = 0;
    for (size_t l = 0; l < w.size(); ++l) {
      if (w[l] != '-') m |= LaneMask(1) << l;
    }
    mask.push_back(m);
  }
  return mask;
}

// A figure row: static warp `warp` laid out by home lane, each active thread's label at its home
// lane.
inline std::string home_lane_row(const CtaMask& mask, const LanePermutation& perm, unsigned warp) {
  unsigned ws = perm.warp_size();
  std::string row(ws, '-');
  for (unsigned l = 0; l < ws; ++l) {
    if (mask[warp] >> l & 1) row[perm.home_lane(warp, l)] = thread_label(int(warp * ws + l));
  }
  return row;
}

// A formed warp, each home lane showing its thread's label.
inline std::string formed_row(const FormedWarp& fw) {
  std::string row;
  for (int32_t t : fw.lane_thread) row += thread_label(t);
  return row;
}

inline std::vector<std::string> formed_rows(const std::vector<FormedWarp>& warps) {
  std::vector<std::string> rows;
  for (const FormedWarp& fw : warps) rows.push_back(formed_row(fw));
  return rows;
}

}  // namespace warptlm::testing
