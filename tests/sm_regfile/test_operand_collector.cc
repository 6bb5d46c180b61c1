// Operand collectors over a banked register file: bank conflicts and unit
// exhaustion with exact cycles.
#include <gtest/gtest.h>

#include <stdexcept>

#include "sm/regfile/operand_collector.h"

namespace warptlm {
namespace {

struct Result {
  bool started;
  uint64_t ready;
  unsigned conflicts;
};

Result start(OperandCollector& oc, uint64_t now, unsigned warp, std::initializer_list<uint32_t> r) {
  Result res{false, 0, 99};
  res.started =
      oc.start(now, warp, r.begin(), static_cast<unsigned>(r.size()), res.ready, res.conflicts);
  return res;
}

TEST(OperandCollector, DistinctBanksReadInOneCycle) {
  OperandCollector oc(4, 2);
  // Warp 0: r1, r2, r3 on banks 1, 2, 3, all read at cycle 10.
  const Result r = start(oc, 10, 0, {1, 2, 3});
  EXPECT_TRUE(r.started);
  EXPECT_EQ(r.ready, 11u);
  EXPECT_EQ(r.conflicts, 0u);
  // No source registers: ready the next cycle.
  uint64_t ready = 0;
  unsigned conflicts = 7;
  EXPECT_TRUE(oc.start(10, 0, nullptr, 0, ready, conflicts));
  EXPECT_EQ(ready, 11u);
  EXPECT_EQ(conflicts, 0u);
}

TEST(OperandCollector, TwoRegistersOnOneBankCostACycle) {
  OperandCollector oc(4, 4);
  // r1 and r5 both on bank 1 (warp 0): read at 10 and 11, ready at 12.
  const Result r = start(oc, 10, 0, {1, 5});
  EXPECT_EQ(r.ready, 12u);
  EXPECT_EQ(r.conflicts, 1u);
  // r4, r8, r12 on bank 0: three reads, 20..22, ready 23.
  const Result three = start(oc, 20, 0, {4, 8, 12});
  EXPECT_EQ(three.ready, 23u);
  EXPECT_EQ(three.conflicts, 2u);
  // A register named twice is read once.
  const Result twice = start(oc, 30, 0, {2, 2});
  EXPECT_EQ(twice.ready, 31u);
  EXPECT_EQ(twice.conflicts, 0u);
}

TEST(OperandCollector, ConflictsAcrossInstructions) {
  OperandCollector oc(4, 4);
  EXPECT_EQ(start(oc, 10, 0, {1}).ready, 11u);  // bank 1 read at 10
  // Another instruction wanting bank 1 at 10 waits for cycle 11.
  const Result r = start(oc, 10, 0, {2, 5});  // bank 2 at 10, bank 1 at 11
  EXPECT_EQ(r.ready, 12u);
  EXPECT_EQ(r.conflicts, 1u);
  // By cycle 12 bank 1 is free again.
  EXPECT_EQ(start(oc, 12, 0, {1}).conflicts, 0u);
}

TEST(OperandCollector, WarpOffsetSpreadsTheSameRegisters) {
  OperandCollector oc(4, 4);
  // r1 of warp 0 is on bank 1, r1 of warp 1 on bank 2: no conflict.
  EXPECT_EQ(start(oc, 10, 0, {1}).conflicts, 0u);
  EXPECT_EQ(start(oc, 10, 1, {1}).conflicts, 0u);
  // r2 of warp 0 is bank 2, which warp 1's r1 took at cycle 10: one cycle late.
  const Result r = start(oc, 10, 0, {2});
  EXPECT_EQ(r.ready, 12u);
  EXPECT_EQ(r.conflicts, 1u);
  // Warp 5 with 4 banks maps like warp 1: r0 -> bank 1, read at 11 after warp 0's r1.
  EXPECT_EQ(start(oc, 10, 5, {0}).ready, 12u);
}

TEST(OperandCollector, RunsOutOfCollectorUnits) {
  OperandCollector oc(4, 2);
  EXPECT_EQ(oc.next_free_collector(), 0u);
  const Result a = start(oc, 10, 0, {1, 5});  // unit 0 busy until 12
  const Result b = start(oc, 10, 0, {2});     // unit 1 busy until 11
  EXPECT_EQ(a.ready, 12u);
  EXPECT_EQ(b.ready, 11u);
  const Result c = start(oc, 10, 0, {3});
  EXPECT_FALSE(c.started);
  EXPECT_EQ(c.conflicts, 99u);  // outputs untouched
  EXPECT_EQ(oc.next_free_collector(), 11u);
  // Unit 1 is free at 11; the failed call booked nothing on bank 3.
  const Result d = start(oc, 11, 0, {3});
  EXPECT_TRUE(d.started);
  EXPECT_EQ(d.ready, 12u);
  EXPECT_EQ(d.conflicts, 0u);
  EXPECT_FALSE(start(oc, 11, 0, {0}).started);
  EXPECT_EQ(oc.next_free_collector(), 12u);
  EXPECT_TRUE(start(oc, 12, 0, {0}).started);
}

TEST(OperandCollector, RejectsBadArguments) {
  EXPECT_THROW(OperandCollector(0, 1), std::invalid_argument);
  EXPECT_THROW(OperandCollector(1, 0), std::invalid_argument);
  OperandCollector oc(2, 1);
  EXPECT_TRUE(start(oc, 10, 0, {0}).started);
  EXPECT_THROW(start(oc, 9, 0, {0}), std::invalid_argument);  // time went back
  uint64_t ready;
  unsigned conflicts;
  EXPECT_THROW(oc.start(20, 0, nullptr, 1, ready, conflicts), std::invalid_argument);
  oc.reset();  // a new time base
  const Result r = start(oc, 0, 0, {0});
  EXPECT_TRUE(r.started);
  EXPECT_EQ(r.ready, 1u);
}

}  // namespace
}  // namespace warptlm
