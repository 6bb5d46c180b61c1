// NW_NoTBC / NW_TBC / NW_ideal and the warps TBC and ideal compaction form. These run at every
// divergent branch of every CTA, so they use fixed per-lane arrays and the permutation's cached
// rows instead of allocating.
#include "compaction/warp_formation.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace warptlm {
namespace {

// Throws unless every warp's mask fits in warp_size lanes (a set bit beyond it is a caller bug that
// would otherwise index past the per-lane arrays).
void check_mask(const CtaMask& mask, unsigned warp_size) {
  LaneMask outside = ~full_mask(warp_size);
  for (size_t w = 0; w < mask.size(); ++w) {
    if (mask[w] & outside) {
      throw std::invalid_argument("mask: warp " + std::to_string(w) +
                                  " has lanes at or beyond warp_size " + std::to_string(warp_size));
    }
  }
}

// Visits each set bit of m from the lowest.
template <typename F>
void each_lane(LaneMask m, F&& f) {
  while (m != 0) {
    f(static_cast<unsigned>(__builtin_ctzll(m)));
    m &= m - 1;
  }
}

// Active threads per home lane; returns the largest count (NW_TBC).
unsigned count_per_home_lane(const CtaMask& mask, const LanePermutation& perm, unsigned* counts) {
  unsigned ws = perm.warp_size();
  std::fill(counts, counts + ws, 0u);
  uint8_t scratch[kMaxWarpSize];
  for (size_t w = 0; w < mask.size(); ++w) {
    if (mask[w] == 0) continue;
    const uint8_t* row = perm.home_lane_row(static_cast<unsigned>(w), scratch);
    each_lane(mask[w], [&](unsigned l) { ++counts[row[l]]; });
  }
  unsigned most = 0;
  for (unsigned h = 0; h < ws; ++h) most = std::max(most, counts[h]);
  return most;
}

void reset_warps(std::vector<FormedWarp>& out, unsigned count, unsigned warp_size) {
  out.resize(count);
  for (FormedWarp& fw : out) {
    fw.lane_thread.assign(warp_size, -1);
    fw.threads = 0;
  }
}

}  // namespace

unsigned nw_no_compaction(const CtaMask& mask) {
  unsigned n = 0;
  for (LaneMask m : mask) n += m != 0 ? 1 : 0;
  return n;
}

unsigned nw_tbc(const CtaMask& mask, const LanePermutation& perm) {
  check_mask(mask, perm.warp_size());
  unsigned counts[kMaxWarpSize];
  return count_per_home_lane(mask, perm, counts);
}

unsigned nw_ideal(const CtaMask& mask, unsigned warp_size) {
  lane_bits(warp_size);  // validates warp_size
  check_mask(mask, warp_size);
  return (active_threads(mask) + warp_size - 1) / warp_size;
}

void form_warps_tbc(const CtaMask& mask, const LanePermutation& perm,
                    std::vector<FormedWarp>& out) {
  unsigned ws = perm.warp_size();
  check_mask(mask, ws);
  unsigned counts[kMaxWarpSize];
  reset_warps(out, count_per_home_lane(mask, perm, counts), ws);
  // Priority encoder of home lane h: its k-th active thread in static-warp order goes to formed
  // warp k. Walking warps in ascending order hands out k = 0, 1, ... per lane in that order.
  unsigned next[kMaxWarpSize] = {};
  uint8_t scratch[kMaxWarpSize];
  for (size_t w = 0; w < mask.size(); ++w) {
    if (mask[w] == 0) continue;
    const uint8_t* row = perm.home_lane_row(static_cast<unsigned>(w), scratch);
    each_lane(mask[w], [&](unsigned l) {
      unsigned h = row[l];
      FormedWarp& fw = out[next[h]++];
      fw.lane_thread[h] = static_cast<int32_t>(w * ws + l);
      ++fw.threads;
    });
  }
}

void form_warps_ideal(const CtaMask& mask, unsigned warp_size, std::vector<FormedWarp>& out) {
  reset_warps(out, nw_ideal(mask, warp_size), warp_size);
  unsigned order = 0;
  for (size_t w = 0; w < mask.size(); ++w) {
    each_lane(mask[w], [&](unsigned l) {
      FormedWarp& fw = out[order / warp_size];
      fw.lane_thread[order % warp_size] = static_cast<int32_t>(w * warp_size + l);
      ++fw.threads;
      ++order;
    });
  }
}

void form_static_warps(const CtaMask& mask, unsigned warp_size, std::vector<FormedWarp>& out) {
  reset_warps(out, nw_no_compaction(mask), warp_size);
  unsigned k = 0;
  for (size_t w = 0; w < mask.size(); ++w) {
    if (mask[w] == 0) continue;
    FormedWarp& fw = out[k++];
    each_lane(mask[w], [&](unsigned l) {
      fw.lane_thread[l] = static_cast<int32_t>(w * warp_size + l);
      ++fw.threads;
    });
  }
}

void pieces_of(const FormedWarp& fw, unsigned warp_size, std::vector<WarpPiece>& out) {
  lane_bits(warp_size);  // validates warp_size
  out.clear();
  for (int32_t thread : fw.lane_thread) {
    if (thread < 0) continue;
    uint32_t warp = static_cast<uint32_t>(thread) / warp_size;
    LaneMask bit = LaneMask(1) << (static_cast<uint32_t>(thread) % warp_size);
    // Keep `out` sorted by warp: a formed warp has at most warp_size pieces, so a linear insert is
    // cheaper than sorting afterwards.
    auto it = std::lower_bound(out.begin(), out.end(), warp,
                               [](const WarpPiece& p, uint32_t w) { return p.warp < w; });
    if (it != out.end() && it->warp == warp) {
      it->lanes |= bit;
    } else {
      out.insert(it, WarpPiece{warp, bit});
    }
  }
}

}  // namespace warptlm
