// L2 slice writes and atomics: write-back with dirty evictions, whole-line
// write misses allocated without a fetch, partial write misses fetched first,
// write-through forwarding, atomics at the L2, and the uncached pass-through.
#include <gtest/gtest.h>

#include "l2_test_util.h"

namespace warptlm {
namespace {

using l2_test::Bench;
using l2_test::ns;
using l2_test::rd;
using l2_test::small_l2;
using l2_test::wr;

// Set 0 holds 0x1000, 0x1100, 0x1200, ... (two ways, LRU).
//   0   whole-line write 0x1000: allocated dirty, no fetch       -> answer 10
//   20  read 0x1100: fill 20..120                                -> 130
//   200 read 0x1200: fill 200..300 evicts LRU 0x1000 (dirty):
//       writeback at 300                                         -> 310
//   400 4-byte write 0x1300: fetched first, 400..500, evicts
//       clean 0x1100, then dirty                                 -> 510
//   600 read 0x1400: fill 600..700 evicts clean 0x1200           -> 710
//   800 read 0x1500: fill 800..900 evicts dirty 0x1300: writeback at 900 -> 910
TEST(L2Writes, WriteBackEvictsDirtyLines) {
  testing::in_child_process([] {
    Bench b({wr(0, 0x1000, 64), rd(20, 0x1100), rd(200, 0x1200), wr(400, 0x1300), rd(600, 0x1400),
             rd(800, 0x1500)},
            small_l2());
    sc_core::sc_start();
    ASSERT_EQ(b.gen.completed(), 6u);
    const double want[] = {10, 130, 310, 510, 710, 910};
    for (size_t i = 0; i < 6; ++i) {
      EXPECT_EQ(b.gen.result(i).responded, ns(want[i])) << i;
      EXPECT_EQ(b.gen.result(i).status, tlm::TLM_OK_RESPONSE) << i;
    }
    EXPECT_EQ(b.arrivals(), (std::vector<std::string>{"R@20:0x1100", "R@200:0x1200", "W@300:0x1000",
                                                      "R@400:0x1300", "R@600:0x1400",
                                                      "R@800:0x1500", "W@900:0x1300"}));
    const testing::TargetArrival& wb = b.mem.arrivals[2];
    EXPECT_EQ(wb.bytes, 64u);
    EXPECT_TRUE(wb.has_gpu_extension);
    EXPECT_EQ(wb.sm, 3u);  // writebacks carry the slice index
    const L2Stats& s = b.l2.stats();
    EXPECT_EQ(s.writes, 2u);
    EXPECT_EQ(s.reads, 4u);
    EXPECT_EQ(s.misses, 6u);
    EXPECT_EQ(s.fills, 5u);
    EXPECT_EQ(s.writebacks, 2u);
    EXPECT_EQ(b.mem.protocol_errors(), 0u);
    EXPECT_EQ(sc_core::sc_time_stamp(), ns(1000));  // the last writeback's answer
  });
}

// Write-through: every write is forwarded (a hit leaves the line clean, a miss
// allocates nothing) and answered when memory answers it.
//   0   read 0x1000: fill                         -> 110
//   200 write 0x1000 (hit): forwarded at 200      -> 300
//   400 write 0x2000 (miss): forwarded at 400     -> 500
//   600 read 0x2000: still a miss, fill           -> 710
TEST(L2Writes, WriteThroughForwardsEveryWrite) {
  testing::in_child_process([] {
    Bench b({rd(0, 0x1000), wr(200, 0x1000, 4, {1, 2, 3, 4}), wr(400, 0x2000, 4, {5, 6, 7, 8}),
             rd(600, 0x2000)},
            small_l2("write_through"));
    sc_core::sc_start();
    ASSERT_EQ(b.gen.completed(), 4u);
    const double want[] = {110, 300, 500, 710};
    for (size_t i = 0; i < 4; ++i) EXPECT_EQ(b.gen.result(i).responded, ns(want[i])) << i;
    EXPECT_EQ(b.arrivals(), (std::vector<std::string>{"R@0:0x1000", "W@200:0x1000", "W@400:0x2000",
                                                      "R@600:0x2000"}));
    EXPECT_EQ(b.mem.arrivals[1].bytes, 4u);
    EXPECT_EQ(b.mem.arrivals[1].sm, 7u);  // a forwarded write keeps its origin
    uint8_t got[4];
    ASSERT_TRUE(b.mem.memory.read(0x2000, got, 4));
    EXPECT_EQ(std::vector<uint8_t>(got, got + 4), (std::vector<uint8_t>{5, 6, 7, 8}));
    const L2Stats& s = b.l2.stats();
    EXPECT_EQ(s.write_throughs, 2u);
    EXPECT_EQ(s.hits, 1u);
    EXPECT_EQ(s.misses, 3u);
    EXPECT_EQ(s.writebacks, 0u);
    EXPECT_EQ(b.gen.pool().outstanding(), 0u);
  });
}

// Atomics (here loads marked Atomic) need the line: a miss fetches it, a hit
// takes the hit latency, and the line becomes dirty.
//   0   atomic 0x1000: fill 0..100            -> 110
//   200 atomic 0x1000: hit                    -> 210
//   300 read 0x1100: fill 300..400            -> 410
//   500 read 0x1200: fill evicts dirty 0x1000 (used at 200, before 0x1100's
//       fill at 400): writeback at 600        -> 610
TEST(L2Writes, AtomicsAreReadModifyWritesAtTheL2) {
  testing::in_child_process([] {
    testing::TrafficGenerator gen(
        "gen", {rd(0, 0x1000), rd(200, 0x1000), rd(300, 0x1100), rd(500, 0x1200)});
    l2_test::Interposer marker("marker", {0, 1});
    L2Slice l2("l2", small_l2());
    testing::MemoryTarget mem("mem", testing::TestMemory(0, 0x10000), ns(100));
    gen.socket.bind(marker.in);
    marker.out.bind(l2.in);
    l2.out.bind(mem.socket);
    sc_core::sc_start();
    ASSERT_EQ(gen.completed(), 4u);
    const double want[] = {110, 210, 410, 610};
    for (size_t i = 0; i < 4; ++i) EXPECT_EQ(gen.result(i).responded, ns(want[i])) << i;
    ASSERT_EQ(mem.arrivals.size(), 4u);
    EXPECT_EQ(mem.arrivals[3].command, tlm::TLM_WRITE_COMMAND);
    EXPECT_EQ(mem.arrivals[3].address, 0x1000u);
    EXPECT_EQ(mem.arrivals[3].time, ns(600));
    EXPECT_EQ(l2.stats().atomics, 2u);
    EXPECT_EQ(l2.stats().reads, 2u);
    EXPECT_EQ(l2.stats().hits, 1u);
    EXPECT_EQ(l2.stats().writebacks, 1u);
  });
}

// cache.size == 0: requests go to memory unchanged (same address, length and
// extension) and come back with memory's answer and data, with no L2 latency.
TEST(L2Writes, UncachedSliceForwardsRequestsUnchanged) {
  testing::in_child_process([] {
    L2Params p = small_l2();
    p.cache.size = 0;
    Bench b({wr(0, 0x1000, 8, {1, 2, 3, 4, 5, 6, 7, 8}), rd(200, 0x1002, 4)}, p);
    sc_core::sc_start();
    ASSERT_EQ(b.gen.completed(), 2u);
    EXPECT_FALSE(b.l2.caches());
    EXPECT_EQ(b.gen.result(0).responded, ns(100));
    EXPECT_EQ(b.gen.result(1).responded, ns(300));
    EXPECT_EQ(b.gen.result(1).data, (std::vector<uint8_t>{3, 4, 5, 6}));
    EXPECT_EQ(b.arrivals(), (std::vector<std::string>{"W@0:0x1000", "R@200:0x1002"}));
    EXPECT_EQ(b.mem.arrivals[1].bytes, 4u);
    EXPECT_EQ(b.mem.arrivals[1].tag, 1u);  // the generator's own payload
    EXPECT_EQ(b.l2.stats().passthrough, 2u);
    EXPECT_EQ(b.l2.stats().hits + b.l2.stats().misses, 0u);
    EXPECT_EQ(b.gen.pool().outstanding(), 0u);
  });
}

}  // namespace
}  // namespace warptlm
