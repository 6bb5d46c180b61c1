// SmClock: one wake-up ticks every SM due then in index order, whatever order
// they asked in; an earlier request wins; a cancelled SM is skipped; an SM
// that asks again while the clock ticks is ticked at the cycle it names.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "common/sc_time_driver.h"
#include "common/systemc_child.h"
#include "sm/sm_clock.h"

namespace warptlm {
namespace {

using testing::in_child_process;

using testing::Driver;
using testing::now_ns;
using testing::ns;

struct FakeSm : SmClock::Member {
  FakeSm(std::string name, std::vector<std::string>& log) : name(std::move(name)), log(log) {}
  void clocked() override {
    log.push_back(name + "@" + std::to_string(now_ns()));
    if (action) action();
  }
  std::string name;
  std::vector<std::string>& log;
  std::function<void()> action;
};

TEST(SmClock, TicksDueSmsInIndexOrderFromOneWakeup) {
  in_child_process([] {
    std::vector<std::string> log;
    WakeupScheduler wakeups("wakeups");
    SmClock clock(wakeups);
    EXPECT_EQ(wakeups.clients(), 1u);  // one client for all SMs
    FakeSm s0("s0", log), s1("s1", log), s2("s2", log);
    const unsigned i0 = clock.add(s0), i1 = clock.add(s1), i2 = clock.add(s2);
    EXPECT_EQ(i2, 2u);
    // s1 asks for 4 ns again while ticking at 2 ns; at 4 ns it asks for s0
    // and s2 at 6 ns, and cancels s2.
    s1.action = [&] {
      if (now_ns() == 2) clock.request(i1, ns(4));
      if (now_ns() != 4) return;
      clock.request(i2, ns(6));
      clock.request(i0, ns(6));
      clock.cancel(i2);
    };
    Driver d("d", [&] {
      clock.request(i2, ns(2));
      clock.request(i0, ns(2));
      clock.request(i1, ns(6));
      clock.request(i1, ns(2));  // earlier: replaces 6 ns
      clock.request(i0, ns(9));  // later than the pending 2 ns: ignored
    });
    sc_core::sc_start();
    EXPECT_EQ(log, (std::vector<std::string>{"s0@2", "s1@2", "s2@2", "s1@4", "s0@6"}));
  });
}

}  // namespace
}  // namespace warptlm
