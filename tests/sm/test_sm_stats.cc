// SmStats::put() writes what to_json() holds, under a prefix; all_statistics()
// lays the timing statistics over the run's counts.
#include <gtest/gtest.h>

#include "exec/launch_session.h"
#include "sm/sm_stats.h"

namespace warptlm {
namespace {

SmStats distinct_stats() {
  SmStats s;
  s.cycles = 11;
  s.warp_instructions = 22;
  s.slot_issued = 33;
  s.l1.hits = 44;
  s.capri_bypasses = 55;
  return s;
}

TEST(SmStats, PutWritesEveryEntryOfToJsonUnderThePrefix) {
  const SmStats s = distinct_stats();
  const nlohmann::json flat = s.to_json();
  nlohmann::json out = {{"keep", 1}, {"sm7.cycles", 999}};
  s.put(out, "sm7.");
  EXPECT_EQ(out.size(), flat.size() + 1);  // "sm7.cycles" overwritten, "keep" kept
  EXPECT_EQ(out["keep"], 1);
  for (auto it = flat.begin(); it != flat.end(); ++it) {
    ASSERT_TRUE(out.contains("sm7." + it.key())) << it.key();
    EXPECT_EQ(out["sm7." + it.key()], it.value()) << it.key();
  }
  EXPECT_EQ(out["sm7.cycles"], 11u);
  EXPECT_EQ(out["sm7.l1_hits"], 44u);
}

TEST(AllStatistics, TimingValuesWinAndTheRunsCountsAreAdded) {
  RunStats run;
  run.warp_instructions = 5;
  run.branches = 3;
  const nlohmann::json counts = run.to_json();
  ASSERT_TRUE(counts.contains("warp_instructions"));
  ASSERT_TRUE(counts.contains("branches"));

  const nlohmann::json functional = all_statistics(run, nlohmann::json());
  EXPECT_EQ(functional.dump(), counts.dump());  // (ratios of an empty run are NaN)

  const nlohmann::json all =
      all_statistics(run, nlohmann::json{{"warp_instructions", 7}, {"cycles", 100}});
  EXPECT_EQ(all.size(), counts.size() + 1);  // "cycles" is the timing model's alone
  EXPECT_EQ(all["warp_instructions"], 7);    // the timing model's figure
  EXPECT_EQ(all["branches"], 3u);            // the run's count
  EXPECT_EQ(all["cycles"], 100);
}

}  // namespace
}  // namespace warptlm
