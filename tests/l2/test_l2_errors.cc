// L2 slice error paths: a memory error reaches every request waiting on the
// line, requests that do not fit one line are burst errors, and bad
// parameters are rejected by name.
#include <gtest/gtest.h>

#include <stdexcept>

#include "l2_test_util.h"

namespace warptlm {
namespace {

using l2_test::Bench;
using l2_test::ns;
using l2_test::rd;
using l2_test::small_l2;

// Memory covers [0, 64 KiB): 0x20000 is outside. Three reads of that line at
// 0..2 share one fill, which memory answers at 100 with an address error: all
// three get it at 110. The line is not installed, so a read at 200 misses
// again and gets the error at 310.
TEST(L2Errors, MemoryErrorReachesEveryWaiter) {
  testing::in_child_process([] {
    Bench b({rd(0, 0x20000), rd(1, 0x20010), rd(2, 0x20020), rd(200, 0x20000)}, small_l2());
    b.gen.style = testing::ResponseStyle::Accept;  // END_RESP a delta later
    sc_core::sc_start();
    ASSERT_EQ(b.gen.completed(), 4u);
    const double want[] = {110, 110, 110, 310};
    for (size_t i = 0; i < 4; ++i) {
      EXPECT_EQ(b.gen.result(i).status, tlm::TLM_ADDRESS_ERROR_RESPONSE) << i;
      EXPECT_EQ(b.gen.result(i).responded, ns(want[i])) << i;
    }
    EXPECT_EQ(b.arrivals(), (std::vector<std::string>{"R@0:0x20000", "R@200:0x20000"}));
    EXPECT_EQ(b.l2.stats().errors, 4u);
    EXPECT_EQ(b.l2.stats().mshr_merges, 2u);
    EXPECT_EQ(b.gen.protocol_errors(), 0u);
    EXPECT_EQ(b.gen.pool().outstanding(), 0u);
  });
}

// 128 bytes exceed a 64-byte line; 4 bytes at 0x103e cross a line boundary.
// Both are answered with a burst error after the hit latency, without memory.
TEST(L2Errors, RequestsBeyondOneLineAreBurstErrors) {
  testing::in_child_process([] {
    Bench b({rd(0, 0x1000, 128), rd(20, 0x103e, 4), rd(40, 0x1000, 64)}, small_l2(),
            testing::TargetStyle::Queued, 128);
    sc_core::sc_start();
    ASSERT_EQ(b.gen.completed(), 3u);
    EXPECT_EQ(b.gen.result(0).status, tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(b.gen.result(0).responded, ns(10));
    EXPECT_EQ(b.gen.result(1).status, tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(b.gen.result(1).responded, ns(30));
    EXPECT_EQ(b.gen.result(2).status, tlm::TLM_OK_RESPONSE);  // exactly one line is fine
    EXPECT_EQ(b.arrivals(), (std::vector<std::string>{"R@40:0x1000"}));
    EXPECT_EQ(b.l2.stats().errors, 2u);
  });
}

TEST(L2Errors, BadParametersAreNamed) {
  testing::in_child_process([] {
    auto expect_invalid = [](const L2Params& p, const char* word) {
      try {
        L2Slice l2("l2", p);
        ADD_FAILURE() << "accepted parameters that should name " << word;
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(word), std::string::npos) << e.what();
      }
    };
    L2Params p = small_l2("write_around");
    expect_invalid(p, "write_policy");
    p = small_l2();
    p.cycle = sc_core::SC_ZERO_TIME;
    expect_invalid(p, "cycle");
    p = small_l2();
    p.cache.line = 48;
    expect_invalid(p, "line");
    p = small_l2();
    p.cache.mshrs = 0;
    expect_invalid(p, "entries");
  });
}

}  // namespace
}  // namespace warptlm
