// CTA occupancy limits seen end to end: one SM, ten CTAs of two warps. Each
// SM resource in turn (CTA slots, warp slots, threads, registers, shared
// memory) is set to hold exactly three CTAs, and the trace shows at most
// three CTAs running at once: the fourth issues its first instruction only
// after one of the first three has issued its last.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "behaviour_support.h"
#include "common/systemc_child.h"

namespace warptlm::behaviour {
namespace {

using testing::in_child_process;

// 12 32-bit registers live at once (12 per thread, already a multiple of
// 4): a CTA of 64 threads takes 768. A dependent chain of 22 instructions
// keeps a CTA resident far longer than dispatching takes.
const char* const kChain = R"(
.visible .entry chain()
{
  .reg .b32 %r<12>;
  mov.u32 %r0, %tid.x;
  add.u32 %r1, %r0, 1;
  add.u32 %r2, %r1, 1;
  add.u32 %r3, %r2, 1;
  add.u32 %r4, %r3, 1;
  add.u32 %r5, %r4, 1;
  add.u32 %r6, %r5, 1;
  add.u32 %r7, %r6, 1;
  add.u32 %r8, %r7, 1;
  add.u32 %r9, %r8, 1;
  add.u32 %r10, %r9, 1;
  add.u32 %r11, %r10, 1;
  add.u32 %r0, %r0, %r1;
  add.u32 %r0, %r0, %r2;
  add.u32 %r0, %r0, %r3;
  add.u32 %r0, %r0, %r4;
  add.u32 %r0, %r0, %r5;
  add.u32 %r0, %r0, %r6;
  add.u32 %r0, %r0, %r7;
  add.u32 %r0, %r0, %r8;
  add.u32 %r0, %r0, %r9;
  add.u32 %r0, %r0, %r10;
  add.u32 %r0, %r0, %r11;
  exit;
}
)";

constexpr uint32_t kCtas = 10;

// Room for all ten CTAs: 16 CTA slots, 32 warp slots, 1024 threads, 32768
// registers (10 x 768 = 7680), 32 KB of shared memory.
PlatformConfig roomy() {
  PlatformConfig c = quiet_config();
  c.sm.ctas = 16;
  c.sm.warps = 32;
  c.sm.threads = 1024;
  c.sm.registers = 32768;
  c.sm.shared_memory = 32768;
  return c;
}

using Spans = std::map<uint32_t, std::pair<uint64_t, uint64_t>>;  // CTA -> first, last issue

// CTA c (warps 2c, 2c+1) runs from its first issue to its last.
Spans cta_spans(const Result& r) {
  Spans span;
  for (const TraceRecord& t : r.trace) {
    auto it = span.find(t.warp / 2);
    if (it == span.end())
      span.emplace(t.warp / 2, std::make_pair(t.step, t.step));
    else
      it->second.second = t.step;
  }
  return span;
}

// The most CTAs running at once: the overlap at each CTA's start.
unsigned max_running(const Result& r) {
  const Spans span = cta_spans(r);
  unsigned best = 0;
  for (const auto& [cta, s] : span) {
    unsigned n = 0;
    for (const auto& [other, o] : span) n += o.first <= s.first && s.first <= o.second;
    best = std::max(best, n);
  }
  return best;
}

// CTAs that issued before any CTA issued its last instruction.
unsigned started_before_first_finish(const Result& r) {
  const Spans span = cta_spans(r);
  uint64_t first_finish = ~uint64_t(0);
  for (const auto& [cta, s] : span) first_finish = std::min(first_finish, s.second);
  unsigned n = 0;
  for (const auto& [cta, s] : span) n += s.first < first_finish;
  return n;
}

// `expected` CTAs run at once; `theoretical` is what the SM's resources
// alone allow (the distributor's figure, which ignores the grid size).
void expect_resident(const std::function<void(PlatformConfig&, LaunchSpec&)>& limit,
                     unsigned expected, unsigned theoretical) {
  in_child_process([&] {
    PlatformConfig c = roomy();
    LaunchSpec l = launch_of(kCtas, 64);
    limit(c, l);
    Result r = run(kChain, "chain", l, c);
    EXPECT_EQ(stat(r, "sm.ctas_run"), kCtas);
    EXPECT_EQ(r.trace.size(), 2u * kCtas * 24);  // mov, 11 + 11 adds, exit per warp
    EXPECT_EQ(stat(r, "occupancy.theoretical_ctas_per_sm"), theoretical);
    EXPECT_EQ(stat(r, "occupancy.ctas_max"), expected);
    EXPECT_EQ(stat(r, "occupancy.warps_max"), 2u * expected);
    EXPECT_EQ(started_before_first_finish(r), expected);
    EXPECT_EQ(max_running(r), expected);
  });
}

TEST(Occupancy, AllTenFitWhenNothingLimits) {
  // The grid is the limit; the SM's 16 CTA slots are its resources' limit.
  expect_resident([](PlatformConfig&, LaunchSpec&) {}, kCtas, 16);
}

TEST(Occupancy, CtaSlotsLimit) {
  expect_resident([](PlatformConfig& c, LaunchSpec&) { c.sm.ctas = 3; }, 3, 3);
}

TEST(Occupancy, WarpSlotsLimit) {
  // 7 warp slots hold three CTAs of 2 warps (the seventh stays empty).
  expect_resident([](PlatformConfig& c, LaunchSpec&) { c.sm.warps = 7; }, 3, 3);
}

TEST(Occupancy, ThreadsLimit) {
  // 200 threads = 6 whole warps of 32: three CTAs.
  expect_resident([](PlatformConfig& c, LaunchSpec&) { c.sm.threads = 200; }, 3, 3);
}

TEST(Occupancy, RegistersLimit) {
  // 3 x 768 = 2304 <= 3000 < 4 x 768 = 3072.
  expect_resident([](PlatformConfig& c, LaunchSpec&) { c.sm.registers = 3000; }, 3, 3);
}

TEST(Occupancy, SharedMemoryLimit) {
  // 1000 bytes of dynamic shared memory per CTA: 3 x 1000 <= 3500 < 4000.
  expect_resident(
      [](PlatformConfig& c, LaunchSpec& l) {
        c.sm.shared_memory = 3500;
        l.shared_bytes = 1000;
      },
      3, 3);
}

TEST(Occupancy, RegisterCountIsCappedAtTheMaximumPerThread) {
  // With at most 8 registers per thread a CTA takes 8 x 64 = 512: 3000
  // registers hold five CTAs (2560), not three.
  expect_resident(
      [](PlatformConfig& c, LaunchSpec&) {
        c.sm.registers = 3000;
        c.sm.max_registers_per_thread = 8;
      },
      5, 5);
}

}  // namespace
}  // namespace warptlm::behaviour
