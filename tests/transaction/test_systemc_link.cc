// The SystemC plumbing: a test binary links libsystemc, and each test that
// simulates does so in a child process, so one binary can elaborate many times.
#include <gtest/gtest.h>

#include <systemc>

#include "common/systemc_child.h"

namespace {

struct Ticker : sc_core::sc_module {
  int ticks = 0;
  SC_HAS_PROCESS(Ticker);
  Ticker(sc_core::sc_module_name n, int count) : sc_module(n), count_(count) { SC_THREAD(run); }
  void run() {
    for (int i = 0; i < count_; ++i) {
      wait(1, sc_core::SC_NS);
      ++ticks;
    }
  }
  int count_;
};

TEST(SystemC, EachChildElaboratesAfresh) {
  for (int count : {3, 5}) {
    warptlm::testing::in_child_process([count] {
      Ticker t("t", count);
      sc_core::sc_start();
      EXPECT_EQ(t.ticks, count);
      EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time(count, sc_core::SC_NS));
    });
  }
}

}  // namespace
