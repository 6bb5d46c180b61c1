// The per-warp scoreboard with lane masks, on parsed instructions.
#include <gtest/gtest.h>

#include <stdexcept>

#include "operand_test_util.h"
#include "sm/scoreboard/scoreboard.h"

namespace warptlm {
namespace {

// pc / 8 of each instruction below.
enum : unsigned { kLoad, kAdd, kMul, kMovR1, kSetp, kGuarded, kIndep, kCount };

class ScoreboardTest : public ::testing::Test {
 protected:
  ScoreboardTest()
      : m_(test::parse_body(".reg .pred %p<3>; .reg .b32 %r<6>; .reg .b64 %rd<4>;\n"
                            "ld.global.u32 %r1, [%rd1];\n"  // kLoad
                            "add.s32 %r2, %r1, 1;\n"        // kAdd: reads r1
                            "mul.lo.s32 %r3, %r2, %r2;\n"   // kMul: reads r2
                            "mov.u32 %r1, 7;\n"             // kMovR1: writes r1, reads nothing
                            "setp.lt.s32 %p1, %r3, 10;\n"   // kSetp: writes p1
                            "@%p1 add.s32 %r4, %r0, 1;\n"   // kGuarded: reads p1 and r0
                            "add.s32 %r5, %r0, 2;")),       // kIndep: unrelated
        table_(m_),
        sb_(static_cast<unsigned>(m_.functions[0].regs.size())) {}
  const RegisterOperands& op(unsigned i) const { return table_.at(i * kInstrBytes); }
  uint32_t reg(const char* name) const { return test::reg_index(m_, 0, name); }

  Module m_;
  OperandTable table_;
  Scoreboard sb_;
};

constexpr LaneMask kAll = ~LaneMask(0) >> 32;  // 32 lanes

TEST_F(ScoreboardTest, DependentChainBlocksUntilRelease) {
  EXPECT_TRUE(sb_.empty());
  EXPECT_FALSE(sb_.blocked(op(kAdd), kAll));
  sb_.reserve(op(kLoad), kAll);
  EXPECT_FALSE(sb_.empty());
  EXPECT_EQ(sb_.pending(reg("%r1")), kAll);
  EXPECT_TRUE(sb_.blocked(op(kAdd), kAll));     // RAW on r1
  EXPECT_FALSE(sb_.blocked(op(kMul), kAll));    // r2 and r3 are not pending
  EXPECT_FALSE(sb_.blocked(op(kIndep), kAll));  // r0, r5
  sb_.release(op(kLoad), kAll);
  EXPECT_TRUE(sb_.empty());
  EXPECT_FALSE(sb_.blocked(op(kAdd), kAll));
  // The chain moves on: add writes r2, which mul reads.
  sb_.reserve(op(kAdd), kAll);
  EXPECT_TRUE(sb_.blocked(op(kMul), kAll));
  EXPECT_FALSE(sb_.blocked(op(kLoad), kAll));  // ld reads rd1 and writes r1: free
}

TEST_F(ScoreboardTest, DisjointLanesDoNotBlock) {
  sb_.reserve(op(kLoad), 0x0000FFFF);
  EXPECT_FALSE(sb_.blocked(op(kAdd), 0xFFFF0000));  // the other split's lanes
  EXPECT_TRUE(sb_.blocked(op(kAdd), 0x00010001));   // lane 0 overlaps
  EXPECT_TRUE(sb_.blocked_any_lane(op(kAdd)));      // a maskless scoreboard would stall
  EXPECT_FALSE(sb_.blocked_any_lane(op(kIndep)));
  // The second split writes r1 on its own lanes while the first's write is in flight.
  sb_.reserve(op(kLoad), 0xFFFF0000);
  EXPECT_EQ(sb_.pending(reg("%r1")), kAll);
  sb_.release(op(kLoad), 0x0000FFFF);  // removes only its lanes
  EXPECT_EQ(sb_.pending(reg("%r1")), 0xFFFF0000u);
  EXPECT_FALSE(sb_.empty());
  EXPECT_FALSE(sb_.blocked(op(kAdd), 0x0000FFFF));
  EXPECT_TRUE(sb_.blocked(op(kAdd), 0x00010000));
  sb_.release(op(kLoad), 0xFFFF0000);
  EXPECT_TRUE(sb_.empty());
}

TEST_F(ScoreboardTest, WriteAfterWriteBlocks) {
  sb_.reserve(op(kLoad), kAll);
  EXPECT_EQ(op(kMovR1).n_reads, 0);
  EXPECT_TRUE(sb_.blocked(op(kMovR1), kAll));  // WAW on r1
  EXPECT_FALSE(sb_.blocked(op(kMovR1), 0));    // no lanes, nothing to wait for
  // Reserving over a pending write on the same lanes is a caller bug.
  EXPECT_THROW(sb_.reserve(op(kMovR1), 0x1), std::invalid_argument);
  EXPECT_EQ(sb_.pending(reg("%r1")), kAll);  // unchanged by the failed call
}

TEST_F(ScoreboardTest, PredicatesAndGuards) {
  sb_.reserve(op(kSetp), 0xF);
  EXPECT_EQ(sb_.pending(reg("%p1")), 0xFu);
  EXPECT_TRUE(sb_.blocked(op(kGuarded), 0x1));    // the guard reads p1
  EXPECT_FALSE(sb_.blocked(op(kGuarded), 0x10));  // lane 4: no pending p1
  EXPECT_FALSE(sb_.blocked(op(kIndep), 0xF));     // same sources, no guard
}

TEST_F(ScoreboardTest, ReleasesInAnyOrder) {
  sb_.reserve(op(kLoad), kAll);  // r1
  sb_.reserve(op(kSetp), kAll);  // p1
  sb_.reserve(op(kIndep), 0x3);  // r5
  sb_.release(op(kSetp), kAll);  // the younger write completes first
  EXPECT_FALSE(sb_.blocked(op(kGuarded), kAll));
  EXPECT_TRUE(sb_.blocked(op(kAdd), kAll));
  sb_.release(op(kIndep), 0x3);
  EXPECT_FALSE(sb_.empty());
  sb_.release(op(kLoad), kAll);
  EXPECT_TRUE(sb_.empty());
  // Releasing what is not pending is a caller bug.
  EXPECT_THROW(sb_.release(op(kLoad), 0x1), std::invalid_argument);
}

TEST_F(ScoreboardTest, ResetClearsAndResizes) {
  sb_.reserve(op(kLoad), kAll);
  sb_.reset(2);  // a function with two registers: r1 (index 4: after p0..p2, r0) is out of range
  EXPECT_TRUE(sb_.empty());
  EXPECT_EQ(sb_.registers(), 2u);
  EXPECT_THROW(sb_.reserve(op(kLoad), kAll), std::invalid_argument);
  EXPECT_THROW(sb_.blocked(op(kAdd), kAll), std::invalid_argument);
  // The queries and release check ranges inside their scans (nothing is
  // pending, so every scan reaches the register past the end).
  EXPECT_THROW(sb_.blocked_any_lane(op(kAdd)), std::invalid_argument);
  EXPECT_THROW(sb_.release(op(kLoad), kAll), std::invalid_argument);
  sb_.reset(static_cast<unsigned>(m_.functions[0].regs.size()));
  EXPECT_FALSE(sb_.blocked(op(kAdd), kAll));
}

}  // namespace
}  // namespace warptlm
