// PayloadQueue: ready-time order, then source order, with arrival order kept among equal
// (time, source), across wrap-around and growth of the ring.
#include <gtest/gtest.h>

#include <vector>

#include "transaction/payload_queue.h"

namespace warptlm {
namespace {

sc_core::sc_time ns(double v) { return sc_core::sc_time(v, sc_core::SC_NS); }

TEST(PayloadQueue, OrdersByReadyTimeKeepingArrivalOrderForTies) {
  tlm::tlm_generic_payload p[5];
  PayloadQueue q;
  q.push(&p[0], ns(5));
  q.push(&p[1], ns(3));  // overtakes p[0]
  q.push(&p[2], ns(5));  // behind p[0]: same time, later arrival
  q.push(&p[3], ns(9));
  q.push(&p[4], ns(3));  // behind p[1]
  std::vector<tlm::tlm_generic_payload*> order;
  while (!q.empty()) {
    order.push_back(q.front().payload);
    q.pop();
  }
  EXPECT_EQ(order, (std::vector<tlm::tlm_generic_payload*>{&p[1], &p[4], &p[0], &p[2], &p[3]}));
}

TEST(PayloadQueue, SameTimeEntriesLeaveInSourceOrderWhateverTheirArrivalOrder) {
  tlm::tlm_generic_payload p[6];
  PayloadQueue q;
  q.push(&p[0], ns(5), 3);
  q.push(&p[1], ns(5), 1);  // overtakes p[0]: same time, lower source
  q.push(&p[2], ns(4), 7);  // earlier time beats any source
  q.push(&p[3], ns(5), 1);  // behind p[1]: same time and source, later arrival
  q.push(&p[4], ns(5), 2);  // between p[3] and p[0]
  q.push(&p[5], ns(6), 0);
  std::vector<tlm::tlm_generic_payload*> order;
  while (!q.empty()) {
    order.push_back(q.front().payload);
    q.pop();
  }
  EXPECT_EQ(order,
            (std::vector<tlm::tlm_generic_payload*>{&p[2], &p[1], &p[3], &p[4], &p[0], &p[5]}));
}

TEST(PayloadQueue, KeepsFifoOrderThroughWrapAroundAndGrowth) {
  std::vector<tlm::tlm_generic_payload> p(100);
  PayloadQueue q;
  // Fill 10, drain 7, so the head sits mid-ring; then grow past the first capacity (16).
  for (int i = 0; i < 10; ++i) q.push(&p[i], ns(i));
  for (int i = 0; i < 7; ++i) {
    EXPECT_EQ(q.front().payload, &p[i]);
    q.pop();
  }
  for (int i = 10; i < 60; ++i) q.push(&p[i], ns(i));
  EXPECT_EQ(q.size(), 53u);
  for (int i = 7; i < 60; ++i) {
    ASSERT_EQ(q.front().payload, &p[i]) << i;
    EXPECT_EQ(q.front().ready, ns(i));
    q.pop();
  }
  EXPECT_TRUE(q.empty());
}

}  // namespace
}  // namespace warptlm
