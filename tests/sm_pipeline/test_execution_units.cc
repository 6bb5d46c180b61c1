// Execution pipelines: unit counts, initiation intervals, latencies and passes
// with exact cycles.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "sm/pipeline/execution_units.h"

namespace warptlm {
namespace {

// SP: 2 units, latency 4, one instruction per cycle; SFU: 1 unit, latency 20,
// a new instruction every 8 cycles; LD/ST: 1 unit, latency 1, interval 1.
const PipelineParams kParams[kUnitKinds] = {{2, 4, 1}, {1, 20, 8}, {1, 1, 1}};

TEST(ExecutionUnits, UnitCountLimitsIssuePerCycle) {
  ExecutionUnits u(kParams, 1);
  EXPECT_TRUE(u.can_issue(UnitKind::Sp, 0));
  EXPECT_EQ(u.issue(UnitKind::Sp, 0), 4u);    // 0 + latency 4 + passes 1 - 1
  EXPECT_TRUE(u.can_issue(UnitKind::Sp, 0));  // the second unit
  EXPECT_EQ(u.issue(UnitKind::Sp, 0), 4u);
  EXPECT_FALSE(u.can_issue(UnitKind::Sp, 0));
  EXPECT_EQ(u.next_free(UnitKind::Sp), 1u);  // occupied max(interval 1, passes 1) = 1 cycle
  EXPECT_TRUE(u.can_issue(UnitKind::Sp, 1));
  EXPECT_EQ(u.issue(UnitKind::Sp, 1), 5u);
  // The kinds are independent.
  EXPECT_TRUE(u.can_issue(UnitKind::LdSt, 0));
  EXPECT_EQ(u.issue(UnitKind::LdSt, 0), 1u);
}

TEST(ExecutionUnits, InitiationIntervalSpacesIssues) {
  ExecutionUnits u(kParams, 1);
  EXPECT_EQ(u.issue(UnitKind::Sfu, 0), 20u);
  EXPECT_FALSE(u.can_issue(UnitKind::Sfu, 7));
  EXPECT_EQ(u.next_free(UnitKind::Sfu), 8u);
  EXPECT_TRUE(u.can_issue(UnitKind::Sfu, 8));
  EXPECT_EQ(u.issue(UnitKind::Sfu, 8), 28u);
  try {
    u.issue(UnitKind::Sfu, 9);
    ADD_FAILURE() << "issued to a busy SFU";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("sfu"), std::string::npos) << e.what();
  }
  EXPECT_EQ(u.next_free(UnitKind::Sfu), 16u);  // the failed issue changed nothing
}

TEST(ExecutionUnits, NarrowSimdTakesSeveralPasses) {
  // Warp 32 on SIMD width 8: 4 passes.
  const unsigned passes = pipeline_passes(32, 8);
  ASSERT_EQ(passes, 4u);
  const PipelineParams one_sp[kUnitKinds] = {{1, 4, 1}, {1, 20, 8}, {1, 1, 1}};
  ExecutionUnits u(one_sp, passes);
  // The last pass enters at 3 and leaves 4 cycles later: 0 + 4 + 4 - 1 = 7.
  EXPECT_EQ(u.issue(UnitKind::Sp, 0), 7u);
  EXPECT_FALSE(u.can_issue(UnitKind::Sp, 3));  // busy for max(interval 1, 4 passes) = 4 cycles
  EXPECT_EQ(u.next_free(UnitKind::Sp), 4u);
  // SFU: 0 + 20 + 3 = 23; the interval 8 exceeds the 4 passes.
  EXPECT_EQ(u.issue(UnitKind::Sfu, 0), 23u);
  EXPECT_EQ(u.next_free(UnitKind::Sfu), 8u);
}

TEST(ExecutionUnits, PassesRoundUp) {
  EXPECT_EQ(pipeline_passes(32, 32), 1u);
  EXPECT_EQ(pipeline_passes(32, 24), 2u);
  EXPECT_EQ(pipeline_passes(16, 32), 1u);
  EXPECT_EQ(pipeline_passes(64, 16), 4u);
  EXPECT_THROW(pipeline_passes(0, 32), std::invalid_argument);
  EXPECT_THROW(pipeline_passes(32, 0), std::invalid_argument);
}

TEST(ExecutionUnits, ErrorsNameTheParameter) {
  auto error = [](const PipelineParams(&p)[kUnitKinds], unsigned passes) -> std::string {
    try {
      ExecutionUnits u(p, passes);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  const PipelineParams no_sfu_interval[kUnitKinds] = {{1, 1, 1}, {1, 1, 0}, {1, 1, 1}};
  EXPECT_EQ(error(no_sfu_interval, 1).rfind("params[sfu].interval", 0), 0u);
  const PipelineParams no_ldst[kUnitKinds] = {{1, 1, 1}, {1, 1, 1}, {0, 1, 1}};
  EXPECT_EQ(error(no_ldst, 1).rfind("params[ldst].units", 0), 0u);
  const PipelineParams no_latency[kUnitKinds] = {{1, 0, 1}, {1, 1, 1}, {1, 1, 1}};
  EXPECT_EQ(error(no_latency, 1).rfind("params[sp].latency", 0), 0u);
  EXPECT_EQ(error(kParams, 0).rfind("passes", 0), 0u);
}

TEST(ExecutionUnits, ResetFreesEveryUnit) {
  ExecutionUnits u(kParams, 1);
  u.issue(UnitKind::Sfu, 100);
  u.reset();
  EXPECT_TRUE(u.can_issue(UnitKind::Sfu, 0));
  EXPECT_EQ(u.params(UnitKind::Sfu).latency, 20u);
  EXPECT_EQ(u.passes(), 1u);
}

}  // namespace
}  // namespace warptlm
