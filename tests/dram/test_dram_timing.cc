// DRAM model timing over the approximately-timed protocol: row-buffer
// outcomes, FR-FCFS against FCFS, channel interleaving, queue back-pressure.
// Figures are derived in dram_test_util.h and at each test.
#include <gtest/gtest.h>

#include "common/tlm_testbench.h"
#include "dram/dram_model.h"
#include "dram_test_util.h"

namespace warptlm {
namespace {

using dram_test::kLine;
using dram_test::small_dram;
using testing::TrafficGenerator;
using testing::TrafficRequest;

sc_core::sc_time ns(double v) { return sc_core::sc_time(v, sc_core::SC_NS); }

TrafficRequest read_at(double t_ns, uint64_t addr) {
  return TrafficRequest{ns(t_ns), tlm::TLM_READ_COMMAND, addr, kLine, {}};
}

TEST(DramTiming, RowHitMissAndConflictLatencies) {
  testing::in_child_process([] {
    DeviceMemory store;
    uint64_t b = dram_test::fill_store(store);
    DramModel dram("dram", small_dram(), kLine, store);
    // Far apart, so each meets an idle channel: closed row (16), then a hit in
    // the row it opened (11), then another row of the same bank (23).
    TrafficGenerator gen("gen", {read_at(0, b), read_at(100, b + 128), read_at(200, b + 1024)});
    gen.socket.bind(dram.in);
    sc_core::sc_start();
    ASSERT_EQ(gen.completed(), 3u);
    EXPECT_EQ(gen.result(0).responded, ns(16));
    EXPECT_EQ(gen.result(1).responded, ns(111));
    EXPECT_EQ(gen.result(2).responded, ns(223));
    for (size_t i = 0; i < 3; ++i) EXPECT_EQ(gen.result(i).status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(gen.result(1).data, dram_test::pattern(128, kLine));
    EXPECT_EQ(gen.result(2).data, dram_test::pattern(1024, kLine));
    const DramStats& s = dram.stats();
    EXPECT_EQ(s.reads, 3u);
    EXPECT_EQ(s.row_misses, 1u);
    EXPECT_EQ(s.row_hits, 1u);
    EXPECT_EQ(s.row_conflicts, 1u);
    EXPECT_EQ(s.bytes, 192u);
    EXPECT_EQ(s.busy_cycles, 24u);
    EXPECT_EQ(s.latency_cycles, 16u + 11u + 23u);
    EXPECT_EQ(s.channels[0].reads, 3u);
    EXPECT_EQ(s.channels[1].reads, 0u);
    EXPECT_EQ(gen.protocol_errors(), 0u);
    EXPECT_EQ(gen.pool().outstanding(), 0u);
    EXPECT_EQ(sc_core::sc_time_stamp(), ns(223));  // nothing runs after the last response
  });
}

// R0 (t=0) opens bank 0's row A; R1 (t=1, row B of bank 0) and R2 (t=2, row A)
// queue behind it. R0: activate 0, column 5, data 8..16; bank free at 5+8 = 13.
// FR-FCFS at 13 takes the younger row hit R2: column 13, data max(16, bus 16)
// .. 24, bank free at 21; then R1 at 21: precharge, activate, column 33, data
// 36..44. FCFS at 13 takes R1: column 25, data 28..36, bank free 33; then R2,
// now a conflict too: column 45, data 48..56.
void reorder_case(const std::string& scheduler, double r1_done, double r2_done, uint64_t row_hits,
                  uint64_t row_conflicts) {
  DeviceMemory store;
  uint64_t b = dram_test::fill_store(store);
  DramModel dram("dram", small_dram(scheduler), kLine, store);
  TrafficGenerator gen("gen", {read_at(0, b), read_at(1, b + 1024), read_at(2, b + 128)});
  gen.socket.bind(dram.in);
  sc_core::sc_start();
  ASSERT_EQ(gen.completed(), 3u);
  EXPECT_EQ(gen.result(0).responded, ns(16));
  EXPECT_EQ(gen.result(1).responded, ns(r1_done));
  EXPECT_EQ(gen.result(2).responded, ns(r2_done));
  EXPECT_EQ(dram.stats().row_misses, 1u);
  EXPECT_EQ(dram.stats().row_hits, row_hits);
  EXPECT_EQ(dram.stats().row_conflicts, row_conflicts);
  EXPECT_EQ(gen.protocol_errors(), 0u);
}

TEST(DramTiming, FrFcfsServesAYoungerRowHitBeforeAnOlderConflict) {
  testing::in_child_process([] { reorder_case("frfcfs", 44, 24, 1, 1); });
}

TEST(DramTiming, FcfsKeepsArrivalOrder) {
  testing::in_child_process([] { reorder_case("fcfs", 36, 56, 0, 2); });
}

// Two reads at t=0 to closed rows. On different channels they proceed in
// parallel: both done at 16. On one channel (banks 0 and 1) the second starts
// a cycle later (column 6) but its data waits for the bus: 16..24.
TEST(DramTiming, ChannelsWorkInParallelBanksShareTheBus) {
  testing::in_child_process([] {
    DeviceMemory store;
    uint64_t b = dram_test::fill_store(store);
    DramModel dram("dram", small_dram(), kLine, store);
    TrafficGenerator two_channels("two_channels", {read_at(0, b), read_at(0, b + 64)});
    two_channels.socket.bind(dram.in);
    sc_core::sc_start();
    EXPECT_EQ(two_channels.result(0).responded, ns(16));
    EXPECT_EQ(two_channels.result(1).responded, ns(16));
    EXPECT_EQ(two_channels.result(1).data, dram_test::pattern(64, kLine));
    EXPECT_EQ(dram.stats().channels[0].reads, 1u);
    EXPECT_EQ(dram.stats().channels[1].reads, 1u);
  });
  testing::in_child_process([] {
    DeviceMemory store;
    uint64_t b = dram_test::fill_store(store);
    DramModel dram("dram", small_dram(), kLine, store);
    TrafficGenerator one_channel("one_channel", {read_at(0, b), read_at(0, b + 512)});
    one_channel.socket.bind(dram.in);
    sc_core::sc_start();
    EXPECT_EQ(one_channel.result(0).responded, ns(16));
    EXPECT_EQ(one_channel.result(1).responded, ns(24));
    EXPECT_EQ(dram.stats().channels[0].reads, 2u);
    EXPECT_EQ(dram.stats().channels[0].row_misses, 2u);
    EXPECT_EQ(dram.stats().channels[1].reads, 0u);
  });
}

TEST(DramTiming, ConsecutiveLinesAlternateChannels) {
  testing::in_child_process([] {
    DeviceMemory store;
    uint64_t b = dram_test::fill_store(store);
    DramModel dram("dram", small_dram(), kLine, store);
    std::vector<TrafficRequest> reqs;
    for (unsigned i = 0; i < 8; ++i) reqs.push_back(read_at(0, b + i * kLine));
    TrafficGenerator gen("gen", reqs);
    gen.socket.bind(dram.in);
    sc_core::sc_start();
    ASSERT_EQ(gen.completed(), 8u);
    // Lines 0..7 -> channels 0,1,0,1,...; each channel's four lines share one
    // row of bank 0: one activate, then three hits.
    for (unsigned c = 0; c < 2; ++c) {
      EXPECT_EQ(dram.stats().channels[c].reads, 4u);
      EXPECT_EQ(dram.stats().channels[c].row_misses, 1u);
      EXPECT_EQ(dram.stats().channels[c].row_hits, 3u);
      EXPECT_EQ(dram.stats().channels[c].busy_cycles, 32u);
    }
    // Per channel the bus streams from cycle 8: the fourth line ends at 8 + 4*8.
    EXPECT_EQ(gen.result(6).responded, ns(40));
    EXPECT_EQ(gen.result(7).responded, ns(40));
  });
}

// Queue depth 2, four reads at t=0 to one row of channel 0, bank 0. R0 and R1
// queue; R2 waits at the socket until R0 starts (cycle 0, same time); R3 then
// waits until R1 starts. R0: column 5, data 8..16, bank free 13. R1 (hit) starts
// at 13: data 16..24, bank free 21 -> R3 accepted at 13. R2 at 21: data
// 24..32; R3 at 29: data 32..40.
TEST(DramTiming, FullQueueHoldsEndReq) {
  testing::in_child_process([] {
    DeviceMemory store;
    uint64_t b = dram_test::fill_store(store);
    DramModel dram("dram", small_dram(), kLine, store, 2);
    TrafficGenerator gen(
        "gen", {read_at(0, b), read_at(0, b + 128), read_at(0, b + 256), read_at(0, b + 384)});
    gen.socket.bind(dram.in);
    sc_core::sc_start();
    ASSERT_EQ(gen.completed(), 4u);
    EXPECT_EQ(gen.result(2).accepted, ns(0));
    EXPECT_EQ(gen.result(3).accepted, ns(13));
    EXPECT_EQ(gen.result(0).responded, ns(16));
    EXPECT_EQ(gen.result(1).responded, ns(24));
    EXPECT_EQ(gen.result(2).responded, ns(32));
    EXPECT_EQ(gen.result(3).responded, ns(40));
    EXPECT_EQ(dram.stats().queue_full, 2u);
    EXPECT_EQ(gen.result(3).data, dram_test::pattern(384, kLine));
    EXPECT_EQ(gen.protocol_errors(), 0u);
  });
}

// The initiator holds each response for 5.5 ns (END_RESP late): the second
// response, due at 16 on the other channel, leaves when the first is ended,
// between two memory clock edges.
TEST(DramTiming, ResponsesWaitForEndResp) {
  testing::in_child_process([] {
    DeviceMemory store;
    uint64_t b = dram_test::fill_store(store);
    DramModel dram("dram", small_dram(), kLine, store);
    TrafficGenerator gen("gen", {read_at(0, b), read_at(0, b + 64)});
    gen.style = testing::ResponseStyle::Accept;
    gen.end_resp_delay = ns(5.5);
    gen.socket.bind(dram.in);
    sc_core::sc_start();
    ASSERT_EQ(gen.completed(), 2u);
    EXPECT_EQ(gen.result(0).responded, ns(16));
    EXPECT_EQ(gen.result(1).responded, ns(21.5));
    EXPECT_EQ(gen.protocol_errors(), 0u);
    EXPECT_EQ(gen.pool().outstanding(), 0u);
  });
}

// A response is never sent before its edge: R0's END_RESP at 16.5 wakes the
// model between edges, while R1 (other channel, arrived at 1) is due at 17.
TEST(DramTiming, AWakeBetweenEdgesSendsOnlyDueResponses) {
  testing::in_child_process([] {
    DeviceMemory store;
    uint64_t b = dram_test::fill_store(store);
    DramModel dram("dram", small_dram(), kLine, store);
    TrafficGenerator gen("gen", {read_at(0, b), read_at(1, b + 64)});
    gen.style = testing::ResponseStyle::Accept;
    gen.end_resp_delay = ns(0.5);
    gen.socket.bind(dram.in);
    sc_core::sc_start();
    ASSERT_EQ(gen.completed(), 2u);
    EXPECT_EQ(gen.result(0).responded, ns(16));
    EXPECT_EQ(gen.result(1).responded, ns(17));
    EXPECT_EQ(gen.protocol_errors(), 0u);
  });
}

// Commands issue on memory clock edges: a request arriving at 0.5 ns starts at
// the edge at 1 ns and, on a closed row, is done 16 cycles later, at 17 ns.
TEST(DramTiming, RequestsBetweenEdgesStartAtTheNextEdge) {
  testing::in_child_process([] {
    DeviceMemory store;
    uint64_t b = dram_test::fill_store(store);
    DramModel dram("dram", small_dram(), kLine, store);
    TrafficGenerator gen("gen", {read_at(0.5, b)});
    gen.socket.bind(dram.in);
    sc_core::sc_start();
    ASSERT_EQ(gen.completed(), 1u);
    EXPECT_EQ(gen.result(0).accepted, ns(0.5));
    EXPECT_EQ(gen.result(0).responded, ns(17));
    EXPECT_EQ(dram.stats().latency_cycles, 16u);
  });
}

}  // namespace
}  // namespace warptlm
