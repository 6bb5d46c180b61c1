// The registry of warp-scheduling policies by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "scheduler_test_util.h"
#include "sm/scheduler/lrr_scheduler.h"
#include "sm/scheduler/warp_scheduler.h"

namespace warptlm {
namespace {

using test::Order;
using test::order_of;

std::string error_of(const std::string& name, unsigned slots, const SchedulerParams& p = {}) {
  try {
    make_warp_scheduler(name, slots, p);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(WarpSchedulerRegistry, BuiltinsInTheirFixedOrder) {
  const auto names = warp_scheduler_names();
  ASSERT_GE(names.size(), 4u);
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 4),
            (std::vector<std::string>{"lrr", "gto", "two_level", "srr"}));
  for (const char* name : {"lrr", "gto", "two_level", "srr"})
    EXPECT_STREQ(make_warp_scheduler(name, 4)->name(), name);
}

TEST(WarpSchedulerRegistry, PassesTheActiveSetSize) {
  SchedulerParams p;
  p.active_set = 1;
  auto s = make_warp_scheduler("two_level", 3, p);
  for (unsigned w = 0; w < 3; ++w) s->warp_started(w, w);
  EXPECT_EQ(order_of(*s), (Order{0}));  // one place: only the first warp is active
  s->long_latency_stall(0);
  EXPECT_EQ(order_of(*s), (Order{1}));
}

TEST(WarpSchedulerRegistry, ErrorsNameTheProblem) {
  const std::string unknown = error_of("fifo", 4);
  EXPECT_NE(unknown.find("'fifo'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("lrr, gto, two_level, srr"), std::string::npos) << unknown;
  EXPECT_NE(error_of("gto", 0).find("slots"), std::string::npos);
  SchedulerParams none;
  none.active_set = 0;
  EXPECT_NE(error_of("two_level", 4, none).find("active_set"), std::string::npos);
  EXPECT_THROW(register_warp_scheduler("", nullptr), std::invalid_argument);
  EXPECT_THROW(register_warp_scheduler("x", nullptr), std::invalid_argument);
}

TEST(WarpSchedulerRegistry, RegistersAPolicyOnce) {
  register_warp_scheduler(
      "test_lrr",
      [](unsigned slots, const SchedulerParams&) {
        return std::unique_ptr<WarpScheduler>(new LrrScheduler(slots + 1));
      },
      "lrr with one more slot");
  // A second registration of the name, or of a built-in's, is refused: a
  // plug-in cannot silently replace a policy.
  EXPECT_THROW(
      register_warp_scheduler("test_lrr",
                              [](unsigned slots, const SchedulerParams&) {
                                return std::unique_ptr<WarpScheduler>(new LrrScheduler(slots));
                              }),
      std::invalid_argument);
  EXPECT_THROW(
      register_warp_scheduler("gto",
                              [](unsigned slots, const SchedulerParams&) {
                                return std::unique_ptr<WarpScheduler>(new LrrScheduler(slots));
                              }),
      std::invalid_argument);
  const auto names = warp_scheduler_names();
  EXPECT_EQ(std::count(names.begin(), names.end(), "test_lrr"), 1);
  EXPECT_EQ(names.back(), "test_lrr");
  EXPECT_EQ(warp_scheduler_descriptions().back().second, "lrr with one more slot");
  auto s = make_warp_scheduler("test_lrr", 1);  // its factory: one more slot
  s->warp_started(1, 0);
  EXPECT_EQ(order_of(*s), (Order{1}));
}

TEST(WarpSchedulerRegistry, BuiltInsSayWhatTheSmMayAssumeOfTheirOrder) {
  using Kind = WarpScheduler::OrderKind;
  EXPECT_EQ(make_warp_scheduler("lrr", 4)->order_kind(), Kind::Rotation);
  EXPECT_EQ(make_warp_scheduler("srr", 4)->order_kind(), Kind::Rotation);
  EXPECT_EQ(make_warp_scheduler("gto", 4)->order_kind(), Kind::Stable);
  EXPECT_EQ(make_warp_scheduler("two_level", 4)->order_kind(), Kind::Stable);
  // A rotation starts where order() starts.
  auto s = make_warp_scheduler("srr", 4);
  for (unsigned w = 0; w < 4; ++w) s->warp_started(w, w);
  s->issued(2);
  std::vector<unsigned> order;
  s->order(order);
  EXPECT_EQ(order.front(), s->rotation_start());
}

}  // namespace
}  // namespace warptlm
