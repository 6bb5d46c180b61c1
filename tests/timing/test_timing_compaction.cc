// Thread block compaction in the timing model: every scenario run with
// formed warps issuing in the SMs (compaction tbc under several lane
// permutations, ideal, and capri) gives bit-exactly the outputs of the
// functional executor under the same compaction and passes its host
// reference; under tbc and ideal it also issues exactly the warp
// instructions the functional executor counts for the same formation (NW
// per lockstep instruction). So it does when the warps pass the branches
// the frontend proves CTA-uniform without synchronising
// (sm.sync_uniform_branches=false). Each run is a fresh SystemC
// elaboration in a child process.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <tuple>

#include "common/systemc_child.h"
#include "common/temp_path.h"
#include "config/platform_config.h"
#include "exec/functional_executor.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"
#include "gpu/timing_run.h"
#include "scenario.h"

namespace warptlm::scenarios {
namespace {

// index into all(), preset, warp size, compaction, permutation, sm.sync_uniform_branches
using CompactionParam = std::tuple<size_t, std::string, unsigned, std::string, std::string, bool>;

class TimingCompaction : public ::testing::TestWithParam<CompactionParam> {};

TEST_P(TimingCompaction, MatchesFunctionalCompactionBitExactly) {
  const auto& [index, preset_name, warp_size, compaction, permutation, sync_uniform] = GetParam();
  const Scenario& s = all()[index];
  warptlm::testing::in_child_process([&] {
    PlatformConfig config = preset(preset_name);
    config.warp_size = config.simd_width = warp_size;
    // Narrow warps: as many warp slots as the SM's threads need.
    config.sm.warps = std::max(config.sm.warps, config.sm.threads / warp_size);
    config.compaction = compaction;
    config.permutation = permutation;
    config.sm.sync_uniform_branches = sync_uniform;
    Program program = finalize(parse_ptx(scenario_ptx(s), s.source_dir + "/kernel.ptx"));
    const uint64_t n = resolve_size(s, "test");
    LaunchSpec in = s.make_launch(n, 1);
    LaunchSpec functional = in, timing = in;
    RunStats fstats = run_functional(program, s.entry, functional, config.exec_config());
    RunStats tstats;
    nlohmann::json stats = run_timing(program, s.entry, timing, config, &tstats);
    CheckResult r = s.check(in, timing);
    EXPECT_TRUE(r.passed) << s.name << ": " << r.message;
    // Which thread wins the spin-lock when is the interleaving, which timing
    // changes (and with it the formed warps and the retries of the loop).
    if (s.name == "spinlock") return;
    EXPECT_EQ(tstats.thread_instructions, fstats.thread_instructions);
    ASSERT_EQ(functional.buffers.size(), timing.buffers.size());
    for (size_t i = 0; i < functional.buffers.size(); ++i)
      EXPECT_TRUE(functional.buffers[i].bytes == timing.buffers[i].bytes)
          << s.name << ": buffer '" << functional.buffers[i].name
          << "' differs between the functional and the timing run";
    // CAPRI's table is per SM here and learns as CTAs run concurrently, and
    // a bypassed region runs per warp: its counts differ from functional
    // mode's one table learning CTA after CTA.
    if (compaction == "capri") return;
    EXPECT_EQ(tstats.warp_instructions, fstats.warp_instructions);
    EXPECT_EQ(tstats.branches, fstats.branches);
    EXPECT_EQ(tstats.divergent_branches, fstats.divergent_branches);
    EXPECT_EQ(stats.at("warp_instructions").get<uint64_t>(), tstats.warp_instructions);
    // Every CTA synchronised at least at its exit, and formed its first set.
    EXPECT_GE(stats.at("sm.compaction_syncs").get<uint64_t>(), tstats.ctas);
    EXPECT_GE(stats.at("sm.warp_formations").get<uint64_t>(), tstats.ctas);
  });
}

// The tree reduction's stride loop is CTA-uniform: passing it unsynchronised
// leaves fewer synchronisations and fewer cycles waited at branches the set
// took alike, the same outputs and instructions, and no more cycles.
TEST(TimingCompactionUniform, PassingUniformBranchesSkipsTheirSynchronisations) {
  const Scenario& s = find("reduction");
  auto run = [&](bool sync_uniform) {
    const std::string path = warptlm::testing::temp_path(sync_uniform ? "sync.json" : "pass.json");
    warptlm::testing::in_child_process([&] {
      PlatformConfig config = preset("small");
      config.compaction = "tbc";
      config.sm.sync_uniform_branches = sync_uniform;
      Program program = finalize(parse_ptx(scenario_ptx(s), s.source_dir + "/kernel.ptx"));
      LaunchSpec l = s.make_launch(resolve_size(s, "test"), 1);
      const LaunchSpec in = l;
      const nlohmann::json stats = run_timing(program, s.entry, l, config);
      EXPECT_TRUE(s.check(in, l).passed);
      std::ofstream(path) << stats.dump();
    });
    std::ifstream file(path);
    nlohmann::json stats = nlohmann::json::parse(file);
    std::remove(path.c_str());
    return stats;
  };
  const nlohmann::json sync = run(true), pass = run(false);
  auto get = [](const nlohmann::json& j, const char* key) { return j.at(key).get<uint64_t>(); };
  EXPECT_EQ(get(pass, "warp_instructions"), get(sync, "warp_instructions"));
  EXPECT_EQ(get(pass, "thread_instructions"), get(sync, "thread_instructions"));
  EXPECT_LT(get(pass, "sm.compaction_syncs"), get(sync, "sm.compaction_syncs"));
  EXPECT_GT(get(sync, "sm.compaction_uniform_syncs"), get(pass, "sm.compaction_uniform_syncs"));
  EXPECT_LE(get(pass, "cycles"), get(sync, "cycles"));
}

std::vector<CompactionParam> params() {
  std::vector<CompactionParam> v;
  for (size_t i = 0; i < all().size(); ++i) {
    v.emplace_back(i, "small", 32, "tbc", "none", true);
    v.emplace_back(i, "small", 32, "tbc", "balanced", true);
    v.emplace_back(i, "small", 32, "ideal", "none", true);
    v.emplace_back(i, "small", 8, "tbc", "rev_wid", true);
    v.emplace_back(i, "fermi", 32, "tbc", "odd_even", true);
    v.emplace_back(i, "small", 32, "capri", "none", true);
    v.emplace_back(i, "small", 32, "capri", "balanced", true);
    v.emplace_back(i, "small", 32, "tbc", "balanced", false);
    v.emplace_back(i, "small", 8, "ideal", "none", false);
    v.emplace_back(i, "small", 32, "capri", "balanced", false);
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(AllScenarios, TimingCompaction, ::testing::ValuesIn(params()),
                         [](const ::testing::TestParamInfo<CompactionParam>& info) {
                           return all()[std::get<0>(info.param)].name + "_" +
                                  std::get<1>(info.param) + "_w" +
                                  std::to_string(std::get<2>(info.param)) + "_" +
                                  std::get<3>(info.param) + "_" + std::get<4>(info.param) +
                                  (std::get<5>(info.param) ? "" : "_pass_uniform");
                         });

}  // namespace
}  // namespace warptlm::scenarios
