// SmClock: one wake-up ticks every SM due then in index order, whatever order
// they asked in; an earlier request wins; a cancelled SM is skipped; an SM
// that asks again while the clock ticks is ticked at the cycle it names. With
// several host threads the private parts of the due SMs' ticks all run, on
// several threads, before the serial parts, which run in index order.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <memory>
#include <stdexcept>
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
  void clocked_private(uint64_t t) override {
    private_at = t;
    ++privates;
  }
  void clocked_serial() override {
    serial_saw = privates.load();
    clocked();
  }
  std::string name;
  std::vector<std::string>& log;
  std::function<void()> action;
  uint64_t private_at = 0;
  unsigned serial_saw = 0;  // private parts run when this serial part began
  static std::atomic<unsigned> privates;
};
std::atomic<unsigned> FakeSm::privates{0};

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

TEST(SmClock, SeveralHostThreadsRunThePrivatePartsFirstAndTheSerialPartsInOrder) {
  in_child_process([] {
    std::vector<std::string> log;
    WakeupScheduler wakeups("wakeups");
    SmClock clock(wakeups);
    clock.set_host_threads(2);
    std::vector<std::unique_ptr<FakeSm>> sms;
    for (int i = 0; i < 5; ++i) {
      sms.push_back(std::make_unique<FakeSm>("s" + std::to_string(i), log));
      clock.add(*sms.back());
    }
    // s3 asks for itself again at 4 ns from its serial part; s1 alone is due
    // at 7 ns, so that cycle needs no second thread.
    sms[3]->action = [&] {
      if (now_ns() == 2) clock.request(3, ns(4));
    };
    FakeSm::privates = 0;
    Driver d("d", [&] {
      for (unsigned i : {4u, 2u, 0u, 3u}) clock.request(i, ns(2));
      clock.request(1, ns(7));
    });
    sc_core::sc_start();
    EXPECT_EQ(log, (std::vector<std::string>{"s0@2", "s2@2", "s3@2", "s4@2", "s3@4", "s1@7"}));
    // At 2 ns the four private parts ran before the first serial part; s3 was
    // alone at 4 ns and s1 at 7 ns: ticked whole, with no private part.
    EXPECT_EQ(FakeSm::privates.load(), 4u);
    for (int i : {0, 2, 3, 4}) {
      EXPECT_EQ(sms[i]->serial_saw, 4u) << i;
      EXPECT_EQ(sms[i]->private_at, ns(2)) << i;
    }
  });
}

TEST(SmClock, RefusesNoHostThreads) {
  in_child_process([] {
    WakeupScheduler wakeups("wakeups");
    SmClock clock(wakeups);
    EXPECT_THROW(clock.set_host_threads(0), std::invalid_argument);
  });
}

}  // namespace
}  // namespace warptlm
