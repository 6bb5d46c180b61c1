// PhaseWorkers: every item of a phase runs exactly once and run() returns only
// when all have; many short phases in a row (one per simulated cycle), workers
// that fell asleep between phases, and more threads than host cores work alike.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "sm/phase_workers.h"

namespace warptlm {
namespace {

TEST(PhaseWorkers, RunsEachItemOnceAndWaitsForAll) {
  for (unsigned threads : {2u, 3u}) {
    PhaseWorkers workers(threads);
    EXPECT_EQ(workers.threads(), threads);
    std::vector<std::atomic<unsigned>> count(10);
    std::vector<unsigned> items;
    auto work = [&](unsigned i) { count[i].fetch_add(1); };
    for (unsigned phase = 0; phase < 20000; ++phase) {
      items.clear();
      for (unsigned i = 0; i < 10; ++i)
        if ((i + phase) % 3 != 0) items.push_back(i);
      for (auto& c : count) c = 0;
      workers.run(items, work);
      // Every call returned before run() did: the counts are final.
      for (unsigned i = 0; i < 10; ++i)
        ASSERT_EQ(count[i].load(), (i + phase) % 3 != 0 ? 1u : 0u)
            << "item " << i << " of phase " << phase << " on " << threads << " threads";
    }
  }
}

TEST(PhaseWorkers, WakesWorkersThatFellAsleep) {
  PhaseWorkers workers(2);
  std::vector<unsigned> items{0, 1};
  unsigned ran[2] = {0, 0};
  auto work = [&](unsigned i) { ++ran[i]; };
  for (int i = 0; i < 3; ++i) {
    // Long enough for the worker to stop spinning and sleep.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    workers.run(items, work);
  }
  EXPECT_EQ(ran[0], 3u);
  EXPECT_EQ(ran[1], 3u);
}

TEST(PhaseWorkers, NeedsAWorker) { EXPECT_THROW(PhaseWorkers(1), std::invalid_argument); }

}  // namespace
}  // namespace warptlm
