// NW_NoTBC / NW_TBC / NW_ideal on the SLP paper's Figure 5 and Figure 2, the warps TBC and ideal
// compaction form, pieces_of, bad input, and a seeded property test of form_warps_tbc.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "compaction/warp_formation.h"
#include "permutation_test_util.h"

namespace warptlm {
namespace {

using testing::formed_rows;
using testing::mask_of;
using Rows = std::vector<std::string>;

struct Figure5Case {
  Rows warps;
  unsigned ideal, no_tbc, tbc;
};

// Figure 5, warp size 4, four warps, no permutation. (a) and (b) print NW_ideal and
// "NW_NoTBC, TBC" (equal); (c) prints NW_TBC and NW_NoTBC, and NW_ideal = ceil(active / 4) is
// derived here: 8/4 = 2, 12/4 = 3, 8/4 = 2, 8/4 = 2.
const std::vector<Figure5Case> kFigure5 = {
    // (a) potentially compactable but not as-is.
    {{"0---", "4---", "8---", "C---"}, 1, 4, 4},
    {{"01--", "45--", "89--", "CD--"}, 2, 4, 4},
    {{"0-2-", "4-6-", "8-A-", "C-E-"}, 2, 4, 4},
    {{"0123", "456-", "89--", "C---"}, 3, 4, 4},
    // (b) never compactable.
    {{"0123", "4567", "----", "----"}, 2, 2, 2},
    {{"012-", "456-", "----", "----"}, 2, 2, 2},
    {{"01--", "----", "----", "----"}, 1, 1, 1},
    {{"0123", "4567", "89AB", "CD--"}, 4, 4, 4},
    // (c) compactable as-is.
    {{"01--", "--67", "89--", "--EF"}, 2, 4, 2},
    {{"0123", "45--", "--AB", "CDEF"}, 3, 4, 3},
    {{"01--", "45--", "--AB", "--EF"}, 2, 4, 2},
    {{"0-2-", "4-6-", "-9-B", "-D-F"}, 2, 4, 2},
};

TEST(WarpsAMaskNeeds, Figure5) {
  auto none = make_lane_permutation("none", 4, 0);
  for (size_t i = 0; i < kFigure5.size(); ++i) {
    const Figure5Case& c = kFigure5[i];
    CtaMask mask = mask_of(c.warps);
    EXPECT_EQ(nw_ideal(mask, 4), c.ideal) << "example " << i;
    EXPECT_EQ(nw_no_compaction(mask), c.no_tbc) << "example " << i;
    EXPECT_EQ(nw_tbc(mask, *none), c.tbc) << "example " << i;
  }
}

// Figure 1/2: a CTA of 3 warps of 4 threads; block A's divergent branch sends threads 7 and A to
// block B, so block C runs the other ten: W0 0123, W1 456-, W2 89-B. Lanes 0 and 1 each hold three
// threads (0,4,8 and 1,5,9), lanes 2 and 3 two (2,6 and 3,B): NW_TBC = 3 = NW_NoTBC, and the
// encoders place 0, 4, 8 in lane 0 of formed warps 0, 1, 2.
TEST(WarpsAMaskNeeds, Figure2) {
  CtaMask block_c = mask_of({"0123", "456-", "89-B"});
  auto none = make_lane_permutation("none", 4, 0);
  EXPECT_EQ(nw_tbc(block_c, *none), 3u);
  EXPECT_EQ(nw_no_compaction(block_c), 3u);
  EXPECT_EQ(nw_ideal(block_c, 4), 3u);  // ceil(10 / 4)
  std::vector<FormedWarp> out;
  form_warps_tbc(block_c, *none, out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].lane_thread[0], 0);
  EXPECT_EQ(out[1].lane_thread[0], 4);
  EXPECT_EQ(out[2].lane_thread[0], 8);
  EXPECT_EQ(formed_rows(out), (Rows{"0123", "456B", "89--"}));
  EXPECT_EQ(out[0].threads + out[1].threads + out[2].threads, 10u);
  EXPECT_EQ(out[2].threads, 2u);
  // Path B (threads 7 and A) fits in one warp: 7 is lane 3, A lane 2.
  CtaMask block_b = mask_of({"----", "---7", "--A-"});
  form_warps_tbc(block_b, *none, out);
  EXPECT_EQ(formed_rows(out), (Rows{"--A7"}));
  EXPECT_EQ(nw_no_compaction(block_b), 2u);
}

// Ideal compaction packs active threads in CTA order: Figure 5(a)'s first example (0, 4, 8, C)
// needs one warp; the fourth (0123 456- 89-- C---) packs 0123 / 4568 / 9C--.
TEST(WarpsAMaskNeeds, IdealFormation) {
  std::vector<FormedWarp> out;
  form_warps_ideal(mask_of(kFigure5[0].warps), 4, out);
  EXPECT_EQ(formed_rows(out), (Rows{"048C"}));
  form_warps_ideal(mask_of(kFigure5[3].warps), 4, out);
  EXPECT_EQ(formed_rows(out), (Rows{"0123", "4568", "9C--"}));
  EXPECT_EQ(out[2].threads, 2u);
  form_warps_ideal(CtaMask{0, 0}, 4, out);
  EXPECT_TRUE(out.empty());
}

TEST(WarpsAMaskNeeds, EmptyMasks) {
  auto none = make_lane_permutation("balanced", 32, 0);
  CtaMask empty(4, 0);
  EXPECT_FALSE(any(empty));
  EXPECT_FALSE(any(CtaMask{}));
  EXPECT_EQ(active_threads(empty), 0u);
  EXPECT_EQ(nw_no_compaction(empty), 0u);
  EXPECT_EQ(nw_tbc(empty, *none), 0u);
  EXPECT_EQ(nw_ideal(empty, 32), 0u);
  std::vector<FormedWarp> out(3);
  form_warps_tbc(empty, *none, out);
  EXPECT_TRUE(out.empty());
  EXPECT_TRUE(any(CtaMask{0, 0, 4}));
  EXPECT_EQ(active_threads(CtaMask{0xF, 0, ~LaneMask(0)}), 68u);  // 4 + 64
}

TEST(WarpsAMaskNeeds, LanesBeyondTheWarpSizeAreRejected) {
  auto none = make_lane_permutation("none", 4, 0);
  CtaMask bad = {0x1, 0x10};  // lane 4 of warp 1 at warp size 4
  for (auto call : {+[](const CtaMask&m, const LanePermutation&p) { nw_tbc(m, p); },
                    +[](const CtaMask&m, const LanePermutation&p) {
                      std::vector<FormedWarp> out;
                      form_warps_tbc(m, p, out);
                    },
                    +[](const CtaMask&m, const LanePermutation&) { nw_ideal(m, 4); }}) {
    try {
      call(bad, *none);
      FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("mask"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(nw_ideal(CtaMask{1}, 6), std::invalid_argument);
}

// Thread 2*8+5 = 21 and 0*8+3 = 3 and 2*8+0 = 16 in one formed warp of width 8: pieces W0 {3} and
// W2 {0, 5}, sorted by warp.
TEST(WarpsAMaskNeeds, PiecesOfAFormedWarp) {
  FormedWarp fw;
  fw.lane_thread = {21, -1, 3, -1, -1, 16, -1, -1};
  fw.threads = 3;
  std::vector<WarpPiece> pieces;
  pieces_of(fw, 8, pieces);
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[0].warp, 0u);
  EXPECT_EQ(pieces[0].lanes, LaneMask(1) << 3);
  EXPECT_EQ(pieces[1].warp, 2u);
  EXPECT_EQ(pieces[1].lanes, (LaneMask(1) << 0) | (LaneMask(1) << 5));
}

// Property test over seeded random masks: every thread of a formed warp sits in its home lane,
// every active thread appears exactly once and no inactive one does, out.size() == nw_tbc, and
// NW_ideal <= NW_TBC <= NW_NoTBC; pieces_of gives back exactly the formed warp's threads.
TEST(WarpsAMaskNeeds, TbcFormationProperties) {
  std::mt19937_64 rng(20240607);
  std::vector<FormedWarp> out;
  std::vector<WarpPiece> pieces;
  unsigned masks = 0;
  for (unsigned ws = 4; ws <= 64; ws *= 2) {
    for (unsigned trial = 0; trial < 60; ++trial, ++masks) {
      unsigned warps = 1 + static_cast<unsigned>(rng() % 32);
      unsigned density = static_cast<unsigned>(rng() % 4);  // 0: sparse .. 3: dense
      CtaMask mask(warps);
      for (LaneMask& m : mask) {
        LaneMask bits = rng();
        for (unsigned d = 0; d < 2; ++d) bits = density < 2 ? bits & rng() : bits | rng();
        m = bits & full_mask(ws);
      }
      for (const std::string& name : lane_permutation_names()) {
        auto perm = make_lane_permutation(name, ws, trial);
        form_warps_tbc(mask, *perm, out);
        unsigned nw = nw_tbc(mask, *perm);
        ASSERT_EQ(out.size(), nw) << name;
        EXPECT_LE(nw_ideal(mask, ws), nw) << name;
        EXPECT_LE(nw, nw_no_compaction(mask)) << name;
        CtaMask seen(warps, 0);
        for (const FormedWarp& fw : out) {
          ASSERT_EQ(fw.lane_thread.size(), ws);
          unsigned threads = 0;
          for (unsigned h = 0; h < ws; ++h) {
            int32_t t = fw.lane_thread[h];
            if (t < 0) continue;
            ++threads;
            unsigned w = unsigned(t) / ws, l = unsigned(t) % ws;
            ASSERT_LT(w, warps);
            ASSERT_EQ(perm->home_lane(w, l), h) << name << " thread " << t;
            ASSERT_TRUE(mask[w] >> l & 1) << name << " inactive thread " << t;
            ASSERT_FALSE(seen[w] >> l & 1) << name << " thread twice " << t;
            seen[w] |= LaneMask(1) << l;
          }
          EXPECT_EQ(fw.threads, threads);
          EXPECT_GT(threads, 0u);
          pieces_of(fw, ws, pieces);
          unsigned piece_threads = 0;
          for (size_t i = 0; i < pieces.size(); ++i) {
            if (i > 0) {
              EXPECT_LT(pieces[i - 1].warp, pieces[i].warp);
            }
            piece_threads += static_cast<unsigned>(__builtin_popcountll(pieces[i].lanes));
          }
          EXPECT_EQ(piece_threads, threads);
        }
        EXPECT_EQ(seen, mask) << name;
      }
    }
  }
  EXPECT_EQ(masks, 300u);
}

}  // namespace
}  // namespace warptlm
