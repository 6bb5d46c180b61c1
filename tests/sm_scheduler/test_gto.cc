// Greedy-then-oldest: the last issuer first, then the others by age.
#include <gtest/gtest.h>

#include "scheduler_test_util.h"
#include "sm/scheduler/gto_scheduler.h"

namespace warptlm {
namespace {

using test::Order;
using test::order_of;

TEST(GtoScheduler, GreedyThenOldest) {
  GtoScheduler s(4);
  s.warp_started(2, 10);
  s.warp_started(0, 12);
  s.warp_started(3, 10);  // same age as slot 2: the lower slot goes first
  s.warp_started(1, 11);
  // By (age, slot): (10,2) (10,3) (11,1) (12,0); no greedy warp yet.
  EXPECT_EQ(order_of(s), (Order{2, 3, 1, 0}));
  s.issued(0);  // the youngest issues: it becomes the greedy warp
  EXPECT_EQ(order_of(s), (Order{0, 2, 3, 1}));
  s.issued(0);
  EXPECT_EQ(order_of(s), (Order{0, 2, 3, 1}));
  EXPECT_EQ(order_of(s), (Order{0, 2, 3, 1}));  // no issue: it stays greedy
  s.issued(1);                                  // 0 was not ready and 1 issued instead
  EXPECT_EQ(order_of(s), (Order{1, 2, 3, 0}));
  // The greedy warp finishes: oldest first again.
  s.warp_finished(1);
  EXPECT_EQ(order_of(s), (Order{2, 3, 0}));
  // A new warp in slot 1 is the youngest and does not inherit the priority.
  s.warp_started(1, 13);
  EXPECT_EQ(order_of(s), (Order{2, 3, 0, 1}));
  s.issued(3);
  EXPECT_EQ(order_of(s), (Order{3, 2, 0, 1}));
  s.warp_finished(2);
  EXPECT_EQ(order_of(s), (Order{3, 0, 1}));
  s.warp_started(2, 5);  // an older warp arriving late still sorts first after the greedy one
  EXPECT_EQ(order_of(s), (Order{3, 2, 0, 1}));
}

TEST(GtoScheduler, RejectsBadSlots) {
  GtoScheduler s(2);
  EXPECT_THROW(s.warp_started(5, 0), std::invalid_argument);
  EXPECT_THROW(s.issued(0), std::invalid_argument);
  s.warp_started(1, 0);
  EXPECT_THROW(s.warp_finished(0), std::invalid_argument);
  EXPECT_EQ(order_of(s), (Order{1}));
}

}  // namespace
}  // namespace warptlm
