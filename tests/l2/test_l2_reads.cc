// L2 slice reads: hit and miss latencies against every way a memory target
// may answer, MSHR merging, one lookup per cycle, and MSHR-full back-pressure.
#include <gtest/gtest.h>

#include "l2_test_util.h"

namespace warptlm {
namespace {

using l2_test::Bench;
using l2_test::ns;
using l2_test::rd;
using l2_test::small_l2;
using testing::TargetStyle;

// A miss at 0: the line read leaves at once, memory answers at 100, the slice
// answers 10 cycles later (110). A hit at 200 answers at 210.
void hit_after_miss(TargetStyle style) {
  Bench b({rd(0, 0x1000), rd(200, 0x1004)}, small_l2(), style);
  sc_core::sc_start();
  ASSERT_EQ(b.gen.completed(), 2u);
  EXPECT_EQ(b.gen.result(0).accepted, ns(0));
  EXPECT_EQ(b.gen.result(0).responded, ns(110));
  EXPECT_EQ(b.gen.result(1).responded, ns(210));
  EXPECT_EQ(b.gen.result(0).status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(b.gen.result(1).status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(b.arrivals(), (std::vector<std::string>{"R@0:0x1000"}));
  ASSERT_EQ(b.mem.arrivals.size(), 1u);
  EXPECT_EQ(b.mem.arrivals[0].bytes, 64u);
  EXPECT_EQ(b.mem.arrivals[0].sm, 7u);  // charged to the requesting SM
  const L2Stats& s = b.l2.stats();
  EXPECT_EQ(s.reads, 2u);
  EXPECT_EQ(s.hits, 1u);
  EXPECT_EQ(s.misses, 1u);
  EXPECT_EQ(s.fills, 1u);
  EXPECT_EQ(s.mshr_merges, 0u);
  EXPECT_EQ(b.gen.protocol_errors(), 0u);
  EXPECT_EQ(b.mem.protocol_errors(), 0u);
  EXPECT_EQ(b.gen.pool().outstanding(), 0u);
  EXPECT_EQ(sc_core::sc_time_stamp(), ns(210));  // nothing runs after the last response
}

TEST(L2Reads, HitAfterMissQueuedMemory) {
  testing::in_child_process([] { hit_after_miss(TargetStyle::Queued); });
}
TEST(L2Reads, HitAfterMissMemoryCompletesEarly) {
  testing::in_child_process([] { hit_after_miss(TargetStyle::CompleteEarly); });
}
TEST(L2Reads, HitAfterMissMemoryRespondsOnReturnPath) {
  testing::in_child_process([] { hit_after_miss(TargetStyle::RespondEarly); });
}
TEST(L2Reads, HitAfterMissBlockingOnlyMemory) {
  testing::in_child_process([] { hit_after_miss(TargetStyle::BlockingOnly); });
}

// Requests whose BEGIN_REQ carries a 5 ns annotation arrive 5 ns late: END_REQ
// comes on the backward path at 5 and 205, responses at 115 and 215.
TEST(L2Reads, AnnotatedRequestDelayIsHonoured) {
  testing::in_child_process([] {
    testing::TrafficGenerator gen("gen", {rd(0, 0x1000), rd(200, 0x1004)});
    l2_test::Interposer delay("delay");
    delay.request_delay = ns(5);
    L2Slice l2("l2", small_l2());
    testing::MemoryTarget mem("mem", testing::TestMemory(0, 0x10000), ns(100));
    gen.socket.bind(delay.in);
    delay.out.bind(l2.in);
    l2.out.bind(mem.socket);
    sc_core::sc_start();
    ASSERT_EQ(gen.completed(), 2u);
    EXPECT_EQ(gen.result(0).accepted, ns(5));
    EXPECT_EQ(gen.result(0).responded, ns(115));
    EXPECT_EQ(gen.result(1).accepted, ns(205));
    EXPECT_EQ(gen.result(1).responded, ns(215));
    EXPECT_EQ(gen.protocol_errors(), 0u);
  });
}

// Four reads of one line at 0..3 ns: one line read to memory; the three later
// misses wait on its MSHR and all four answer at 100 + 10.
TEST(L2Reads, ConcurrentMissesToOneLineMergeIntoOneFill) {
  testing::in_child_process([] {
    Bench b({rd(0, 0x1000), rd(1, 0x1008), rd(2, 0x1010), rd(3, 0x1030)}, small_l2());
    b.gen.style = testing::ResponseStyle::Update;
    sc_core::sc_start();
    ASSERT_EQ(b.gen.completed(), 4u);
    for (size_t i = 0; i < 4; ++i) EXPECT_EQ(b.gen.result(i).responded, ns(110)) << i;
    EXPECT_EQ(b.arrivals(), (std::vector<std::string>{"R@0:0x1000"}));
    EXPECT_EQ(b.l2.stats().misses, 4u);
    EXPECT_EQ(b.l2.stats().mshr_merges, 3u);
    EXPECT_EQ(b.l2.stats().fills, 1u);
    EXPECT_EQ(b.gen.protocol_errors(), 0u);
  });
}

// Three hits sent back to back at 200: the slice looks up one per cycle, so
// their END_REQs come at 200, 201, 202 and their responses 10 cycles later.
TEST(L2Reads, OneLookupPerCycle) {
  testing::in_child_process([] {
    Bench b({rd(0, 0x1000), rd(200, 0x1000), rd(200, 0x1004), rd(200, 0x1008)}, small_l2());
    sc_core::sc_start();
    ASSERT_EQ(b.gen.completed(), 4u);
    for (size_t i = 1; i < 4; ++i) {
      EXPECT_EQ(b.gen.result(i).accepted, ns(199 + i)) << i;
      EXPECT_EQ(b.gen.result(i).responded, ns(209 + i)) << i;
    }
    EXPECT_EQ(b.l2.stats().hits, 3u);
  });
}

// Two MSHRs. Misses to 0x1000 (looked up at 0) and 0x2000 (at 1) take both;
// the miss to 0x3000 (sent at 1) finds none and is held without END_REQ until
// 0x1000's fill frees one at 100; its own fill then returns at 200 (answer
// 210). The read behind it waits at the generator: sent at 100, looked up at
// 101 (one lookup per cycle), a hit on the newly filled 0x1000: answer 111.
TEST(L2Reads, FullMshrsHoldEndReq) {
  testing::in_child_process([] {
    Bench b({rd(0, 0x1000), rd(0, 0x2000), rd(0, 0x3000), rd(0, 0x1004)}, small_l2());
    sc_core::sc_start();
    ASSERT_EQ(b.gen.completed(), 4u);
    EXPECT_EQ(b.gen.result(0).accepted, ns(0));
    EXPECT_EQ(b.gen.result(1).accepted, ns(1));
    EXPECT_EQ(b.gen.result(2).accepted, ns(100));
    EXPECT_EQ(b.gen.result(3).accepted, ns(101));
    EXPECT_EQ(b.gen.result(0).responded, ns(110));
    EXPECT_EQ(b.gen.result(1).responded, ns(111));
    EXPECT_EQ(b.gen.result(2).responded, ns(210));
    EXPECT_EQ(b.gen.result(3).responded, ns(111));
    EXPECT_EQ(b.arrivals(), (std::vector<std::string>{"R@0:0x1000", "R@1:0x2000", "R@100:0x3000"}));
    EXPECT_EQ(b.l2.stats().stalls, 1u);
    EXPECT_EQ(b.l2.stats().hits, 1u);
    EXPECT_EQ(b.gen.protocol_errors(), 0u);
  });
}

}  // namespace
}  // namespace warptlm
