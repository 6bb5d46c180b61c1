// The statistics registry (gpu/statistics.h) names exactly the keys runs
// report: every key a functional or timing run writes has one entry, every
// entry shows up in some run of its modes, and no statistic shares its name
// with a configuration field.
#include <gtest/gtest.h>

#include <set>

#include "common/systemc_child.h"
#include "config/platform_config.h"
#include "exec/functional_executor.h"
#include "exec/prepared_program.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"
#include "gpu/statistics.h"
#include "gpu/timing_run.h"
#include "scenario.h"
#include "simt/reconvergence_unit.h"

namespace warptlm {
namespace {

// The keys of a run's statistics as the CLIs and Python see them (RunStats,
// then the timing model's on top), checked against the registry; returns the
// registry names they matched.
std::set<std::string> check_keys(const nlohmann::json& stats, bool timing) {
  std::set<std::string> matched;
  for (auto it = stats.begin(); it != stats.end(); ++it) {
    const Statistic* s = find_statistic(it.key());
    EXPECT_NE(s, nullptr) << "unlisted statistic " << it.key();
    if (!s) continue;
    EXPECT_TRUE(timing || !s->timing_only) << it.key() << " is listed as timing-only";
    matched.insert(s->name);
  }
  return matched;
}

TEST(Statistics, RegistryMatchesWhatRunsReport) {
  const scenarios::Scenario& s = scenarios::find("reduction");
  Program program = finalize(parse_ptx(scenarios::scenario_ptx(s), s.source_dir + "/kernel.ptx"));
  LaunchSpec f = s.make_launch(scenarios::resolve_size(s, "test"), 1);
  std::set<std::string> functional = check_keys(
      run_functional(program, s.entry, f, preset("small").exec_config()).to_json(), false);
  for (const Statistic& st : statistics()) {
    if (!st.timing_only) {
      EXPECT_TRUE(functional.count(st.name)) << st.name << " never reported";
    }
  }
  warptlm::testing::in_child_process([&] {
    LaunchSpec l = s.make_launch(scenarios::resolve_size(s, "test"), 1);
    RunStats run;
    nlohmann::json timing = run_timing(program, s.entry, l, preset("small"), &run);
    nlohmann::json stats = run.to_json();
    for (auto it = timing.begin(); it != timing.end(); ++it) stats[it.key()] = it.value();
    std::set<std::string> seen = check_keys(stats, true);
    for (const Statistic& st : statistics())
      EXPECT_TRUE(seen.count(st.name)) << st.name << " never reported";
    // Activity factor (Kerr et al.) is active threads per warp instruction over the warp size.
    EXPECT_DOUBLE_EQ(stats.at("activity_factor").get<double>(),
                     double(stats.at("thread_instructions").get<uint64_t>()) /
                         double(stats.at("warp_instructions").get<uint64_t>()) / 32.0);
  });
  // Mode lt reports the same keys, its runner's counted.
  warptlm::testing::in_child_process([&] {
    LaunchSpec l = s.make_launch(scenarios::resolve_size(s, "test"), 1);
    PlatformConfig config = preset("small");
    config.coding_style = "lt";
    const nlohmann::json stats = run_timing(program, s.entry, l, config);
    check_keys(stats, true);
    EXPECT_EQ(stats.at("lt.launches").get<uint64_t>(), 1u);
    EXPECT_GT(stats.at("lt.issue_cycles").get<uint64_t>(), 0u);
  });
}

TEST(Statistics, OneNameUnitAndMeaningEachApartFromTheConfiguration) {
  std::set<std::string> names, fields;
  for (const FieldInfo& f : config_fields()) fields.insert(f.name);
  for (const Statistic& s : statistics()) {
    EXPECT_TRUE(names.insert(s.name).second) << s.name << " listed twice";
    EXPECT_FALSE(s.unit.empty()) << s.name;
    EXPECT_FALSE(s.meaning.empty()) << s.name;
    EXPECT_FALSE(fields.count(s.name)) << s.name << " is also a configuration field";
  }
  // Per-part entries and the summed ones are told apart.
  ASSERT_NE(find_statistic("sm12.slot_issued"), nullptr);
  EXPECT_EQ(find_statistic("sm12.slot_issued")->name, "sm<N>.slot_issued");
  EXPECT_EQ(find_statistic("sm.l1_hits")->name, "sm.l1_hits");
  EXPECT_EQ(find_statistic("sm3.l1_hits")->name, "sm<N>.l1_hits");
  EXPECT_EQ(find_statistic("no_such_statistic"), nullptr);
}

TEST(Statistics, BreakdownKeysAreRecognised) {
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

uint64_t avoided(const std::string& scheme, const std::string& scoreboard = "lane_masks") {
  uint64_t value = 0;
  const scenarios::Scenario& s = scenarios::find("short_circuit");
  Program program =
      prepare_program(parse_ptx(scenarios::scenario_ptx(s), s.source_dir + "/kernel.ptx"), scheme);
  LaunchSpec l = s.make_launch(scenarios::resolve_size(s, "test"), 1);
  PlatformConfig c = preset("small");
  c.reconvergence = scheme;
  c.sm.scoreboard = scoreboard;
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

// sm.scoreboard=registers blocks a split on any pending write to its
// registers, so nothing passes another split's writes (the multipath study's
// comparison).
TEST(TimingStats, RegisterGranularScoreboardLetsNoSplitPass) {
  warptlm::testing::in_child_process([] { EXPECT_EQ(avoided("mp_ipdom", "registers"), 0u); });
  warptlm::testing::in_child_process([] { EXPECT_EQ(avoided("dual_path", "registers"), 0u); });
}

}  // namespace
}  // namespace warptlm
