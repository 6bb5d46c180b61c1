// Interconnect: routing by address to the right L2 slice and back to the right SM, exact latency,
// one request per cycle per output and one response per cycle per input, every legal answer of a
// slice and of an SM, and error responses passed back unchanged. Cycle = 1 ns, latency = 4 cycles,
// slices answer 10 ns after a request arrives, so an uncontended request takes 4 + 10 + 4 = 18 ns.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "common/tlm_testbench.h"
#include "interconnect/interconnect.h"

namespace warptlm {
namespace {

using sc_core::sc_time;
using testing::in_child_process;
using testing::MemoryTarget;
using testing::ResponseStyle;
using testing::TargetStyle;
using testing::TestMemory;
using testing::TrafficGenerator;
using testing::TrafficRequest;
constexpr auto R = tlm::TLM_READ_COMMAND;

sc_time ns(double v) { return sc_time(v, sc_core::SC_NS); }

InterconnectParams params(unsigned inputs, unsigned outputs) {
  InterconnectParams p;
  p.inputs = inputs;
  p.outputs = outputs;
  p.line = 64;
  p.latency = 4;
  p.cycle = ns(1);
  return p;
}

TEST(Interconnect, InterleavesLinesAcrossOutputs) {
  EXPECT_EQ(Interconnect::output_of(0x0, 64, 4), 0u);
  EXPECT_EQ(Interconnect::output_of(0x3f, 64, 4), 0u);
  EXPECT_EQ(Interconnect::output_of(0x40, 64, 4), 1u);
  EXPECT_EQ(Interconnect::output_of(0x10c0, 64, 4), 3u);   // line 67, 67 % 4 = 3
  EXPECT_EQ(Interconnect::output_of(0x10c0, 64, 3), 1u);   // 67 % 3 = 1
  EXPECT_EQ(Interconnect::output_of(0x10c0, 128, 3), 0u);  // line 33, 33 % 3 = 0
}

TEST(Interconnect, RejectsBadParametersByName) {
  auto message = [](InterconnectParams p) {
    try {
      p.validate();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  InterconnectParams p = params(1, 1);
  EXPECT_EQ(message(p), "accepted");
  p.inputs = 0;
  EXPECT_NE(message(p).find("inputs"), std::string::npos);
  p = params(1, 1);
  p.outputs = 0;
  EXPECT_NE(message(p).find("outputs"), std::string::npos);
  p = params(1, 1);
  p.line = 0;
  EXPECT_NE(message(p).find("line"), std::string::npos);
  p = params(1, 1);
  p.cycle = sc_core::SC_ZERO_TIME;
  EXPECT_NE(message(p).find("cycle"), std::string::npos);
}

// Two SMs, two slices (even lines to slice 0, odd lines to slice 1), no contention:
//   sm0: 0x000 at 0 (slice 0), 0x040 at 10 (slice 1); sm1: 0x0c0 at 5 (slice 1), 0x100 at 15
//   (slice 0). Each reaches its slice 4 ns after it is sent and is answered at send + 18 ns.
TEST(Interconnect, RoutesByAddressAndBackToTheSender) {
  in_child_process([] {
    TrafficGenerator sm0("sm0", {{ns(0), R, 0x000, 4, {}}, {ns(10), R, 0x040, 4, {}}}, 64, 0);
    TrafficGenerator sm1("sm1", {{ns(5), R, 0x0c0, 4, {}}, {ns(15), R, 0x100, 4, {}}}, 64, 1);
    Interconnect ic("ic", params(2, 2));
    MemoryTarget slice0("slice0", TestMemory(0, 0x1000), ns(10));
    MemoryTarget slice1("slice1", TestMemory(0, 0x1000), ns(10));
    const uint8_t a[4] = {0xa0, 0xa1, 0xa2, 0xa3}, b[4] = {0xb0, 0xb1, 0xb2, 0xb3};
    slice0.memory.write(0x000, a, 4);
    slice1.memory.write(0x0c0, b, 4);
    sm0.socket.bind(ic.in);
    sm1.socket.bind(ic.in);
    ic.out.bind(slice0.socket);
    ic.out.bind(slice1.socket);
    sc_core::sc_start();

    ASSERT_EQ(sm0.completed(), 2u);
    ASSERT_EQ(sm1.completed(), 2u);
    EXPECT_EQ(sm0.result(0).responded, ns(18));
    EXPECT_EQ(sm0.result(1).responded, ns(28));
    EXPECT_EQ(sm1.result(0).responded, ns(23));
    EXPECT_EQ(sm1.result(1).responded, ns(33));
    EXPECT_EQ(sm0.result(0).accepted, ns(0));  // the interconnect takes requests at once
    EXPECT_EQ(sm0.result(0).data, std::vector<uint8_t>(a, a + 4));
    EXPECT_EQ(sm1.result(0).data, std::vector<uint8_t>(b, b + 4));
    // Arrival time, address and sender at each slice.
    ASSERT_EQ(slice0.arrivals.size(), 2u);
    ASSERT_EQ(slice1.arrivals.size(), 2u);
    EXPECT_EQ(slice0.arrivals[0].time, ns(4));
    EXPECT_EQ(slice0.arrivals[0].address, 0x000u);
    EXPECT_EQ(slice0.arrivals[0].sm, 0u);
    EXPECT_EQ(slice0.arrivals[1].time, ns(19));
    EXPECT_EQ(slice0.arrivals[1].address, 0x100u);
    EXPECT_EQ(slice0.arrivals[1].sm, 1u);
    EXPECT_EQ(slice1.arrivals[0].time, ns(9));
    EXPECT_EQ(slice1.arrivals[0].address, 0x0c0u);
    EXPECT_EQ(slice1.arrivals[1].time, ns(14));
    EXPECT_EQ(slice1.arrivals[1].address, 0x040u);

    const InterconnectStats& s = ic.stats();
    EXPECT_EQ(s.requests, 4u);
    EXPECT_EQ(s.reads, 4u);
    EXPECT_EQ(s.responses, 4u);
    EXPECT_EQ(s.output_requests, (std::vector<uint64_t>{2, 2}));
    EXPECT_EQ(s.input_requests, (std::vector<uint64_t>{2, 2}));
    EXPECT_EQ(s.request_stall_cycles, 0u);
    EXPECT_EQ(s.response_stall_cycles, 0u);
    EXPECT_EQ(s.to_json()["output_requests"], nlohmann::json({2, 2}));
    EXPECT_EQ(sm0.pool().outstanding() + sm1.pool().outstanding(), 0u);
  });
}

// Three SMs send to slice 0 at time 0: all are ready at the output at 4 ns, which takes one per
// cycle (4, 5, 6), so the answers come at 18, 19, 20 and the requests waited 0 + 1 + 2 cycles.
TEST(Interconnect, OneRequestPerCyclePerOutput) {
  in_child_process([] {
    TrafficGenerator sm0("sm0", {{ns(0), R, 0x000, 4, {}}}, 64, 0);
    TrafficGenerator sm1("sm1", {{ns(0), R, 0x080, 4, {}}}, 64, 1);
    TrafficGenerator sm2("sm2", {{ns(0), R, 0x100, 4, {}}}, 64, 2);
    Interconnect ic("ic", params(3, 2));
    MemoryTarget slice0("slice0", TestMemory(0, 0x1000), ns(10));
    MemoryTarget slice1("slice1", TestMemory(0, 0x1000), ns(10));
    for (TrafficGenerator* g : {&sm0, &sm1, &sm2}) g->socket.bind(ic.in);
    ic.out.bind(slice0.socket);
    ic.out.bind(slice1.socket);
    sc_core::sc_start();

    std::vector<sc_time> arrived, answered;
    for (const auto& a : slice0.arrivals) arrived.push_back(a.time);
    for (TrafficGenerator* g : {&sm0, &sm1, &sm2}) answered.push_back(g->result(0).responded);
    std::sort(answered.begin(), answered.end());
    EXPECT_EQ(arrived, (std::vector<sc_time>{ns(4), ns(5), ns(6)}));
    EXPECT_EQ(answered, (std::vector<sc_time>{ns(18), ns(19), ns(20)}));
    EXPECT_TRUE(slice1.arrivals.empty());
    EXPECT_EQ(ic.stats().request_stall_cycles, 3u);
    EXPECT_EQ(ic.stats().response_stall_cycles, 0u);
  });
}

// One SM reads from three slices at time 0: the slices all answer at 14, the responses are ready
// at the SM's input at 18 and leave one per cycle: 18, 19, 20 (0 + 1 + 2 stall cycles).
TEST(Interconnect, OneResponsePerCyclePerInput) {
  in_child_process([] {
    TrafficGenerator sm(
        "sm", {{ns(0), R, 0x000, 4, {}}, {ns(0), R, 0x040, 4, {}}, {ns(0), R, 0x080, 4, {}}});
    Interconnect ic("ic", params(1, 3));
    MemoryTarget s0("s0", TestMemory(0, 0x1000), ns(10));
    MemoryTarget s1("s1", TestMemory(0, 0x1000), ns(10));
    MemoryTarget s2("s2", TestMemory(0, 0x1000), ns(10));
    sm.socket.bind(ic.in);
    for (MemoryTarget* s : {&s0, &s1, &s2}) ic.out.bind(s->socket);
    sc_core::sc_start();

    EXPECT_EQ(s0.arrivals.at(0).time, ns(4));
    EXPECT_EQ(s1.arrivals.at(0).time, ns(4));
    EXPECT_EQ(s2.arrivals.at(0).time, ns(4));
    EXPECT_EQ(sm.result(0).responded, ns(18));
    EXPECT_EQ(sm.result(1).responded, ns(19));
    EXPECT_EQ(sm.result(2).responded, ns(20));
    EXPECT_EQ(ic.stats().response_stall_cycles, 3u);
    EXPECT_EQ(ic.stats().request_stall_cycles, 0u);
  });
}

// A slice that takes 3 ns to accept each request (END_REQ on the backward path): two requests
// ready at 4 leave at 4 and 7 (after END_REQ), are answered at 14 and 17, delivered at 18 and 21.
TEST(Interconnect, WaitsForTheSliceToAcceptEachRequest) {
  in_child_process([] {
    TrafficGenerator sm("sm", {{ns(0), R, 0x000, 4, {}}, {ns(0), R, 0x080, 4, {}}});
    Interconnect ic("ic", params(1, 2));
    MemoryTarget s0("s0", TestMemory(0, 0x1000), ns(10));
    MemoryTarget s1("s1", TestMemory(0, 0x1000), ns(10));
    s0.accept_delay = ns(3);
    sm.socket.bind(ic.in);
    ic.out.bind(s0.socket);
    ic.out.bind(s1.socket);
    sc_core::sc_start();

    ASSERT_EQ(s0.arrivals.size(), 2u);
    EXPECT_EQ(s0.arrivals[1].time, ns(7));
    EXPECT_EQ(sm.result(0).responded, ns(18));
    EXPECT_EQ(sm.result(1).responded, ns(21));
    EXPECT_EQ(ic.stats().request_stall_cycles, 3u);
    EXPECT_EQ(s0.protocol_errors(), 0u);
  });
}

struct Styles {
  TargetStyle slice;
  ResponseStyle sm;
  double responded[3];
};

// One SM sends three reads to slice 0 at time 0, the third outside the slice's memory; every
// way a slice and an SM may answer. Derivations:
//   Queued slice: the output sends at 4, 5, 6; answers at 14, 15, 16; delivered 18, 19, 20.
//   SM holding each response 3 ns (TLM_ACCEPTED, END_RESP later): 18, 21, 24.
//   Early completion, response on the return path, and the b_transport-only slice behind
//   simple_target_socket's adapter all finish a request's phases only with its response (10 ns),
//   so the output sends at 4, 14, 24: delivered 18, 28, 38.
class InterconnectProtocol : public ::testing::TestWithParam<Styles> {};

TEST_P(InterconnectProtocol, HandlesEveryLegalAnswerAndPassesErrorsBack) {
  const Styles st = GetParam();
  in_child_process([&] {
    TrafficGenerator sm(
        "sm", {{ns(0), R, 0x000, 4, {}}, {ns(0), R, 0x080, 4, {}}, {ns(0), R, 0x2000, 4, {}}});
    sm.style = st.sm;
    sm.end_resp_delay = ns(3);
    Interconnect ic("ic", params(1, 2));
    MemoryTarget s0("s0", TestMemory(0, 0x1000), ns(10), st.slice);
    MemoryTarget s1("s1", TestMemory(0, 0x1000), ns(10));
    sm.socket.bind(ic.in);
    ic.out.bind(s0.socket);
    ic.out.bind(s1.socket);
    sc_core::sc_start();

    ASSERT_EQ(sm.completed(), 3u);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(sm.result(i).responded, ns(st.responded[i])) << i;
    EXPECT_EQ(sm.result(0).status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(sm.result(1).status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(sm.result(2).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(ic.stats().error_responses, 1u);
    EXPECT_EQ(sm.protocol_errors(), 0u);
    EXPECT_EQ(s0.protocol_errors(), 0u);
    EXPECT_EQ(sm.pool().outstanding(), 0u);
  });
}

INSTANTIATE_TEST_SUITE_P(
    Styles, InterconnectProtocol,
    ::testing::Values(Styles{TargetStyle::Queued, ResponseStyle::Complete, {18, 19, 20}},
                      Styles{TargetStyle::Queued, ResponseStyle::Update, {18, 19, 20}},
                      Styles{TargetStyle::Queued, ResponseStyle::Accept, {18, 21, 24}},
                      Styles{TargetStyle::CompleteEarly, ResponseStyle::Complete, {18, 28, 38}},
                      Styles{TargetStyle::RespondEarly, ResponseStyle::Complete, {18, 28, 38}},
                      Styles{TargetStyle::BlockingOnly, ResponseStyle::Complete, {18, 28, 38}}));

// Debug and blocking transport route like the timed path; b_transport adds the latency both ways.
TEST(Interconnect, DebugAndBlockingTransportRouteByAddress) {
  in_child_process([] {
    TrafficGenerator sm("sm", {});
    Interconnect ic("ic", params(1, 2));
    MemoryTarget s0("s0", TestMemory(0, 0x1000), ns(10));
    MemoryTarget s1("s1", TestMemory(0, 0x1000), ns(10));
    sm.socket.bind(ic.in);
    ic.out.bind(s0.socket);
    ic.out.bind(s1.socket);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // finish elaboration

    uint8_t data[4] = {1, 2, 3, 4};
    tlm::tlm_generic_payload p;
    p.set_command(tlm::TLM_WRITE_COMMAND);
    p.set_address(0x44);  // line 1: slice 1
    p.set_data_ptr(data);
    p.set_data_length(4);
    p.set_streaming_width(4);
    EXPECT_EQ(sm.socket->transport_dbg(p), 4u);
    uint8_t got[4] = {};
    EXPECT_TRUE(s1.memory.read(0x44, got, 4));
    EXPECT_EQ(got[3], 4);
    EXPECT_TRUE(s0.memory.read(0x44, got, 4));
    EXPECT_EQ(got[3], 0);  // slice 0 untouched

    p.set_address(0x80);  // line 2: slice 0
    sc_time delay = sc_core::SC_ZERO_TIME;
    sm.socket->b_transport(p, delay);
    EXPECT_EQ(delay, ns(18));
    EXPECT_EQ(p.get_response_status(), tlm::TLM_OK_RESPONSE);
    ASSERT_EQ(s0.arrivals.size(), 1u);
    EXPECT_EQ(s0.arrivals[0].address, 0x80u);
  });
}

}  // namespace
}  // namespace warptlm
