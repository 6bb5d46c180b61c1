// Every scenario run through the timing model (the SystemC GPU with its SMs,
// caches and DRAM) gives bit-exactly the outputs of the functional executor
// and passes its host reference: under ipdom on the small and the fermi
// presets, and under every other registered reconvergence scheme on small.
// Each run is a fresh SystemC elaboration in a child process.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>

#include "common/systemc_child.h"
#include "config/platform_config.h"
#include "exec/functional_executor.h"
#include "exec/prepared_program.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"
#include "gpu/timing_run.h"
#include "scenario.h"
#include "simt/reconvergence_unit.h"

namespace warptlm::scenarios {
namespace {

// index into all(), preset, reconvergence scheme
using TimingParam = std::tuple<size_t, std::string, std::string>;

class TimingScenario : public ::testing::TestWithParam<TimingParam> {};

TEST_P(TimingScenario, MatchesFunctionalRunBitExactly) {
  const Scenario& s = all()[std::get<0>(GetParam())];
  const std::string preset_name = std::get<1>(GetParam());
  const std::string scheme = std::get<2>(GetParam());
  warptlm::testing::in_child_process([&] {
    PlatformConfig config = preset(preset_name);
    config.reconvergence = scheme;
    Program program =
        prepare_program(parse_ptx(scenario_ptx(s), s.source_dir + "/kernel.ptx"), scheme);
    const auto& livelocks = s.livelocks_under;
    if (std::find(livelocks.begin(), livelocks.end(), scheme) != livelocks.end()) {
      // The scheme livelocks this kernel by design: the watchdog must end it.
      config.instruction_budget = 200000;
      LaunchSpec l = s.make_launch(resolve_size(s, "test"), 1);
      try {
        run_timing(program, s.entry, l, config);
        ADD_FAILURE() << s.name << " finished under " << scheme
                      << "; it is listed in livelocks_under";
      } catch (const KernelFault& f) {
        EXPECT_NE(std::string(f.what()).find("runaway kernel"), std::string::npos) << f.what();
      }
      return;
    }
    const uint64_t n = resolve_size(s, "test");
    LaunchSpec in = s.make_launch(n, 1);
    LaunchSpec functional = in, timing = in;
    RunStats fstats = run_functional(program, s.entry, functional, config.exec_config());
    RunStats tstats;
    nlohmann::json stats = run_timing(program, s.entry, timing, config, &tstats);
    CheckResult r = s.check(in, timing);
    EXPECT_TRUE(r.passed) << s.name << " on " << preset_name << " under " << scheme << ": "
                          << r.message;
    // The spin-lock's outputs record which thread won the lock in which
    // order: the interleaving of warps, which timing legitimately changes. Its
    // host reference accepts every valid order; bit-exactness is not defined.
    if (s.name == "spinlock") return;
    EXPECT_EQ(tstats.warp_instructions, fstats.warp_instructions);
    EXPECT_EQ(tstats.thread_instructions, fstats.thread_instructions);
    ASSERT_EQ(functional.buffers.size(), timing.buffers.size());
    for (size_t i = 0; i < functional.buffers.size(); ++i)
      EXPECT_TRUE(functional.buffers[i].bytes == timing.buffers[i].bytes)
          << s.name << ": buffer '" << functional.buffers[i].name
          << "' differs between the functional and the timing run";
    EXPECT_EQ(tstats.ctas, fstats.ctas);
    EXPECT_EQ(tstats.warps, fstats.warps);
    EXPECT_GT(stats.at("cycles").get<uint64_t>(), 0u);
    EXPECT_EQ(stats.at("warp_instructions").get<uint64_t>(), tstats.warp_instructions);
  });
}

std::vector<TimingParam> params() {
  std::vector<TimingParam> v;
  for (size_t i = 0; i < all().size(); ++i) {
    v.emplace_back(i, "fermi", "ipdom");
    for (const std::string& scheme : reconvergence_names()) v.emplace_back(i, "small", scheme);
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(AllScenarios, TimingScenario, ::testing::ValuesIn(params()),
                         [](const ::testing::TestParamInfo<TimingParam>& info) {
                           return all()[std::get<0>(info.param)].name + "_" +
                                  std::get<1>(info.param) + "_" + std::get<2>(info.param);
                         });

}  // namespace
}  // namespace warptlm::scenarios
