// Barrier timing seen end to end: a CTA of two warps on two schedulers (warp
// 0 on scheduler 0, warp 1 on scheduler 1). Warp 0 branches straight to
// bar.sync; warp 1 first runs a chain of K dependent adds. Warp 0 issues
// nothing from its arrival until warp 1 arrives, and its scheduler's slots
// in between are barrier stalls.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "behaviour_support.h"
#include "common/systemc_child.h"

namespace warptlm::behaviour {
namespace {

using testing::in_child_process;

// K dependent adds r2 = r1 + 1, r3 = r2 + 1, ... for warp 1 only.
std::string barrier_kernel(unsigned k) {
  std::string chain;
  for (unsigned i = 1; i <= k; ++i)
    chain += "  add.u32 %r" + std::to_string(i + 1) + ", %r" + std::to_string(i) + ", 1;\n";
  return R"(
.visible .entry wait()
{
  .reg .b32 %r<24>;
  .reg .pred %p<1>;
  mov.u32 %r0, %tid.x;
  shr.u32 %r1, %r0, 5;
  setp.eq.u32 %p0, %r1, 0;
  @%p0 bra SYNC;
)" + chain +
         R"(SYNC:
  bar.sync 0;
  add.u32 %r20, %r0, 1;
  exit;
}
)";
}

class Barrier : public ::testing::TestWithParam<unsigned> {};

TEST_P(Barrier, TheEarlyWarpWaitsForTheLastArrival) {
  const unsigned K = GetParam();
  in_child_process([&] {
    PlatformConfig c = quiet_config();
    c.sm.schedulers = 2;
    c.sm.sp.latency = 4;
    Result r = run(barrier_kernel(K), "wait", launch_of(1, 64), c);
    // Both warps: mov 0, shr 4, setp 8, bra 12 (each waits 4 for the last).
    // Warp 0 takes the branch and arrives at the barrier at 13. Warp 1 falls
    // through: adds at 13, 17, ..., 13 + 4 (K - 1), bar.sync the next cycle,
    // 10 + 4K, which completes the barrier. Both warps then add at 11 + 4K
    // and exit at 12 + 4K.
    const uint64_t last = 10 + 4 * K;
    EXPECT_EQ(relative_issue_cycles(r, 0),
              (std::vector<uint64_t>{0, 4, 8, 12, 13, last + 1, last + 2}));
    std::vector<uint64_t> w1 = {0, 4, 8, 12};
    for (unsigned i = 0; i < K; ++i) w1.push_back(13 + 4 * i);
    w1.insert(w1.end(), {last, last + 1, last + 2});
    EXPECT_EQ(relative_issue_cycles(r, 1), w1);
    // Scheduler 0 (warp 0 only) waits at the barrier in cycles 14 .. last:
    // scheduler 0 looks before scheduler 1 issues the releasing bar.sync.
    EXPECT_EQ(stat(r, "sm.slot_barrier"), last - 13);
    // No instruction of warp 0 between its arrival and warp 1's.
    const uint64_t t0 = r.trace.front().step;
    for (const TraceRecord& t : r.trace) {
      if (t.warp != 0) continue;
      EXPECT_FALSE(t.step > t0 + 13 && t.step <= t0 + last) << t.step - t0;
    }
  });
}

INSTANTIATE_TEST_SUITE_P(ChainLength, Barrier, ::testing::Values(4u, 8u),
                         [](const ::testing::TestParamInfo<unsigned>& info) {
                           return "chain" + std::to_string(info.param);
                         });

}  // namespace
}  // namespace warptlm::behaviour
