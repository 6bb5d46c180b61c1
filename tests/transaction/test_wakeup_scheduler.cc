// WakeupScheduler: same-time wake-ups in registration order whatever order they
// were requested in, an earlier pending wake-up winning over a later request,
// cancellation, and wake-ups requested from inside a wake-up.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/sc_time_driver.h"
#include "common/systemc_child.h"
#include "transaction/wakeup_scheduler.h"

namespace warptlm {
namespace {

using testing::in_child_process;

using testing::Driver;
using testing::now_ns;
using testing::ns;

// Records "name@ns" when woken and runs an optional action.
struct Recorder : WakeupScheduler::Client {
  Recorder(std::string name, std::vector<std::string>& log) : name(std::move(name)), log(log) {}
  void wake() override {
    log.push_back(name + "@" + std::to_string(now_ns()));
    if (action) action();
  }
  std::string name;
  std::vector<std::string>& log;
  std::function<void()> action;
};

TEST(WakeupScheduler, SameTimeClientsRunInRegistrationOrder) {
  in_child_process([] {
    std::vector<std::string> log;
    WakeupScheduler w("w");
    Recorder a("a", log), b("b", log), c("c", log);
    const unsigned ia = w.add(a), ib = w.add(b), ic = w.add(c);
    EXPECT_EQ(ia, 0u);
    EXPECT_EQ(ic, 2u);
    Driver d("d", [&] {
      w.wake_at(ic, ns(10));
      w.wake_at(ib, ns(10));
      w.wake_at(ia, ns(10));
      w.wake_at(ib, ns(5));   // earlier: replaces b's 10 ns
      w.wake_at(ic, ns(20));  // later than the pending 10 ns: ignored
    });
    sc_core::sc_start();
    EXPECT_EQ(log, (std::vector<std::string>{"b@5", "a@10", "c@10"}));
  });
}

TEST(WakeupScheduler, CancelledWakeupsDoNotRun) {
  in_child_process([] {
    std::vector<std::string> log;
    WakeupScheduler w("w");
    Recorder a("a", log), b("b", log);
    const unsigned ia = w.add(a), ib = w.add(b);
    Driver d("d", [&] {
      w.wake_at(ia, ns(3));
      w.wake_at(ib, ns(4));
      w.cancel(ia);
    });
    sc_core::sc_start();
    EXPECT_EQ(log, (std::vector<std::string>{"b@4"}));
  });
}

TEST(WakeupScheduler, WakeupsRequestedWhileFiringRunInRankOrder) {
  in_child_process([] {
    std::vector<std::string> log;
    WakeupScheduler w("w");
    Recorder a("a", log), b("b", log), c("c", log);
    const unsigned ia = w.add(a), ib = w.add(b), ic = w.add(c);
    // b, woken at 2 ns, asks for a and c now (both still run at 2 ns, a
    // although its rank is below b's) and for itself 3 ns later.
    b.action = [&] {
      if (now_ns() != 2) return;
      w.wake_at(ic, ns(2));
      w.wake_at(ia, ns(0));  // in the past: means now
      w.wake_at(ib, ns(5));
    };
    Driver d("d", [&] { w.wake_at(ib, ns(2)); });
    sc_core::sc_start();
    EXPECT_EQ(log, (std::vector<std::string>{"b@2", "a@2", "c@2", "b@5"}));
  });
}

// Beyond 64 clients the bit sets widen, also with wake-ups already pending.
TEST(WakeupScheduler, OrdersMoreThan64Clients) {
  in_child_process([] {
    std::vector<std::string> log;
    WakeupScheduler w("w");
    std::vector<std::unique_ptr<Recorder>> r;
    for (int i = 0; i < 60; ++i) {
      r.push_back(std::make_unique<Recorder>("c" + std::to_string(i), log));
      w.add(*r.back());
    }
    r[59]->action = [&] {  // at 1 ns: more clients, woken at 3 ns with the pending ones
      if (now_ns() != 1) return;
      w.wake_at(40, ns(3));
      for (int i = 60; i < 70; ++i) {
        r.push_back(std::make_unique<Recorder>("c" + std::to_string(i), log));
        w.add(*r.back());
      }
      w.wake_at(66, ns(3));
      w.wake_at(61, ns(3));
    };
    Driver d("d", [&] { w.wake_at(59, ns(1)); });
    sc_core::sc_start();
    EXPECT_EQ(log, (std::vector<std::string>{"c59@1", "c40@3", "c61@3", "c66@3"}));
  });
}

}  // namespace
}  // namespace warptlm
