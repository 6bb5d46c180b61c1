// Two-level scheduling: round-robin over an active set; long-latency stalls
// move a warp to the pending FIFO and its head refills the active set.
#include <gtest/gtest.h>

#include <stdexcept>

#include "scheduler_test_util.h"
#include "sm/scheduler/two_level_scheduler.h"

namespace warptlm {
namespace {

using test::Order;
using test::order_of;

TEST(TwoLevelScheduler, StallsRotateWarpsThroughTheActiveSet) {
  TwoLevelScheduler s(6, 2);
  for (unsigned w = 0; w < 5; ++w) s.warp_started(w, w);
  // Active {0,1}; pending FIFO [2,3,4]. Round-robin from slot 0.
  EXPECT_EQ(order_of(s), (Order{0, 1}));
  EXPECT_EQ(s.pending(), (Order{2, 3, 4}));
  s.issued(0);
  EXPECT_EQ(order_of(s), (Order{1, 0}));
  // 0 stalls: it goes to the back of the FIFO and its head, 2, takes the place.
  s.long_latency_stall(0);
  EXPECT_EQ(s.pending(), (Order{3, 4, 0}));
  EXPECT_EQ(order_of(s), (Order{1, 2}));  // after last issuer 0: 1, 2
  s.issued(1);
  EXPECT_EQ(order_of(s), (Order{2, 1}));
  s.long_latency_stall(1);  // active {2,3}, pending [4,0,1]
  s.long_latency_stall(2);  // active {3,4}, pending [0,1,2]
  EXPECT_EQ(s.pending(), (Order{0, 1, 2}));
  EXPECT_EQ(order_of(s), (Order{3, 4}));
  // A pending warp stalling again keeps its place.
  s.long_latency_stall(0);
  EXPECT_EQ(s.pending(), (Order{0, 1, 2}));
  // An active warp finishes: the head of the FIFO, 0, refills.
  s.warp_finished(3);                     // active {0,4}, pending [1,2]
  EXPECT_EQ(order_of(s), (Order{4, 0}));  // after last issuer 1: (2,3 not active) 4, (5) 0
  // A pending warp finishes: it just leaves the FIFO.
  s.warp_finished(1);
  EXPECT_EQ(s.pending(), (Order{2}));
  EXPECT_EQ(order_of(s), (Order{4, 0}));
  // A new warp while the active set is full queues.
  s.warp_started(5, 5);
  EXPECT_EQ(s.pending(), (Order{2, 5}));
  s.issued(4);
  EXPECT_EQ(order_of(s), (Order{0, 4}));  // 5 is pending: never offered
  EXPECT_THROW(s.issued(2), std::invalid_argument);
  s.warp_finished(0);  // 2 refills: active {2,4}, pending [5]
  s.warp_finished(4);  // 5 refills: active {2,5}, pending []
  EXPECT_TRUE(s.pending().empty());
  EXPECT_EQ(order_of(s), (Order{5, 2}));  // after last issuer 4: 5, (0, 1) 2
  // A stall with nobody pending: the warp leaves and comes straight back.
  s.long_latency_stall(5);
  EXPECT_TRUE(s.active(5));
  EXPECT_EQ(order_of(s), (Order{5, 2}));
}

TEST(TwoLevelScheduler, ALargeActiveSetIsRoundRobin) {
  TwoLevelScheduler s(3, 8);
  for (unsigned w = 0; w < 3; ++w) s.warp_started(w, w);
  EXPECT_EQ(order_of(s), (Order{0, 1, 2}));
  s.issued(1);
  EXPECT_EQ(order_of(s), (Order{2, 0, 1}));
  s.long_latency_stall(2);  // pending was empty: back in at once
  EXPECT_EQ(order_of(s), (Order{2, 0, 1}));
}

TEST(TwoLevelScheduler, RejectsAnEmptyActiveSet) {
  try {
    TwoLevelScheduler s(4, 0);
    FAIL() << "accepted active_set = 0";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("active_set"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace warptlm
