// Warp formation by compaction and the number of warps (NW) a CTA-wide mask needs: without
// compaction, with thread block compaction (threads keep their home lanes), and with ideal
// compaction (any lane). These are the quantities NW_NoTBC, NW_TBC and NW_ideal of the SLP paper
// (Rhu & Erez, ISCA 2013, sections 2.3 and 3.3, Figure 5).
#pragma once

#include <cstdint>
#include <vector>

#include "compaction/cta_mask.h"
#include "compaction/lane_permutation.h"

namespace warptlm {

// A warp formed by compaction: per home SIMD lane, the CTA thread (warp * warp_size + logical lane)
// that runs there, or -1.
struct FormedWarp {
  std::vector<int32_t> lane_thread;
  unsigned threads = 0;
};

// Static warps with at least one active thread (no compaction).
unsigned nw_no_compaction(const CtaMask& mask);
// NW_TBC: the largest number of active threads sharing one home lane.
unsigned nw_tbc(const CtaMask& mask, const LanePermutation& perm);
// NW_ideal = ceil(active threads / warp_size).
unsigned nw_ideal(const CtaMask& mask, unsigned warp_size);
// TBC's per-lane priority encoders (Fung & Aamodt, HPCA 2011; SLP Figure 2): formed warp k takes,
// in each home lane, the k-th active thread of that lane in static-warp order. out.size() ==
// nw_tbc(mask, perm).
void form_warps_tbc(const CtaMask& mask, const LanePermutation& perm, std::vector<FormedWarp>& out);
// Ideal compaction: active threads in CTA thread order, packed warp_size per warp,
// lane = order % warp_size.
void form_warps_ideal(const CtaMask& mask, unsigned warp_size, std::vector<FormedWarp>& out);
// No compaction: one warp per static warp with an active thread, each thread in its logical lane
// (for executors that treat every path as formed warps).
void form_static_warps(const CtaMask& mask, unsigned warp_size, std::vector<FormedWarp>& out);

// The part of a formed warp that comes from one static warp: its logical lanes `lanes` (bit l =
// logical lane l of static warp `warp`). Executors run a formed warp as these pieces, since a
// thread's registers belong to its static warp.
struct WarpPiece {
  uint32_t warp;
  LaneMask lanes;
};
// The pieces of `fw`, sorted by warp, one per static warp that has a thread in it.
void pieces_of(const FormedWarp& fw, unsigned warp_size, std::vector<WarpPiece>& out);

}  // namespace warptlm
