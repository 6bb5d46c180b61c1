// The exec-mask lowering run end to end in the functional executor: every
// scenario's program lowered (reconverging CFG, re-join masks, intents) and
// run by ExecMaskUnit under a scheme registered here for the test (the
// exec_mask scheme itself is not registered until it is wired into every
// run path) matches its host reference at warp sizes 8 and 32.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "common/systemc_child.h"
#include "config/platform_config.h"
#include "exec/functional_executor.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"
#include "gpu/timing_run.h"
#include "reconverge/exec_mask_lowering.h"
#include "scenario.h"
#include "simt/exec_mask_unit.h"
#include "simt/reconvergence_unit.h"

namespace warptlm::scenarios {
namespace {

const char* const kScheme = "exec_mask_lowered_test";

std::unique_ptr<ReconvergenceUnit> make_exec_mask(unsigned, const ComponentOptions&) {
  return std::make_unique<ExecMaskUnit>();
}

const bool registered = [] {
  register_reconvergence(kScheme, &make_exec_mask, false, "exec-mask warp (test)");
  return true;
}();

Program lowered(const Scenario& s, ExecMaskLowering* info = nullptr) {
  const Program plain = finalize(parse_ptx(scenario_ptx(s), s.source_dir + "/kernel.ptx"));
  ExecMaskLowering l = lower_exec_masks(plain);
  if (info) {
    info->flow_blocks = l.flow_blocks;
    info->mask_instructions = l.mask_instructions;
  }
  return finalize(std::move(l.module));
}

// An if-else: the then side (B2) runs first while the else side's lanes wait
// for flow0; flow0 sends them to B1 and defers the then side's for the join B3.
TEST(ExecMaskLowering, AnIfElseBecomesDeferJoinAndAFlowBlock) {
  const Program plain = finalize(parse_ptx(R"(.version 7.0
.target sm_70
.address_size 64
.visible .entry diverge(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  setp.lt.s32 %p1, %r1, 12;
  @%p1 bra THEN;
  neg.s32 %r5, %r1;
  bra.uni JOIN;
THEN:
  mul.lo.s32 %r5, %r1, 3;
JOIN:
  mul.wide.s32 %rd3, %r1, 4;
  add.s64 %rd3, %rd2, %rd3;
  st.global.u32 [%rd3], %r5;
  ret;
}
)",
                                           "ifelse.ptx"));
  const ExecMaskLowering l = lower_exec_masks(plain);
  EXPECT_EQ(l.flow_blocks, 1u);
  std::vector<std::string> text;
  for (const Instruction& in : l.module.code) text.push_back(in.text);
  const std::vector<std::string> expected = {
      "ld.param.u64 %rd1, [out]", "cvta.to.global.u64 %rd2, %rd1", "mov.u32 %r1, %tid.x",
      "setp.lt.s32 %p1, %r1, 12",
      // B0's end: the else side (B1, through flow0) waits in mask 0.
      "mov.u32 %emask.intent, 1", "@!%p1 emask.defer 0", "emask.branchz flow0", "bra.uni B2",
      "neg.s32 %r5, %r1", "bra.uni B3",                                       // B1 (else)
      "mul.lo.s32 %r5, %r1, 3", "mov.u32 %emask.intent, 3", "bra.uni flow0",  // B2 (then)
      "emask.join 1", "mul.wide.s32 %rd3, %r1, 4", "add.s64 %rd3, %rd2, %rd3",
      "st.global.u32 [%rd3], %r5", "bra.uni exit",  // B3 (join)
      "emask.join 0", "setp.eq.u32 %emask.route, %emask.intent, 3", "@%emask.route emask.defer 1",
      "emask.branchz B3", "bra.uni B1",  // flow0
      "ret"};                            // the exit
  EXPECT_EQ(text, expected);
  EXPECT_EQ(l.mask_instructions, 15u);  // 24 instructions, 9 of them original
  // Labels land on the lowered blocks: the join of B3 first.
  const Function& f = l.module.functions[0];
  EXPECT_EQ(l.module.at(f.labels.at("JOIN")).text, "emask.join 1");
  EXPECT_EQ(l.module.at(f.labels.at("THEN")).text, "mul.lo.s32 %r5, %r1, 3");
}

class ExecMaskRun : public ::testing::TestWithParam<std::tuple<size_t, unsigned>> {};

TEST_P(ExecMaskRun, MatchesTheHostReference) {
  ASSERT_TRUE(registered);
  const Scenario& s = all()[std::get<0>(GetParam())];
  const auto& l = s.livelocks_under;
  if (std::find(l.begin(), l.end(), "ipdom") != l.end())
    GTEST_SKIP() << s.name << " livelocks under one path at a time";
  ExecMaskLowering info;
  const Program program = lowered(s, &info);
  // What remains of branches is uniform; divergence is exec-mask code.
  size_t emask = 0;
  for (const Instruction& in : program.module.code) {
    if (in.op == Opcode::Bra && in.has_guard) {
      EXPECT_TRUE(in.uni) << in.text;
    }
    emask += in.op == Opcode::EmaskDefer || in.op == Opcode::EmaskJoin;
  }
  EXPECT_LE(emask, info.mask_instructions);
  for (uint64_t n : {resolve_size(s, "test"), s.min_n}) {
    const LaunchSpec in = s.make_launch(n, 1);
    LaunchSpec out = in;
    ExecConfig config;
    config.warp_size = std::get<1>(GetParam());
    config.reconvergence = kScheme;
    run_functional(program, s.entry, out, config);
    const CheckResult r = s.check(in, out);
    EXPECT_TRUE(r.passed) << s.name << " n=" << n << ": " << r.message;
  }
}

TEST_P(ExecMaskRun, TimingRunMatchesTheFunctionalRunBitExactly) {
  const Scenario& s = all()[std::get<0>(GetParam())];
  const auto& l = s.livelocks_under;
  if (std::find(l.begin(), l.end(), "ipdom") != l.end() || s.name == "spinlock")
    GTEST_SKIP() << s.name << ": no bit-exact reference";
  const Program program = lowered(s);
  warptlm::testing::in_child_process([&] {
    PlatformConfig config = preset(std::get<1>(GetParam()) == 8 ? "small" : "fermi");
    config.reconvergence = kScheme;
    const LaunchSpec in = s.make_launch(resolve_size(s, "test"), 1);
    LaunchSpec functional = in, timing = in;
    const RunStats fstats = run_functional(program, s.entry, functional, config.exec_config());
    RunStats tstats;
    run_timing(program, s.entry, timing, config, &tstats);
    EXPECT_TRUE(s.check(in, timing).passed) << s.name;
    EXPECT_EQ(tstats.warp_instructions, fstats.warp_instructions);
    EXPECT_EQ(tstats.thread_instructions, fstats.thread_instructions);
    for (size_t i = 0; i < functional.buffers.size(); ++i)
      EXPECT_TRUE(functional.buffers[i].bytes == timing.buffers[i].bytes)
          << s.name << ": buffer " << functional.buffers[i].name;
  });
}

INSTANTIATE_TEST_SUITE_P(Scenarios, ExecMaskRun,
                         ::testing::Combine(::testing::Range<size_t>(0, all().size()),
                                            ::testing::Values(8u, 32u)),
                         [](const auto& info) {
                           return all()[std::get<0>(info.param)].name + "_w" +
                                  std::to_string(std::get<1>(info.param));
                         });

}  // namespace
}  // namespace warptlm::scenarios
