// The DRAM model's data path and its other interfaces: the address map,
// payload/store transfers (range rule, byte enables), address errors over AT,
// b_transport's annotated delay, transport_dbg, and parameter checks.
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <functional>
#include <stdexcept>
#include <string>

#include "common/tlm_testbench.h"
#include "dram/dram_address_map.h"
#include "dram/dram_channel.h"
#include "dram/dram_model.h"
#include "dram/dram_store_access.h"
#include "dram_test_util.h"

namespace warptlm {
namespace {

using dram_test::kLine;
using dram_test::small_dram;

sc_core::sc_time ns(double v) { return sc_core::sc_time(v, sc_core::SC_NS); }

template <typename F>
void expect_invalid(F&& f, const std::string& word) {
  try {
    f();
    ADD_FAILURE() << "no std::invalid_argument naming " << word;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(word), std::string::npos) << e.what();
  }
}

void set_up(tlm::tlm_generic_payload& p, tlm::tlm_command cmd, uint64_t addr, uint8_t* data,
            unsigned len) {
  p.set_command(cmd);
  p.set_address(addr);
  p.set_data_ptr(data);
  p.set_data_length(len);
  p.set_streaming_width(len);
  p.set_byte_enable_ptr(nullptr);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

TEST(DramAddressMap, InterleavesLinesThenFillsRowsThenBanks) {
  DramConfig c = small_dram();
  c.channels = 3;  // not a power of two: the map divides
  DramAddressMap map(c, kLine);
  // Line k: channel k % 3, local k / 3, bank (local / 4) % 2, row local / 8.
  auto check = [&](uint64_t addr, unsigned ch, unsigned bank, uint64_t row) {
    DramAddress a = map.map(addr);
    EXPECT_EQ(a.channel, ch) << addr;
    EXPECT_EQ(a.bank, bank) << addr;
    EXPECT_EQ(a.row, row) << addr;
  };
  check(0, 0, 0, 0);
  check(13 * 64, 1, 1, 0);       // local 4
  check(13 * 64 + 63, 1, 1, 0);  // any byte of the line
  check(25 * 64, 1, 0, 1);       // local 8
  check(23 * 64, 2, 1, 0);       // local 7
}

TEST(DramAddressMap, RejectsBadGeometry) {
  DramConfig c = small_dram();
  expect_invalid([&] { DramAddressMap(c, 48); }, "line");
  c.row_size = 100;
  expect_invalid([&] { DramAddressMap(c, kLine); }, "row_size");
  c = small_dram();
  c.channels = 0;
  expect_invalid([&] { DramAddressMap(c, kLine); }, "channels");
  c = small_dram();
  c.banks = 0;
  expect_invalid([&] { DramAddressMap(c, kLine); }, "banks");
  DramTiming t{3, 5, 7, 8};
  expect_invalid([&] { DramChannel(2, 0, make_dram_scheduler("fcfs", 2), t); }, "queue_depth");
  t.bus_width = 0;
  expect_invalid([&] { DramChannel(2, 4, make_dram_scheduler("fcfs", 2), t); }, "bus_width");
}

TEST(DramStoreAccess, RoundsAllocationsUpToLinesAndHonoursByteEnables) {
  DeviceMemory store;
  uint64_t a = dram_test::fill_store(store);  // 4096 bytes at B
  uint64_t b = store.allocate(100, "b");      // at B + 4352 (4096 + a 256-byte gap)
  ASSERT_EQ(b, a + 4352);
  std::vector<uint8_t> data(kLine, 0xee);
  tlm::tlm_generic_payload p;
  // The second line of b: bytes 64..99 are b's, 100..127 read as zero.
  store.write(b + 64, dram_test::pattern(0, 36).data(), 36);
  set_up(p, tlm::TLM_READ_COMMAND, b + 64, data.data(), kLine);
  EXPECT_EQ(dram_transfer(store, kLine, p, false), tlm::TLM_OK_RESPONSE);
  std::vector<uint8_t> want = dram_test::pattern(0, 36);
  want.resize(kLine, 0);
  EXPECT_EQ(data, want);
  // A line past b's last line, and the gap after a, are out of range.
  set_up(p, tlm::TLM_READ_COMMAND, b + 128, data.data(), kLine);
  EXPECT_EQ(dram_transfer(store, kLine, p, false), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  set_up(p, tlm::TLM_READ_COMMAND, a + 4096, data.data(), kLine);
  EXPECT_EQ(dram_transfer(store, kLine, p, false), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  // Byte enables {on, off}: bytes 0 and 2 of a written, 1 and 3 kept.
  uint8_t four[4] = {1, 2, 3, 4};
  unsigned char be[2] = {TLM_BYTE_ENABLED, TLM_BYTE_DISABLED};
  set_up(p, tlm::TLM_WRITE_COMMAND, a, four, 4);
  p.set_byte_enable_ptr(be);
  p.set_byte_enable_length(2);
  EXPECT_EQ(dram_transfer(store, kLine, p, false), tlm::TLM_OK_RESPONSE);
  uint8_t back[4];
  store.read(a, back, 4);
  EXPECT_EQ(std::vector<uint8_t>(back, back + 4), (std::vector<uint8_t>{1, 1, 3, 3}));
  // A streaming width below the length is a burst error (not for debug).
  set_up(p, tlm::TLM_READ_COMMAND, a, four, 4);
  p.set_streaming_width(2);
  EXPECT_EQ(dram_transfer(store, kLine, p, false), tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(dram_transfer(store, kLine, p, true), tlm::TLM_OK_RESPONSE);
}

TEST(DramModel, OutOfRangeGetsAddressErrorAndTheRestIsServed) {
  testing::in_child_process([] {
    DeviceMemory store;
    uint64_t b = dram_test::fill_store(store);
    DramModel dram("dram", small_dram(), kLine, store);
    testing::TrafficGenerator gen(
        "gen", {{ns(0), tlm::TLM_READ_COMMAND, b + 4096 + 64, kLine, {}},
                {ns(0), tlm::TLM_WRITE_COMMAND, b + 64, 8, {9, 8, 7, 6, 5, 4, 3, 2}}});
    gen.socket.bind(dram.in);
    sc_core::sc_start();
    ASSERT_EQ(gen.completed(), 2u);
    // The error is answered at its arrival, without a DRAM access.
    EXPECT_EQ(gen.result(0).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(gen.result(0).responded, ns(0));
    // The write (channel 1, closed row, 8 bytes = 1 data cycle): 5 + 3 + 1.
    EXPECT_EQ(gen.result(1).status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(gen.result(1).responded, ns(9));
    uint8_t got[8];
    store.read(b + 64, got, 8);
    EXPECT_EQ(std::vector<uint8_t>(got, got + 8), (std::vector<uint8_t>{9, 8, 7, 6, 5, 4, 3, 2}));
    EXPECT_EQ(dram.stats().errors, 1u);
    EXPECT_EQ(dram.stats().writes, 1u);
    EXPECT_EQ(dram.stats().reads, 0u);
    EXPECT_EQ(gen.protocol_errors(), 0u);
  });
}

// Runs `body` in an SC_THREAD with an initiator socket bound to the DRAM.
struct LtInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<LtInitiator> socket;
  std::function<void(LtInitiator&)> body;
  bool ran = false;
  SC_HAS_PROCESS(LtInitiator);
  LtInitiator(sc_core::sc_module_name n, std::function<void(LtInitiator&)> b)
      : sc_module(n), socket("socket"), body(std::move(b)) {
    SC_THREAD(run);
  }
  void run() {
    body(*this);
    ran = true;
  }
};

TEST(DramModel, BTransportAnnotatesTheModelledDelay) {
  testing::in_child_process([] {
    DeviceMemory store;
    uint64_t b = dram_test::fill_store(store);
    DramModel dram("dram", small_dram(), kLine, store);
    LtInitiator lt("lt", [&](LtInitiator& self) {
      std::vector<uint8_t> data(kLine);
      tlm::tlm_generic_payload p;
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      // Closed row at 0: 16. Then, temporally decoupled at 16, a write hit in
      // that row (bank free at 5 + 8 = 13): column 16, data 19..27 -> 27. Then at
      // 27 another row of the bank (free at 16 + 8 = 24): 27 + 7 + 5 = column 39,
      // data 42..50 -> 50.
      set_up(p, tlm::TLM_READ_COMMAND, b, data.data(), kLine);
      self.socket->b_transport(p, delay);
      EXPECT_EQ(p.get_response_status(), tlm::TLM_OK_RESPONSE);
      EXPECT_EQ(delay, ns(16));
      EXPECT_EQ(data, dram_test::pattern(0, kLine));
      std::vector<uint8_t> ones(kLine, 1);
      set_up(p, tlm::TLM_WRITE_COMMAND, b + 128, ones.data(), kLine);
      self.socket->b_transport(p, delay);
      EXPECT_EQ(delay, ns(27));
      set_up(p, tlm::TLM_READ_COMMAND, b + 1024, data.data(), kLine);
      self.socket->b_transport(p, delay);
      EXPECT_EQ(delay, ns(50));
      // Out of range: an address error and no time.
      sc_core::sc_time before = delay;
      set_up(p, tlm::TLM_READ_COMMAND, b + 8192, data.data(), kLine);
      self.socket->b_transport(p, delay);
      EXPECT_EQ(p.get_response_status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);
      EXPECT_EQ(delay, before);
      // Debug transport sees the write and moves data without timing.
      set_up(p, tlm::TLM_READ_COMMAND, b + 128, data.data(), kLine);
      EXPECT_EQ(self.socket->transport_dbg(p), kLine);
      EXPECT_EQ(data, ones);
      uint8_t two[2] = {0xab, 0xcd};
      set_up(p, tlm::TLM_WRITE_COMMAND, b + 10, two, 2);
      EXPECT_EQ(self.socket->transport_dbg(p), 2u);
      set_up(p, tlm::TLM_READ_COMMAND, b + 8192, data.data(), kLine);
      EXPECT_EQ(self.socket->transport_dbg(p), 0u);
    });
    lt.socket.bind(dram.in);
    sc_core::sc_start();
    EXPECT_TRUE(lt.ran);
    uint8_t got[2];
    store.read(b + 10, got, 2);
    EXPECT_EQ(got[0], 0xab);
    EXPECT_EQ(got[1], 0xcd);
    const DramStats& s = dram.stats();
    EXPECT_EQ(s.reads, 2u);
    EXPECT_EQ(s.writes, 1u);
    EXPECT_EQ(s.row_misses, 1u);
    EXPECT_EQ(s.row_hits, 1u);
    EXPECT_EQ(s.row_conflicts, 1u);
    EXPECT_EQ(s.errors, 1u);
  });
}

TEST(DramModel, RejectsBadParameters) {
  testing::in_child_process([] {
    DeviceMemory store;
    DramConfig c = small_dram("lifo");
    expect_invalid([&] { DramModel("d1", c, kLine, store); }, "scheduler");
    c = small_dram();
    c.clock_mhz = 0;
    expect_invalid([&] { DramModel("d2", c, kLine, store); }, "clock_mhz");
    expect_invalid([&] { DramModel("d3", small_dram(), kLine, store, 0); }, "queue_depth");
  });
}

}  // namespace
}  // namespace warptlm

namespace warptlm {
namespace {

// A scheduler registered by a user drives the channel; a pick that is not a
// startable request is an error naming it.
class NewestFirst : public DramScheduler {
 public:
  const char* name() const override { return "test_newest_first"; }
  size_t pick(const std::vector<DramRequest>& queue, const std::vector<DramBankState>& banks,
              uint64_t now) override {
    for (size_t i = queue.size(); i-- > 0;)
      if (banks[queue[i].bank].ready <= now) return i;
    return queue.size();
  }
};

class AlwaysFirst : public DramScheduler {
 public:
  const char* name() const override { return "test_always_first"; }
  size_t pick(const std::vector<DramRequest>&, const std::vector<DramBankState>&,
              uint64_t) override {
    return 0;
  }
};

TEST(DramChannel, FollowsTheSchedulerItIsGiven) {
  const DramTiming t{3, 5, 7, 8};
  DramChannel ch(2, 4, std::make_unique<NewestFirst>(), t);
  DramRequest a, b;
  a.bank = 0;
  a.row = 1;
  a.bytes = 8;
  b = a;
  b.bank = 1;
  ch.push(a);
  ch.push(b);
  DramService s;
  ASSERT_EQ(ch.next_start(0), 0u);
  EXPECT_EQ(ch.start_next(0, &s).bank, 1u);  // the newer one first
  EXPECT_EQ(ch.start_next(ch.next_start(1), &s).bank, 0u);

  // Bank 0 busy after a start; a scheduler picking it anyway is caught.
  DramChannel bad(2, 4, std::make_unique<AlwaysFirst>(), t);
  bad.push(a);
  bad.push(a);
  bad.push(b);
  bad.start_next(0, &s);
  const uint64_t when = bad.next_start(1);  // bank 1 is free before bank 0
  try {
    bad.start_next(when, &s);
    FAIL();
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("test_always_first"), std::string::npos) << e.what();
  }
  EXPECT_THROW(DramChannel(2, 4, nullptr, t), std::invalid_argument);
}

}  // namespace
}  // namespace warptlm
