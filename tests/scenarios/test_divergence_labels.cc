// A scenario's divergence labels are borne out by the finalizer's facts about
// its kernel: a programmatic / data label needs a conditional branch of that
// taint, loop-trip a conditional backward branch, unstructured a CFG that is
// not structured.
#include <gtest/gtest.h>

#include <algorithm>

#include "frontend/program.h"
#include "frontend/ptx_parser.h"
#include "scenario.h"

namespace warptlm::scenarios {
namespace {

class ScenarioLabels : public ::testing::TestWithParam<size_t> {};

bool has_conditional(const Program& p, Taint taint) {
  return std::any_of(p.branches.begin(), p.branches.end(),
                     [&](const BranchInfo& b) { return b.conditional && b.taint == taint; });
}

TEST_P(ScenarioLabels, MatchTheFinalizedKernel) {
  const Scenario& s = all()[GetParam()];
  Program p = finalize(parse_ptx(scenario_ptx(s), s.source_dir + "/kernel.ptx"));
  const Function* f = p.module.find_function(s.entry);
  ASSERT_NE(f, nullptr);
  const FunctionCfg& cfg = p.cfgs[f - p.module.functions.data()];
  for (Divergence d : s.divergence) {
    SCOPED_TRACE(divergence_name(d));
    switch (d) {
      case Divergence::None:
        break;
      case Divergence::Programmatic:
        EXPECT_TRUE(has_conditional(p, Taint::Programmatic));
        break;
      case Divergence::Data:
        EXPECT_TRUE(has_conditional(p, Taint::DataDependent));
        break;
      case Divergence::LoopTrip:
        EXPECT_TRUE(std::any_of(p.branches.begin(), p.branches.end(), [](const BranchInfo& b) {
          return b.conditional && b.target <= b.pc;
        }));
        break;
      case Divergence::Unstructured:
        EXPECT_FALSE(cfg.structured);
        break;
    }
  }
}

std::string scenario_name(const ::testing::TestParamInfo<size_t>& info) {
  return all()[info.param].name;
}

INSTANTIATE_TEST_SUITE_P(All, ScenarioLabels, ::testing::Range<size_t>(0, all().size()),
                         scenario_name);

}  // namespace
}  // namespace warptlm::scenarios
