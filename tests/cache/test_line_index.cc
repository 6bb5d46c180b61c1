// LineIndex: the hash index behind the tag arrays and MSHR tables. Deletion
// shifts later members of a probe run back, so the tests erase from the
// middle of runs and check every key that remains.
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>

#include "cache/line_index.h"

namespace warptlm {
namespace {

TEST(LineIndex, FindsWhatWasInsertedAndForgetsWhatWasErased) {
  LineIndex index(4);
  EXPECT_EQ(index.find(7), LineIndex::kAbsent);
  index.insert(7, 0);
  index.insert(0, 1);  // key 0 is a line number like any other
  index.insert(1ull << 40, 2);
  EXPECT_EQ(index.size(), 3u);
  EXPECT_EQ(index.find(7), 0u);
  EXPECT_EQ(index.find(0), 1u);
  EXPECT_EQ(index.find(1ull << 40), 2u);
  EXPECT_EQ(index.find(8), LineIndex::kAbsent);
  index.erase(0);
  index.erase(12345);  // absent: nothing happens
  EXPECT_EQ(index.size(), 2u);
  EXPECT_EQ(index.find(0), LineIndex::kAbsent);
  EXPECT_EQ(index.find(7), 0u);
  index.clear();
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(index.find(7), LineIndex::kAbsent);
}

TEST(LineIndex, RejectsAKeyBeyondItsCapacity) {
  EXPECT_THROW(LineIndex(0), std::invalid_argument);
  LineIndex index(2);
  index.insert(1, 0);
  index.insert(2, 1);
  EXPECT_THROW(index.insert(3, 2), std::invalid_argument);
  index.erase(1);
  index.insert(3, 2);  // room again
  EXPECT_EQ(index.find(3), 2u);
  EXPECT_EQ(index.find(2), 1u);
}

// A full index (load factor one half) under strided keys, as cache lines of
// one set are, with erasures all over the probe runs: after every step each
// key held answers its value and each erased one is gone (a std::map keeps
// the expected contents).
TEST(LineIndex, StaysExactUnderStridedInsertsAndErases) {
  const unsigned capacity = 64;
  LineIndex index(capacity);
  std::map<uint64_t, uint32_t> expected;
  uint32_t next_value = 0;
  for (unsigned round = 0; round < 50; ++round) {
    for (uint64_t k = 0; expected.size() < capacity; ++k) {
      const uint64_t key = (k * 4096 + round * 7) * 64;  // power-of-two strides
      if (expected.count(key)) continue;
      index.insert(key, next_value);
      expected[key] = next_value++;
    }
    // Erase every third key (by rank), so runs lose members in their middle.
    unsigned rank = 0;
    for (auto it = expected.begin(); it != expected.end();) {
      if (rank++ % 3 == round % 3) {
        index.erase(it->first);
        it = expected.erase(it);
      } else {
        ++it;
      }
    }
    ASSERT_EQ(index.size(), expected.size());
    for (const auto& [key, value] : expected) ASSERT_EQ(index.find(key), value) << key;
  }
}

}  // namespace
}  // namespace warptlm
