// Every scenario, run through the parser, finalizer and functional executor
// at warp sizes 8 and 32 under every registered reconvergence scheme, matches
// its host reference. A newly registered scheme is picked up automatically.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>

#include "exec/functional_executor.h"
#include "exec/prepared_program.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"
#include "scenario.h"
#include "simt/reconvergence_unit.h"

namespace warptlm::scenarios {
namespace {

// index into all(), warp size, index into reconvergence_names()
using RunParam = std::tuple<size_t, unsigned, size_t>;

class ScenarioRun : public ::testing::TestWithParam<RunParam> {
 protected:
  const Scenario& scenario() const { return all()[std::get<0>(GetParam())]; }
  unsigned warp_size() const { return std::get<1>(GetParam()); }
  std::string scheme() const { return reconvergence_names()[std::get<2>(GetParam())]; }

  // Runs the scenario at size n and returns the statistics; fails the test
  // when the outputs differ from the host reference.
  RunStats run_and_check(uint64_t n, uint64_t seed) {
    const Scenario& s = scenario();
    Program program =
        prepare_program(parse_ptx(scenario_ptx(s), s.source_dir + "/kernel.ptx"), scheme());
    LaunchSpec in = s.make_launch(n, seed);
    LaunchSpec out = in;
    ExecConfig config;
    config.warp_size = warp_size();
    config.reconvergence = scheme();
    RunStats stats = run_functional(program, s.entry, out, config);
    CheckResult r = s.check(in, out);
    EXPECT_TRUE(r.passed) << s.name << " (" << scheme() << ") n=" << n << " seed=" << seed << ": "
                          << r.message;
    return stats;
  }

  // Whether the scenario lists the scheme as one it livelocks under.
  bool livelocks() const {
    const auto& l = scenario().livelocks_under;
    return std::find(l.begin(), l.end(), scheme()) != l.end();
  }

  // Runs the scenario at size n expecting the executor's watchdog to end it.
  void expect_runaway(uint64_t n, uint64_t seed) {
    const Scenario& s = scenario();
    Program program =
        prepare_program(parse_ptx(scenario_ptx(s), s.source_dir + "/kernel.ptx"), scheme());
    LaunchSpec out = s.make_launch(n, seed);
    ExecConfig config;
    config.warp_size = warp_size();
    config.reconvergence = scheme();
    config.instruction_budget = 2000000;
    try {
      run_functional(program, s.entry, out, config);
      ADD_FAILURE() << s.name << " (" << scheme() << ") n=" << n << " finished; it is listed "
                    << "in livelocks_under";
    } catch (const KernelFault& f) {
      EXPECT_NE(std::string(f.what()).find("runaway kernel"), std::string::npos) << f.what();
    }
  }
};

TEST_P(ScenarioRun, TestSizeMatchesReferenceAndDiverges) {
  const Scenario& s = scenario();
  if (livelocks()) {
    expect_runaway(resolve_size(s, "test"), 1);
    return;
  }
  RunStats stats = run_and_check(resolve_size(s, "test"), 1);
  EXPECT_GT(stats.thread_instructions, 0u);
  // Every scenario is here for its divergence: it must actually diverge.
  EXPECT_GT(stats.divergent_branches, 0u);
  EXPECT_LT(stats.simd_utilisation(), 1.0);
}

TEST_P(ScenarioRun, SmallestSizeMatchesReference) { run_and_check(scenario().min_n, 2); }

std::string run_name(const ::testing::TestParamInfo<RunParam>& info) {
  return all()[std::get<0>(info.param)].name + "_warp" + std::to_string(std::get<1>(info.param)) +
         "_" + reconvergence_names()[std::get<2>(info.param)];
}

INSTANTIATE_TEST_SUITE_P(
    All, ScenarioRun,
    ::testing::Combine(::testing::Range<size_t>(0, all().size()), ::testing::Values(8u, 32u),
                       ::testing::Range<size_t>(0, reconvergence_names().size())),
    run_name);

}  // namespace
}  // namespace warptlm::scenarios
