// Every scenario run through the timing model with a write-back L1
// (memory.l1.write_policy = write_back, small preset, ipdom) gives bit-exactly
// the outputs of the functional executor: the write-back traffic is timing
// only, the data is written at issue. Dirty lines are flushed at the end of
// every launch that wrote global memory through the L1.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "common/systemc_child.h"
#include "config/platform_config.h"
#include "exec/functional_executor.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"
#include "gpu/timing_run.h"
#include "scenario.h"

namespace warptlm::scenarios {
namespace {

class L1WriteBackScenario : public ::testing::TestWithParam<size_t> {};

TEST_P(L1WriteBackScenario, MatchesFunctionalRunBitExactly) {
  const Scenario& s = all()[GetParam()];
  warptlm::testing::in_child_process([&] {
    PlatformConfig config = preset("small");
    config.memory.l1.write_policy = "write_back";
    const auto& livelocks = s.livelocks_under;
    if (std::find(livelocks.begin(), livelocks.end(), config.reconvergence) != livelocks.end())
      return;  // covered by test_timing_scenarios (the watchdog ends it)
    Program program = finalize(parse_ptx(scenario_ptx(s), s.source_dir + "/kernel.ptx"));
    LaunchSpec in = s.make_launch(resolve_size(s, "test"), 1);
    LaunchSpec functional = in, timing = in;
    RunStats fstats = run_functional(program, s.entry, functional, config.exec_config());
    RunStats tstats;
    nlohmann::json stats = run_timing(program, s.entry, timing, config, &tstats);
    CheckResult r = s.check(in, timing);
    EXPECT_TRUE(r.passed) << s.name << ": " << r.message;
    // Every scenario writes global memory: its stores leave the SM only as
    // write-backs (evictions, the flush, before an atomic), its atomics go
    // to the L2; and every write-back reaches the L2 as a write.
    const uint64_t writebacks = stats.at("sm.l1_writebacks").get<uint64_t>();
    EXPECT_GT(writebacks + stats.at("l2.atomics").get<uint64_t>(), 0u) << s.name;
    EXPECT_GE(writebacks, stats.at("sm.l1_flush_writebacks").get<uint64_t>());
    EXPECT_GE(stats.at("l2.writes").get<uint64_t>(), writebacks);
    if (s.name == "spinlock") return;  // its outputs record a timing-dependent order
    EXPECT_EQ(tstats.warp_instructions, fstats.warp_instructions);
    EXPECT_EQ(tstats.thread_instructions, fstats.thread_instructions);
    ASSERT_EQ(functional.buffers.size(), timing.buffers.size());
    for (size_t i = 0; i < functional.buffers.size(); ++i)
      EXPECT_TRUE(functional.buffers[i].bytes == timing.buffers[i].bytes)
          << s.name << ": buffer '" << functional.buffers[i].name
          << "' differs between the functional and the timing run";
  });
}

INSTANTIATE_TEST_SUITE_P(AllScenarios, L1WriteBackScenario,
                         ::testing::Range<size_t>(0, all().size()),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                           return all()[info.param].name + "_small_write_back";
                         });

}  // namespace
}  // namespace warptlm::scenarios
