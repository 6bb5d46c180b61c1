// MshrTable: a first miss opens an entry, later misses merge up to max_merged,
// the fill hands back the waiters in arrival order and frees the entry.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "cache/mshr_table.h"

namespace warptlm {
namespace {

using R = MshrTable::Result;

TEST(MshrTable, MergesUpToMaxThenFull) {
  MshrTable m(2, 3);
  EXPECT_EQ(m.add(0x100, 11), R::NewMiss);
  EXPECT_EQ(m.add(0x100, 12), R::Merged);
  EXPECT_EQ(m.add(0x100, 13), R::Merged);
  EXPECT_EQ(m.add(0x100, 14), R::Full);  // three waiters held: the first miss counts
  EXPECT_EQ(m.in_use(), 1u);
  EXPECT_FALSE(m.full());
  EXPECT_EQ(m.add(0x200, 21), R::NewMiss);
  EXPECT_TRUE(m.full());
  EXPECT_EQ(m.add(0x300, 31), R::Full);    // no entry free
  EXPECT_EQ(m.add(0x200, 22), R::Merged);  // a full table still merges into open entries
  EXPECT_TRUE(m.has(0x100));
  EXPECT_TRUE(m.has(0x200));
  EXPECT_FALSE(m.has(0x300));
}

TEST(MshrTable, FillReturnsWaitersInArrivalOrderAndFrees) {
  MshrTable m(2, 4);
  m.add(0x100, 7);
  m.add(0x200, 1);
  m.add(0x100, 3);
  m.add(0x100, 9);
  std::vector<uint64_t> waiters = {42, 43};  // stale contents are replaced
  m.fill(0x100, waiters);
  EXPECT_EQ(waiters, (std::vector<uint64_t>{7, 3, 9}));
  EXPECT_FALSE(m.has(0x100));
  EXPECT_EQ(m.in_use(), 1u);
  // The freed entry takes a new line; the old line starts over as a new miss.
  EXPECT_EQ(m.add(0x300, 5), R::NewMiss);
  EXPECT_EQ(m.add(0x100, 6), R::Full);
  m.fill(0x200, waiters);
  EXPECT_EQ(waiters, (std::vector<uint64_t>{1}));
  EXPECT_EQ(m.add(0x100, 6), R::NewMiss);
  m.fill(0x100, waiters);
  EXPECT_EQ(waiters, (std::vector<uint64_t>{6}));
  m.fill(0x300, waiters);
  EXPECT_EQ(waiters, (std::vector<uint64_t>{5}));
  EXPECT_EQ(m.in_use(), 0u);
}

TEST(MshrTable, FullEntryRejectionRecordsNothing) {
  MshrTable m(1, 1);
  EXPECT_EQ(m.add(0x40, 1), R::NewMiss);
  EXPECT_EQ(m.add(0x40, 2), R::Full);
  std::vector<uint64_t> waiters;
  m.fill(0x40, waiters);
  EXPECT_EQ(waiters, (std::vector<uint64_t>{1}));
}

TEST(MshrTable, FillWithoutEntryIsAnError) {
  MshrTable m(2, 2);
  std::vector<uint64_t> waiters;
  EXPECT_THROW(m.fill(0x100, waiters), std::invalid_argument);
  m.add(0x100, 1);
  m.fill(0x100, waiters);
  EXPECT_THROW(m.fill(0x100, waiters), std::invalid_argument);  // already freed
}

TEST(MshrTable, RejectsZeroSizes) {
  try {
    MshrTable m(0, 4);
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("entries:", 0), 0u);
  }
  try {
    MshrTable m(4, 0);
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("max_merged:", 0), 0u);
  }
}

}  // namespace
}  // namespace warptlm
