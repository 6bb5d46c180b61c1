// The table of whole-GPU timing statistics (what sweeps store and Python
// lists) names exactly the keys a timing run reports, besides the functional
// ones (RunStats) and the per-SM/per-channel breakdowns.
#include <gtest/gtest.h>

#include <set>

#include "common/systemc_child.h"
#include "config/platform_config.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"
#include "gpu/timing_run.h"
#include "gpu/timing_stats.h"
#include "scenario.h"
#include "simt/reconvergence_unit.h"

namespace warptlm {
namespace {

TEST(TimingStats, TableMatchesWhatARunReports) {
  warptlm::testing::in_child_process([] {
    const scenarios::Scenario& s = scenarios::find("reduction");
    Program program = finalize(parse_ptx(scenarios::scenario_ptx(s), s.source_dir + "/kernel.ptx"));
    LaunchSpec l = s.make_launch(scenarios::resolve_size(s, "test"), 1);
    nlohmann::json stats = run_timing(program, s.entry, l, preset("small"));
    std::set<std::string> reported, functional, listed;
    for (const StatInfo& i : run_stat_infos()) functional.insert(i.name);
    for (auto it = stats.begin(); it != stats.end(); ++it)
      if (!is_breakdown_stat(it.key()) && !functional.count(it.key())) reported.insert(it.key());
    for (const StatInfo& i : timing_stat_infos()) {
      EXPECT_FALSE(i.meaning.empty()) << i.name;
      listed.insert(i.name);
    }
    EXPECT_EQ(reported, listed);
    // The breakdowns are there too: per SM and per channel.
    EXPECT_TRUE(stats.contains("sm1.slot_issued"));
    EXPECT_TRUE(stats.contains("dram.channel0.reads"));
    // Activity factor (Kerr et al.) is active threads per warp instruction over the warp size.
    EXPECT_DOUBLE_EQ(stats.at("activity_factor").get<double>(),
                     double(stats.at("thread_instructions").get<uint64_t>()) /
                         double(stats.at("warp_instructions").get<uint64_t>()) / 32.0);
  });
}

TEST(TimingStats, BreakdownKeysAreRecognised) {
  EXPECT_TRUE(is_breakdown_stat("sm0.cycles"));
  EXPECT_TRUE(is_breakdown_stat("sm12.slot_issued"));
  EXPECT_TRUE(is_breakdown_stat("occupancy.sm3.ctas_max"));
  EXPECT_TRUE(is_breakdown_stat("dram.channel7.row_hits"));
  EXPECT_TRUE(is_breakdown_stat("interconnect.output_requests"));
  EXPECT_FALSE(is_breakdown_stat("sm.cycles"));
  EXPECT_FALSE(is_breakdown_stat("simd_utilisation"));
  EXPECT_FALSE(is_breakdown_stat("occupancy.ctas_max"));
  EXPECT_FALSE(is_breakdown_stat("dram.reads"));
}

}  // namespace
}  // namespace warptlm

namespace warptlm {
namespace {

uint64_t avoided(const std::string& scheme) {
  uint64_t value = 0;
  const scenarios::Scenario& s = scenarios::find("short_circuit");
  FinalizeOptions fin;
  fin.insert_reconvergence_markers = reconvergence_needs_markers(scheme);
  Program program =
      finalize(parse_ptx(scenarios::scenario_ptx(s), s.source_dir + "/kernel.ptx"), fin);
  LaunchSpec l = s.make_launch(scenarios::resolve_size(s, "test"), 1);
  PlatformConfig c = preset("small");
  c.reconvergence = scheme;
  nlohmann::json stats = run_timing(program, s.entry, l, c);
  value = stats.at("sm.stalls_avoided_by_lane_masks").get<uint64_t>();
  return value;
}

// Multi-path schemes issue several splits of a warp; a split whose registers
// have pending writes only on another split's lanes goes ahead. With one path
// per warp (ipdom) that never happens.
TEST(TimingStats, LaneMasksLetSplitsPassEachOthersPendingWrites) {
  warptlm::testing::in_child_process([] { EXPECT_GT(avoided("mp_ipdom"), 0u); });
  warptlm::testing::in_child_process([] { EXPECT_EQ(avoided("ipdom"), 0u); });
}

}  // namespace
}  // namespace warptlm
