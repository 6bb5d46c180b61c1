#include <gtest/gtest.h>

#include <stdexcept>

#include "compaction/capri_predictor.h"

namespace warptlm {
namespace {

TEST(CapriPredictor, UnknownBranchIsPredictedAdequate) {
  CapriPredictor p(16, 2);
  EXPECT_TRUE(p.predict(0x40));
  EXPECT_EQ(p.counters().lookups, 1u);
  EXPECT_EQ(p.counters().misses, 1u);
  EXPECT_EQ(p.counters().predicted_compact, 1u);
}

TEST(CapriPredictor, OneHistoryBitFollowsTheLastOutcome) {
  CapriPredictor p(16, 1);
  p.update(0x40, false, true);  // allocated at 0: inadequate
  EXPECT_FALSE(p.predict(0x40));
  p.update(0x40, true, false);  // 0 -> 1
  EXPECT_TRUE(p.predict(0x40));
  p.update(0x40, false, true);  // 1 -> 0
  EXPECT_FALSE(p.predict(0x40));
  EXPECT_EQ(p.counters().mispredictions, 3u);
}

TEST(CapriPredictor, TwoBitCounterNeedsTwoOutcomesToFlipFromStrong) {
  CapriPredictor p(16, 2);      // threshold 2, max 3
  p.update(0x80, true, true);   // allocated weakly adequate: 2
  p.update(0x80, true, true);   // 3 (strong)
  p.update(0x80, false, true);  // 2: still adequate
  EXPECT_TRUE(p.predict(0x80));
  p.update(0x80, false, true);  // 1
  EXPECT_FALSE(p.predict(0x80));
  p.update(0x80, false, false);  // 0, saturates
  p.update(0x80, false, false);  // stays 0
  p.update(0x80, true, false);   // 1: still inadequate
  EXPECT_FALSE(p.predict(0x80));
  EXPECT_EQ(p.counters().mispredictions, 3u);  // the two false-when-true, the last true-when-false
}

TEST(CapriPredictor, BranchesSharingASlotDisplaceEachOther) {
  // 4 entries, indexed by pc / 8 mod 4: 0x08 and 0x28 (instructions 1 and 5) share slot 1.
  CapriPredictor p(4, 1);
  p.update(0x08, false, true);
  EXPECT_FALSE(p.predict(0x08));
  p.update(0x28, true, true);    // displaces 0x08
  EXPECT_TRUE(p.predict(0x08));  // a miss again: predicted adequate
  EXPECT_EQ(p.counters().misses, 1u);
  p.update(0x10, false, true);  // slot 2: 0x28 keeps its entry
  EXPECT_TRUE(p.predict(0x28));
  EXPECT_FALSE(p.predict(0x10));
}

TEST(CapriPredictor, BadSizesNameTheField) {
  EXPECT_THROW(CapriPredictor(0, 1), std::invalid_argument);
  EXPECT_THROW(CapriPredictor(12, 1), std::invalid_argument);
  EXPECT_THROW(CapriPredictor(16, 0), std::invalid_argument);
  try {
    CapriPredictor(16, 5);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("capri.history_bits"), std::string::npos);
  }
}

}  // namespace
}  // namespace warptlm
