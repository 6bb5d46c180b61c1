// The SLP paper's Figure 9(b) and 9(c) (warp size 8, four warps of a CTA): where each active thread
// sits under TBC without permutation, Odd_Even, Rev_WID and Balanced, NW_TBC, and the warps the
// priority encoders form. The figure's rows are reproduced exactly (its OCR typo "0-Q-S-U-" for W3
// is "O-Q-S-U-": thread 24 is labelled O).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "permutation_test_util.h"

namespace warptlm {
namespace {

using testing::formed_rows;
using testing::home_lane_row;
using testing::mask_of;
using Rows = std::vector<std::string>;

Rows layout(const CtaMask& mask, const char* name) {
  auto perm = make_lane_permutation(name, 8, 0);
  Rows rows;
  for (unsigned w = 0; w < mask.size(); ++w) rows.push_back(home_lane_row(mask, *perm, w));
  return rows;
}

unsigned nw(const CtaMask& mask, const char* name) {
  return nw_tbc(mask, *make_lane_permutation(name, 8, 0));
}

Rows formed(const CtaMask& mask, const char* name) {
  std::vector<FormedWarp> out;
  form_warps_tbc(mask, *make_lane_permutation(name, 8, 0), out);
  return formed_rows(out);
}

// 9(b): even logical lanes active in every warp (16 threads, NW_ideal = 2).
const CtaMask kFigure9b = mask_of({"0-2-4-6-", "8-A-C-E-", "G-I-K-M-", "O-Q-S-U-"});
// 9(c): the first half-warp active in every warp (16 threads, NW_ideal = 2).
const CtaMask kFigure9c = mask_of({"0123----", "89AB----", "GHIJ----", "OPQR----"});

TEST(Figure9, RowsOfPatternB) {
  EXPECT_EQ(layout(kFigure9b, "none"), (Rows{"0-2-4-6-", "8-A-C-E-", "G-I-K-M-", "O-Q-S-U-"}));
  EXPECT_EQ(layout(kFigure9b, "odd_even"), (Rows{"0-2-4-6-", "-8-A-C-E", "G-I-K-M-", "-O-Q-S-U"}));
  // rev_wid masks: W1 100, W2 010, W3 110.
  EXPECT_EQ(layout(kFigure9b, "rev_wid"), (Rows{"0-2-4-6-", "C-E-8-A-", "I-G-M-K-", "U-S-Q-O-"}));
  // balanced masks: W1 111, W2 001, W3 110.
  EXPECT_EQ(layout(kFigure9b, "balanced"), (Rows{"0-2-4-6-", "-E-C-A-8", "-G-I-K-M", "U-S-Q-O-"}));
}

// NW_TBC = the most threads in one home lane: none and rev_wid put all four warps' threads on the
// even lanes (4 each); odd_even and balanced put two warps on even and two on odd lanes (2 each).
TEST(Figure9, NwOfPatternB) {
  EXPECT_EQ(nw(kFigure9b, "none"), 4u);
  EXPECT_EQ(nw(kFigure9b, "odd_even"), 2u);
  EXPECT_EQ(nw(kFigure9b, "rev_wid"), 4u);
  EXPECT_EQ(nw(kFigure9b, "balanced"), 2u);
  EXPECT_EQ(nw_ideal(kFigure9b, 8), 2u);
  EXPECT_EQ(nw_no_compaction(kFigure9b), 4u);
}

// Formed warp k takes each home lane's k-th thread in static-warp order: under balanced, even lanes
// hold W0 then W3, odd lanes W1 then W2.
TEST(Figure9, FormedWarpsOfPatternB) {
  EXPECT_EQ(formed(kFigure9b, "balanced"), (Rows{"0E2C4A68", "UGSIQKOM"}));
  EXPECT_EQ(formed(kFigure9b, "odd_even"), (Rows{"082A4C6E", "GOIQKSMU"}));
  EXPECT_EQ(formed(kFigure9b, "none"), (Rows{"0-2-4-6-", "8-A-C-E-", "G-I-K-M-", "O-Q-S-U-"}));
  EXPECT_EQ(formed(kFigure9b, "rev_wid"), (Rows{"0-2-4-6-", "C-E-8-A-", "I-G-M-K-", "U-S-Q-O-"}));
}

TEST(Figure9, RowsOfPatternC) {
  EXPECT_EQ(layout(kFigure9c, "none"), (Rows{"0123----", "89AB----", "GHIJ----", "OPQR----"}));
  EXPECT_EQ(layout(kFigure9c, "odd_even"), (Rows{"0123----", "98BA----", "GHIJ----", "PORQ----"}));
  EXPECT_EQ(layout(kFigure9c, "rev_wid"), (Rows{"0123----", "----89AB", "IJGH----", "----QROP"}));
  EXPECT_EQ(layout(kFigure9c, "balanced"), (Rows{"0123----", "----BA98", "HGJI----", "----QROP"}));
}

// Derived: none and odd_even keep every thread in lanes 0-3 (XOR 1 stays inside the half), so lane
// 0 holds 4 threads: NW_TBC = 4. rev_wid (W1 XOR 4, W3 XOR 6) and balanced (W1 XOR 7, W3 XOR 6)
// move the odd warps to lanes 4-7, so each lane holds 2: NW_TBC = 2 = NW_ideal.
TEST(Figure9, NwOfPatternC) {
  EXPECT_EQ(nw(kFigure9c, "none"), 4u);
  EXPECT_EQ(nw(kFigure9c, "odd_even"), 4u);
  EXPECT_EQ(nw(kFigure9c, "rev_wid"), 2u);
  EXPECT_EQ(nw(kFigure9c, "balanced"), 2u);
  EXPECT_EQ(nw_ideal(kFigure9c, 8), 2u);
  EXPECT_EQ(nw_no_compaction(kFigure9c), 4u);
}

TEST(Figure9, FormedWarpsOfPatternC) {
  EXPECT_EQ(formed(kFigure9c, "balanced"), (Rows{"0123BA98", "HGJIQROP"}));
  EXPECT_EQ(formed(kFigure9c, "rev_wid"), (Rows{"012389AB", "IJGHQROP"}));
  EXPECT_EQ(formed(kFigure9c, "odd_even"), (Rows{"0123----", "98BA----", "GHIJ----", "PORQ----"}));
}

}  // namespace
}  // namespace warptlm
