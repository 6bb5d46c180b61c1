// The loosely-timed GPU (coding style lt) on every scenario: outputs and instruction
// counts bit-exactly the functional executor's for every quantum (0, 1 us,
// 100 us, 10 ms), and the estimated cycles the same for every quantum (the
// quantum changes when SystemC catches up, not how much time passes).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>

#include "common/systemc_child.h"
#include "config/platform_config.h"
#include "exec/functional_executor.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"
#include "gpu/timing_run.h"
#include "scenario.h"

namespace warptlm::scenarios {
namespace {

// index into all(), quantum in ns
using LtParam = std::tuple<size_t, uint64_t>;

class LtScenario : public ::testing::TestWithParam<LtParam> {};

TEST_P(LtScenario, MatchesTheFunctionalExecutorBitExactly) {
  const Scenario& s = all()[std::get<0>(GetParam())];
  const uint64_t quantum_ns = std::get<1>(GetParam());
  warptlm::testing::in_child_process([&] {
    PlatformConfig config = preset("small");
    config.coding_style = "lt";
    config.lt.quantum_ns = quantum_ns;
    Program program = finalize(parse_ptx(scenario_ptx(s), s.source_dir + "/kernel.ptx"));
    const uint64_t n = resolve_size(s, "test");
    LaunchSpec in = s.make_launch(n, 1);
    LaunchSpec functional = in, lt = in;
    const RunStats f = run_functional(program, s.entry, functional, config.exec_config());
    RunStats got;
    const nlohmann::json stats = run_timing(program, s.entry, lt, config, &got);
    const CheckResult r = s.check(in, lt);
    EXPECT_TRUE(r.passed) << s.name << ": " << r.message;
    ASSERT_EQ(functional.buffers.size(), lt.buffers.size());
    // The same execution order as the functional executor: every buffer is
    // the same, the spin-lock's order of winners included.
    for (size_t i = 0; i < functional.buffers.size(); ++i)
      EXPECT_TRUE(functional.buffers[i].bytes == lt.buffers[i].bytes)
          << s.name << ": buffer '" << functional.buffers[i].name << "' differs";
    EXPECT_EQ(got.warp_instructions, f.warp_instructions);
    EXPECT_EQ(got.thread_instructions, f.thread_instructions);
    EXPECT_EQ(got.branches, f.branches);
    EXPECT_EQ(got.divergent_branches, f.divergent_branches);
    EXPECT_EQ(got.reconvergences, f.reconvergences);
    EXPECT_EQ(got.ctas, f.ctas);
    EXPECT_EQ(stats.at("warp_instructions").get<uint64_t>(), f.warp_instructions);
    EXPECT_EQ(stats.at("lt.launches").get<uint64_t>(), 1u);
    EXPECT_GE(stats.at("lt.syncs").get<uint64_t>(), 1u);
    // Peak issue: warp instructions / (SMs x schedulers), whole cycles.
    const uint64_t width = uint64_t(config.num_sms) * config.sm.schedulers;
    EXPECT_EQ(stats.at("cycles").get<uint64_t>(), f.warp_instructions / width);
    EXPECT_EQ(stats.at("sm.warp_instructions").get<uint64_t>(), 0u);  // the SMs did not run
  });
}

std::string lt_name(const ::testing::TestParamInfo<LtParam>& info) {
  return all()[std::get<0>(info.param)].name + "_quantum" +
         std::to_string(std::get<1>(info.param)) + "ns";
}

INSTANTIATE_TEST_SUITE_P(All, LtScenario,
                         ::testing::Combine(::testing::Range<size_t>(0, all().size()),
                                            ::testing::Values(0u, 1000u, 100000u, 10000000u)),
                         lt_name);

// A quantum of 0 synchronises after every warp turn; 10 ms, longer than the
// kernel, only at its end (where the interrupt is raised). The cycles do not
// depend on it (checked above for every quantum).
TEST(LtQuantum, SynchronisesAtEveryTurnWithZeroAndOnlyAtTheEndWithALongOne) {
  const Scenario& s = find("bfs");
  const Program program = finalize(parse_ptx(scenario_ptx(s), s.source_dir + "/kernel.ptx"));
  for (uint64_t q : {0ull, 10000000ull}) {
    warptlm::testing::in_child_process([&] {
      PlatformConfig config = preset("small");
      config.coding_style = "lt";
      config.lt.quantum_ns = q;
      LaunchSpec l = s.make_launch(resolve_size(s, "test"), 1);
      RunStats run;
      const nlohmann::json stats = run_timing(program, s.entry, l, config, &run);
      const uint64_t syncs = stats.at("lt.syncs").get<uint64_t>();
      if (q == 0)
        EXPECT_GT(syncs, run.warp_instructions / config.quantum / 2) << "quantum 0";
      else
        EXPECT_EQ(syncs, 1u) << "quantum 10 ms";
    });
  }
}

}  // namespace
}  // namespace warptlm::scenarios
