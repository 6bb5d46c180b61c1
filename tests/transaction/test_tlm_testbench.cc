// The shared TLM test bench (tests/common/tlm_testbench.h) checked against itself: the traffic
// generator talks to the memory target in every answering style with exact, hand-derived times,
// so the interconnect, L2 and DRAM tests can rely on both ends.
#include <gtest/gtest.h>

#include "common/tlm_testbench.h"

namespace warptlm::testing {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

sc_time ns(double v) { return sc_time(v, SC_NS); }

// Three requests on a 10 ns memory at [0x100, 0x200): a read, a write of 1,2,3,4 at 0x104, a read
// of what was written (sent at 2 ns), and a read crossing the end of the memory.
std::vector<TrafficRequest> script() {
  return {{ns(0), tlm::TLM_READ_COMMAND, 0x100, 4, {}},
          {ns(0), tlm::TLM_WRITE_COMMAND, 0x104, 4, {1, 2, 3, 4}},
          {ns(2), tlm::TLM_READ_COMMAND, 0x104, 4, {}},
          {ns(2), tlm::TLM_READ_COMMAND, 0x1fe, 4, {}}};
}

struct Expected {
  double responded[4];
};

void run(TargetStyle target_style, ResponseStyle response_style, const Expected& want) {
  in_child_process([&] {
    TrafficGenerator gen("gen", script());
    gen.style = response_style;
    gen.end_resp_delay = ns(3);
    MemoryTarget mem("mem", TestMemory(0x100, 0x100), ns(10), target_style);
    gen.socket.bind(mem.socket);
    sc_core::sc_start();
    ASSERT_EQ(gen.completed(), 4u);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(gen.result(i).responded, ns(want.responded[i])) << i;
    EXPECT_EQ(gen.result(0).status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(gen.result(1).status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(gen.result(2).data, (std::vector<uint8_t>{1, 2, 3, 4}));
    EXPECT_EQ(gen.result(3).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(gen.protocol_errors(), 0u);
    EXPECT_EQ(mem.protocol_errors(), 0u);
    EXPECT_EQ(gen.pool().outstanding(), 0u);  // every payload came back
    ASSERT_EQ(mem.arrivals.size(), 4u);
    EXPECT_EQ(mem.arrivals[1].address, 0x104u);
    EXPECT_EQ(mem.arrivals[1].tag, 1u);
  });
}

// Queued: END_REQ at once, so all four requests are in by 2 ns; responses at arrival + 10 ns,
// one at a time: 10, 10 (same time, next delta), 12, 12.
TEST(TlmTestBench, QueuedTargetCompletingGenerator) {
  run(TargetStyle::Queued, ResponseStyle::Complete, {{10, 10, 12, 12}});
}
TEST(TlmTestBench, QueuedTargetUpdatingGenerator) {
  run(TargetStyle::Queued, ResponseStyle::Update, {{10, 10, 12, 12}});
}
// The generator holds each response 3 ns before END_RESP, and the target sends no BEGIN_RESP
// while one is open: 10, then 13, then 16, then 19.
TEST(TlmTestBench, QueuedTargetBackPressuredResponses) {
  run(TargetStyle::Queued, ResponseStyle::Accept, {{10, 13, 16, 19}});
}
// Early completion annotated with 10 ns ends the request phase 10 ns later too, so requests go
// one after another: sent 0 -> 10, sent 10 -> 20, sent 20 -> 30, sent 30 -> 40.
TEST(TlmTestBench, EarlyCompletion) {
  run(TargetStyle::CompleteEarly, ResponseStyle::Complete, {{10, 20, 30, 40}});
}
// A response on the return path: the same serialisation; END_RESP follows at once.
TEST(TlmTestBench, ResponseOnReturnPath) {
  run(TargetStyle::RespondEarly, ResponseStyle::Complete, {{10, 20, 30, 40}});
}
// Only b_transport: simple_target_socket's adapter answers BEGIN_REQ with TLM_ACCEPTED and never
// sends END_REQ, so each request waits for the previous response: 10, 20, 30, 40.
TEST(TlmTestBench, BlockingOnlyTargetBehindTheSocketAdapter) {
  run(TargetStyle::BlockingOnly, ResponseStyle::Complete, {{10, 20, 30, 40}});
}

// accept_delay delays END_REQ, so the second request of a back-to-back pair waits for it.
TEST(TlmTestBench, AcceptDelayThrottlesRequests) {
  in_child_process([] {
    TrafficGenerator gen("gen", {{ns(0), tlm::TLM_READ_COMMAND, 0x100, 4, {}},
                                 {ns(0), tlm::TLM_READ_COMMAND, 0x110, 4, {}}});
    MemoryTarget mem("mem", TestMemory(0x100, 0x100), ns(10));
    mem.accept_delay = ns(4);
    gen.socket.bind(mem.socket);
    sc_core::sc_start();
    ASSERT_EQ(gen.completed(), 2u);
    // Request 0: END_REQ at 4, response at 10. Request 1: sent at 4, response at 14.
    EXPECT_EQ(gen.result(0).accepted, ns(4));
    EXPECT_EQ(gen.result(1).sent, ns(4));
    EXPECT_EQ(gen.result(1).accepted, ns(8));
    EXPECT_EQ(gen.result(1).responded, ns(14));
    EXPECT_EQ(mem.protocol_errors(), 0u);
  });
}

}  // namespace
}  // namespace warptlm::testing
