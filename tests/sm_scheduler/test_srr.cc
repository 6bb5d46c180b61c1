// Sticky round-robin: the last issuer first while it can issue, then
// round-robin from it.
#include <gtest/gtest.h>

#include "scheduler_test_util.h"
#include "sm/scheduler/lrr_scheduler.h"
#include "sm/scheduler/srr_scheduler.h"

namespace warptlm {
namespace {

using test::Order;
using test::order_of;

TEST(SrrScheduler, SticksToTheLastIssuer) {
  SrrScheduler s(4);
  s.warp_started(0, 0);
  s.warp_started(1, 1);
  s.warp_started(2, 2);
  EXPECT_EQ(order_of(s), (Order{0, 1, 2}));  // nothing issued: from slot 0
  s.issued(1);
  EXPECT_EQ(order_of(s), (Order{1, 2, 0}));  // 1 again first, then 2, (3 empty), 0
  s.issued(1);
  EXPECT_EQ(order_of(s), (Order{1, 2, 0}));
  s.issued(2);  // 1 could not issue; 2 did and is now sticky
  EXPECT_EQ(order_of(s), (Order{2, 0, 1}));
  s.warp_started(3, 3);
  EXPECT_EQ(order_of(s), (Order{2, 3, 0, 1}));
  s.issued(0);
  EXPECT_EQ(order_of(s), (Order{0, 1, 2, 3}));
  // The sticky warp finishes: round-robin after its slot.
  s.warp_finished(0);
  EXPECT_EQ(order_of(s), (Order{1, 2, 3}));
  // A new warp in that slot does not inherit the stickiness: it comes last.
  s.warp_started(0, 4);
  EXPECT_EQ(order_of(s), (Order{1, 2, 3, 0}));
  s.issued(3);
  EXPECT_EQ(order_of(s), (Order{3, 0, 1, 2}));
}

TEST(SrrScheduler, DiffersFromLrrOnlyInOfferingTheIssuerFirst) {
  SrrScheduler srr(3);
  LrrScheduler lrr(3);
  for (unsigned w = 0; w < 3; ++w) {
    srr.warp_started(w, w);
    lrr.warp_started(w, w);
  }
  srr.issued(1);
  lrr.issued(1);
  EXPECT_EQ(order_of(srr), (Order{1, 2, 0}));
  EXPECT_EQ(order_of(lrr), (Order{2, 0, 1}));
}

// start(): where the rotation that order() lists begins (the SM walks the
// live slots from there itself).
TEST(SrrScheduler, StartIsTheStickyWarpOrTheSlotAfterIt) {
  SrrScheduler s(4);
  EXPECT_EQ(s.start(), 0u);  // nothing issued yet: from slot 0
  s.warp_started(0, 0);
  s.warp_started(2, 1);
  s.issued(2);
  EXPECT_EQ(s.start(), 2u);  // sticky
  s.warp_finished(2);
  EXPECT_EQ(s.start(), 3u);  // after its slot; 3 is empty, so order() begins at 0
  EXPECT_EQ(order_of(s), (Order{0}));
}

TEST(LrrScheduler, StartIsTheSlotAfterTheLastIssuer) {
  LrrScheduler s(4);
  EXPECT_EQ(s.start(), 0u);
  s.warp_started(1, 0);
  s.warp_started(3, 1);
  s.issued(3);
  EXPECT_EQ(s.start(), 0u);  // wraps around
  EXPECT_EQ(order_of(s), (Order{1, 3}));
  s.issued(1);
  EXPECT_EQ(s.start(), 2u);
  EXPECT_EQ(order_of(s), (Order{3, 1}));
}

}  // namespace
}  // namespace warptlm
