// Loose round-robin: slot order, starting after the last issuer.
#include <gtest/gtest.h>

#include <stdexcept>

#include "scheduler_test_util.h"
#include "sm/scheduler/lrr_scheduler.h"

namespace warptlm {
namespace {

using test::Order;
using test::order_of;

TEST(LrrScheduler, RotatesAfterTheLastIssuer) {
  LrrScheduler s(4);
  s.warp_started(0, 0);
  s.warp_started(1, 1);
  s.warp_started(2, 2);
  EXPECT_EQ(order_of(s), (Order{0, 1, 2}));  // nothing issued yet: slot 0 first; 3 is empty
  s.issued(1);
  EXPECT_EQ(order_of(s), (Order{2, 0, 1}));  // after 1: 2, (3 empty), 0, 1
  s.issued(2);
  EXPECT_EQ(order_of(s), (Order{0, 1, 2}));  // after 2: (3), 0, 1, 2
  s.warp_started(3, 3);
  EXPECT_EQ(order_of(s), (Order{3, 0, 1, 2}));
  s.issued(0);
  EXPECT_EQ(order_of(s), (Order{1, 2, 3, 0}));
  s.warp_finished(1);
  EXPECT_EQ(order_of(s), (Order{2, 3, 0}));
  EXPECT_EQ(order_of(s), (Order{2, 3, 0}));  // a cycle without issue changes nothing
  s.issued(3);
  EXPECT_EQ(order_of(s), (Order{0, 2, 3}));
  // The last issuer finishes: the rotation goes on from its position.
  s.warp_finished(3);
  EXPECT_EQ(order_of(s), (Order{0, 2}));
  s.warp_started(1, 4);
  EXPECT_EQ(order_of(s), (Order{0, 1, 2}));
}

TEST(LrrScheduler, IgnoresAges) {
  LrrScheduler s(3);
  s.warp_started(2, 0);  // oldest in the highest slot
  s.warp_started(0, 7);
  s.warp_started(1, 7);  // a tie in age
  EXPECT_EQ(order_of(s), (Order{0, 1, 2}));
  s.issued(2);
  EXPECT_EQ(order_of(s), (Order{0, 1, 2}));  // after 2 wraps to 0
}

TEST(LrrScheduler, RejectsBadSlots) {
  EXPECT_THROW(LrrScheduler(0), std::invalid_argument);
  LrrScheduler s(2);
  EXPECT_THROW(s.warp_started(2, 0), std::invalid_argument);
  s.warp_started(0, 0);
  EXPECT_THROW(s.warp_started(0, 1), std::invalid_argument);  // already holds a warp
  EXPECT_THROW(s.issued(1), std::invalid_argument);           // empty slot
  EXPECT_THROW(s.warp_finished(1), std::invalid_argument);
  s.warp_finished(0);
  EXPECT_THROW(s.issued(0), std::invalid_argument);  // finished
  EXPECT_EQ(order_of(s), Order{});
}

}  // namespace
}  // namespace warptlm
