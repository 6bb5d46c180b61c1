// DueQueue: entries come out by cycle, equal cycles in push order, whatever
// order they were pushed in; it empties and refills, and stays ordered past
// the compaction of its taken prefix.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "sm/due_queue.h"

namespace warptlm {
namespace {

struct Item {
  uint64_t cycle;
  int id;
};

std::vector<int> drain(DueQueue<Item>& q, uint64_t upto) {
  std::vector<int> ids;
  while (!q.empty() && q.top().cycle <= upto) {
    ids.push_back(q.top().id);
    q.pop();
  }
  return ids;
}

TEST(DueQueue, TakesEntriesByCycleAndEqualCyclesInPushOrder) {
  DueQueue<Item> q;
  EXPECT_TRUE(q.empty());
  q.push({10, 1});
  q.push({5, 2});
  q.push({10, 3});
  q.push({7, 4});
  q.push({5, 5});
  EXPECT_EQ(q.size(), 5u);
  EXPECT_EQ(q.top().cycle, 5u);
  EXPECT_EQ(drain(q, 6), (std::vector<int>{2, 5}));
  EXPECT_EQ(q.top().cycle, 7u);
  q.push({8, 6});  // after the taken ones, between the queued ones
  EXPECT_EQ(drain(q, 100), (std::vector<int>{4, 6, 1, 3}));
  EXPECT_TRUE(q.empty());
  q.push({3, 7});  // refills from the front once empty
  EXPECT_EQ(q.size(), 1u);
  EXPECT_EQ(drain(q, 3), (std::vector<int>{7}));
}

TEST(DueQueue, MatchesAStableSortOverManyPushesAndPops) {
  // Interleaved pushes and pops, as an SM's ticks: past the compaction of
  // the taken prefix every entry still comes out in (cycle, push) order.
  std::mt19937 rng(7);
  DueQueue<Item> q;
  std::vector<Item> pending;
  std::vector<int> got, want;
  int id = 0;
  for (uint64_t now = 0; now < 5000; ++now) {
    const unsigned pushes = rng() % 4;
    for (unsigned i = 0; i < pushes; ++i) {
      const Item it{now + 1 + rng() % 40, id++};
      q.push(it);
      pending.push_back(it);
    }
    for (int i : drain(q, now)) got.push_back(i);
    std::stable_sort(pending.begin(), pending.end(),
                     [](const Item& a, const Item& b) { return a.cycle < b.cycle; });
    while (!pending.empty() && pending.front().cycle <= now) {
      want.push_back(pending.front().id);
      pending.erase(pending.begin());
    }
    ASSERT_EQ(q.size(), pending.size());
  }
  EXPECT_EQ(got, want);
  EXPECT_GT(got.size(), 5000u);
}

}  // namespace
}  // namespace warptlm
