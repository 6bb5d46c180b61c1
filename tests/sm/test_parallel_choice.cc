// ParallelChoice on a host clock the test drives: a long first stretch on the
// threads, then a probe on one thread and one on all, then a long stretch
// with whichever ran more simulated time per host second, over and over.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sm/parallel_choice.h"

namespace warptlm {
namespace {

double fake_now = 0;
double fake_clock() { return fake_now; }

// Asks `choice` for `n` wake-ups, one simulated time unit apart; a wake-up
// costs `one` host seconds on one thread and `all` on the threads. Returns
// the answers as a string of '1' (threads) and '0'. The costs are binary fractions
// (exact sums), so equal rates compare equal.
std::string drive(ParallelChoice& choice, uint64_t& sim, unsigned n, double one, double all) {
  std::string out;
  for (unsigned i = 0; i < n; ++i) {
    const bool p = choice.parallel(sim++);
    out += p ? '1' : '0';
    fake_now += p ? all : one;
  }
  return out;
}

std::string repeat(char c, unsigned n) { return std::string(n, c); }

TEST(ParallelChoice, ProbesBothWaysThenRunsTheFaster) {
  constexpr unsigned kProbe = ParallelChoice::kProbe, kRun = ParallelChoice::kRun;
  for (const bool threads_faster : {true, false}) {
    fake_now = 100;
    ParallelChoice choice(fake_clock);
    uint64_t sim = 0;
    const double one = threads_faster ? 0x1p-19 : 0x1p-20;
    const double all = threads_faster ? 0x1p-20 : 0x1p-19;
    const char faster = threads_faster ? '1' : '0';
    // The first stretch runs on the threads without measuring anything.
    EXPECT_EQ(drive(choice, sim, kRun, one, all), repeat('1', kRun));
    for (int round = 0; round < 3; ++round) {
      EXPECT_EQ(drive(choice, sim, kProbe, one, all), repeat('0', kProbe)) << "round " << round;
      EXPECT_EQ(drive(choice, sim, kProbe, one, all), repeat('1', kProbe)) << "round " << round;
      EXPECT_EQ(drive(choice, sim, kRun, one, all), repeat(faster, kRun)) << "round " << round;
    }
  }
}

TEST(ParallelChoice, FollowsAChangeOfPhase) {
  constexpr unsigned kProbe = ParallelChoice::kProbe, kRun = ParallelChoice::kRun;
  fake_now = 0;
  ParallelChoice choice(fake_clock);
  uint64_t sim = 0;
  drive(choice, sim, kRun, 0x1p-20, 0x1p-20);
  // A compute-bound phase: the threads win.
  drive(choice, sim, 2 * kProbe, 0x1.8p-19, 0x1p-20);
  EXPECT_EQ(drive(choice, sim, kRun, 0x1.8p-19, 0x1p-20), repeat('1', kRun));
  // A memory-bound one: the hand-overs cost more than they save.
  drive(choice, sim, 2 * kProbe, 0x1p-20, 0x1.8p-19);
  EXPECT_EQ(drive(choice, sim, kRun, 0x1p-20, 0x1.8p-19), repeat('0', kRun));
}

TEST(ParallelChoice, EqualRatesKeepOneThread) {
  // Threads that gain nothing are not used: they only add hand-overs.
  constexpr unsigned kProbe = ParallelChoice::kProbe, kRun = ParallelChoice::kRun;
  fake_now = 0;
  ParallelChoice choice(fake_clock);
  uint64_t sim = 0;
  drive(choice, sim, kRun + 2 * kProbe, 0x1p-20, 0x1p-20);
  EXPECT_EQ(drive(choice, sim, kRun, 0x1p-20, 0x1p-20), repeat('0', kRun));
}

}  // namespace
}  // namespace warptlm
