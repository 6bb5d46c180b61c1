// The host references are real: they accept the result they compute and
// reject a result with one element changed or with outputs never written.
#include <gtest/gtest.h>

#include "scenario.h"

namespace warptlm::scenarios {
namespace {

class ScenarioReference : public ::testing::TestWithParam<size_t> {
 protected:
  const Scenario& scenario() const { return all()[GetParam()]; }
};

TEST_P(ScenarioReference, AcceptsItsOwnResult) {
  const Scenario& s = scenario();
  for (const Size& z : s.sizes) {
    LaunchSpec in = s.make_launch(z.n, 3);
    CheckResult r = s.check(in, s.expected(in));
    EXPECT_TRUE(r.passed) << z.name << ": " << r.message;
  }
}

TEST_P(ScenarioReference, RejectsUnwrittenOutputs) {
  const Scenario& s = scenario();
  LaunchSpec in = s.make_launch(resolve_size(s, "test"), 3);
  CheckResult r = s.check(in, in);  // as if the kernel had stored nothing
  EXPECT_FALSE(r.passed) << r.message;
  EXPECT_FALSE(r.message.empty());
}

TEST_P(ScenarioReference, RejectsOneCorruptedElement) {
  const Scenario& s = scenario();
  LaunchSpec in = s.make_launch(resolve_size(s, "test"), 3);
  LaunchSpec good = s.expected(in);
  ASSERT_EQ(good.buffers.size(), in.buffers.size());
  size_t outputs = 0;
  for (size_t b = 0; b < good.buffers.size(); ++b) {
    if (good.buffers[b].bytes == in.buffers[b].bytes) continue;  // an input
    ++outputs;
    // Flip the lowest bit of a byte in the middle and of the last byte.
    size_t bytes = good.buffers[b].bytes.size();
    for (size_t at : {bytes / 2, bytes - 1}) {
      LaunchSpec bad = good;
      bad.buffers[b].bytes[at] ^= 1;
      CheckResult r = s.check(in, bad);
      EXPECT_FALSE(r.passed) << good.buffers[b].name << " byte " << at << ": " << r.message;
      EXPECT_NE(r.message.find(good.buffers[b].name), std::string::npos) << r.message;
    }
  }
  EXPECT_GT(outputs, 0u) << "the reference wrote no output buffer";
}

std::string scenario_name(const ::testing::TestParamInfo<size_t>& info) {
  return all()[info.param].name;
}

INSTANTIATE_TEST_SUITE_P(All, ScenarioReference, ::testing::Range<size_t>(0, all().size()),
                         scenario_name);

}  // namespace
}  // namespace warptlm::scenarios

namespace warptlm::scenarios {
namespace {

TEST(ReductionReference, RejectsAHandBuiltInputThatIsNotWholeBlocks) {
  const Scenario& s = find("reduction");
  LaunchSpec l = s.make_launch(256, 1);
  l.buffers[0].bytes.resize(255 * 4);
  EXPECT_THROW(s.expected(l), std::invalid_argument);
}

}  // namespace
}  // namespace warptlm::scenarios
