// The exec-mask lowering run end to end: every scenario's program prepared
// for scheme exec_mask (reconverging CFG, re-join masks, intents) matches its
// host reference at warp sizes 16 and 64 (the scenario suites run every
// scheme at 8 and 32, and in timing mode on the small preset), its timing run
// on the fermi preset matches the functional run bit for bit, and the run
// statistics count the lowering's blocks and instructions.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "common/systemc_child.h"
#include "config/platform_config.h"
#include "exec/functional_executor.h"
#include "exec/prepared_program.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"
#include "gpu/timing_run.h"
#include "reconverge/exec_mask_lowering.h"
#include "reconverge/reconverging_cfg.h"
#include "scenario.h"
#include "simt/reconvergence_unit.h"

namespace warptlm::scenarios {
namespace {

const char* const kScheme = "exec_mask";

Program lowered(const Scenario& s) {
  return prepare_program(parse_ptx(scenario_ptx(s), s.source_dir + "/kernel.ptx"), kScheme);
}

bool skipped(const Scenario& s) {
  const auto& l = s.livelocks_under;
  return std::find(l.begin(), l.end(), kScheme) != l.end();
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

// A kernel whose bra.uni is not uniform: lanes below 12 branch.
const char* const kLyingUniformBranch = R"(.version 7.0
.target sm_70
.address_size 64
.visible .entry lying(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r5, 1;
  setp.lt.s32 %p1, %r1, 12;
  @%p1 bra.uni SKIP;
  mov.u32 %r5, 2;
SKIP:
  mul.wide.s32 %rd3, %r1, 4;
  add.s64 %rd3, %rd2, %rd3;
  st.global.u32 [%rd3], %r5;
  ret;
}
)";

LaunchSpec sixteen_threads() {
  LaunchSpec l;
  l.grid = {1, 1, 1};
  l.block = {16, 1, 1};
  HostBuffer out;
  out.name = "out";
  out.bytes.assign(16 * 4, 0);
  l.buffers.push_back(out);
  l.args.push_back(KernelArg::buffer_arg(0));
  return l;
}

TEST(ExecMaskScheme, ABraUniWhoseLanesDisagreeIsAKernelFaultAtTheBranch) {
  const Program program = prepare_program(parse_ptx(kLyingUniformBranch, "lying.ptx"), kScheme);
  LaunchSpec l = sixteen_threads();
  ExecConfig config;
  config.reconvergence = kScheme;
  try {
    run_functional(program, "lying", l, config);
    FAIL() << "no fault";
  } catch (const KernelFault& f) {
    const std::string what = f.what();
    EXPECT_NE(what.find("lying"), std::string::npos) << what;
    EXPECT_NE(what.find("bra.uni"), std::string::npos) << what;
    EXPECT_NE(what.find("its lanes must agree"), std::string::npos) << what;
  }
  // Under a hardware scheme .uni is only a hint: the same kernel runs.
  const Program plain = prepare_program(parse_ptx(kLyingUniformBranch, "lying.ptx"), "ipdom");
  l = sixteen_threads();
  config.reconvergence = "ipdom";
  run_functional(plain, "lying", l, config);
  EXPECT_EQ(l.buffers[0].bytes[0], 1);
  EXPECT_EQ(l.buffers[0].bytes[15 * 4], 2);
}

TEST(ExecMaskScheme, EachSchemeRefusesAProgramPreparedForAnother) {
  const Module m = parse_ptx(kLyingUniformBranch, "lying.ptx");
  const Program plain = prepare_program(m, "ipdom");
  const Program marked = prepare_program(m, "ppc_explicit");
  const Program masked = prepare_program(m, kScheme);
  EXPECT_EQ(program_form(plain), ProgramForm::Plain);
  EXPECT_EQ(program_form(marked), ProgramForm::Markers);
  EXPECT_EQ(program_form(masked), ProgramForm::ExecMask);
  EXPECT_EQ(masked.module.flow_blocks, 0u);  // an if-then needs no flow block
  auto message = [](const Program& p, const std::string& scheme) -> std::string {
    try {
      check_program_form(p, scheme);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(message(plain, "ipdom"), "");
  EXPECT_EQ(message(marked, "ppc_explicit"), "");
  EXPECT_EQ(message(masked, kScheme), "");
  EXPECT_NE(message(plain, kScheme).find("runs programs lowered to exec masks, but lying.ptx"),
            std::string::npos);
  EXPECT_NE(message(masked, "ipdom").find("which was lowered to exec masks"), std::string::npos);
  EXPECT_NE(message(plain, "ppc_explicit").find("needs the finalizer's reconvergence markers"),
            std::string::npos);
  EXPECT_NE(message(plain, "ppc_explicit").find("prepare_program(module, \"ppc_explicit\")"),
            std::string::npos);
  // The executor checks before it runs.
  LaunchSpec l = sixteen_threads();
  ExecConfig config;
  config.reconvergence = "ipdom";
  EXPECT_THROW(run_functional(masked, "lying", l, config), std::invalid_argument);
}

TEST(ExecMaskScheme, AKernelThatCannotReconvergeIsRefusedNamingFileFunctionAndBlock) {
  const Module m = parse_ptx(R"(.version 7.0
.target sm_70
.address_size 64
.visible .entry spin()
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 ret;
LOOP:
  bra.uni LOOP;
}
)",
                             "spin.ptx");
  try {
    prepare_program(m, kScheme);
    FAIL() << "no error";
  } catch (const CfgError& e) {
    EXPECT_STREQ(e.what(),
                 "spin.ptx: compiler-side reconvergence (exec_mask): function spin: B1 cannot "
                 "reach the exit (an infinite loop): its lanes would never reconverge");
  }
  EXPECT_NO_THROW(prepare_program(m, "ipdom"));  // the hardware schemes run it (until the watchdog)
}

class ExecMaskRun : public ::testing::TestWithParam<std::tuple<size_t, unsigned>> {};

TEST_P(ExecMaskRun, MatchesTheHostReferenceAndCountsTheLowering) {
  const Scenario& s = all()[std::get<0>(GetParam())];
  if (skipped(s)) GTEST_SKIP() << s.name << " livelocks under exec_mask";
  const Program program = lowered(s);
  EXPECT_EQ(program_form(program), ProgramForm::ExecMask);
  // What remains of branches is uniform (bra.uni, or found uniform: one
  // whose lanes disagreed would fault the run); divergence is exec-mask code.
  uint64_t written = 0;
  for (const Instruction& in : program.module.code) {
    if (in.op == Opcode::EmaskDefer || in.op == Opcode::EmaskJoin ||
        in.op == Opcode::EmaskBranchz) {
      EXPECT_TRUE(in.lowered) << in.text;
    }
    written += in.lowered;
  }
  for (uint64_t n : {resolve_size(s, "test"), s.min_n}) {
    const LaunchSpec in = s.make_launch(n, 1);
    LaunchSpec out = in;
    ExecConfig config;
    config.warp_size = std::get<1>(GetParam());
    config.reconvergence = kScheme;
    const RunStats stats = run_functional(program, s.entry, out, config);
    const CheckResult r = s.check(in, out);
    EXPECT_TRUE(r.passed) << s.name << " n=" << n << ": " << r.message;
    EXPECT_EQ(stats.mask_instructions_static, written);
    EXPECT_EQ(stats.flow_blocks, program.module.flow_blocks);
    // Every warp at least runs the exit block's ret, which the lowering wrote.
    EXPECT_GE(stats.mask_instructions, stats.warps);
    EXPECT_LT(stats.mask_instructions, stats.warp_instructions);
  }
}

class ExecMaskTiming : public ::testing::TestWithParam<size_t> {};

TEST_P(ExecMaskTiming, OnFermiMatchesTheFunctionalRunBitExactly) {
  const Scenario& s = all()[GetParam()];
  if (skipped(s) || s.name == "spinlock")
    GTEST_SKIP() << s.name << ": no bit-exact reference (test_timing_scenarios.cc)";
  const Program program = lowered(s);
  warptlm::testing::in_child_process([&] {
    PlatformConfig config = preset("fermi");
    config.reconvergence = kScheme;
    const LaunchSpec in = s.make_launch(resolve_size(s, "test"), 1);
    LaunchSpec functional = in, timing = in;
    const RunStats fstats = run_functional(program, s.entry, functional, config.exec_config());
    RunStats tstats;
    run_timing(program, s.entry, timing, config, &tstats);
    EXPECT_TRUE(s.check(in, timing).passed) << s.name;
    EXPECT_EQ(tstats.warp_instructions, fstats.warp_instructions);
    EXPECT_EQ(tstats.thread_instructions, fstats.thread_instructions);
    EXPECT_EQ(tstats.mask_instructions, fstats.mask_instructions);
    EXPECT_EQ(tstats.flow_blocks, fstats.flow_blocks);
    EXPECT_EQ(tstats.mask_instructions_static, fstats.mask_instructions_static);
    for (size_t i = 0; i < functional.buffers.size(); ++i)
      EXPECT_TRUE(functional.buffers[i].bytes == timing.buffers[i].bytes)
          << s.name << ": buffer " << functional.buffers[i].name;
  });
}

INSTANTIATE_TEST_SUITE_P(Scenarios, ExecMaskTiming, ::testing::Range<size_t>(0, all().size()),
                         [](const auto& info) { return all()[info.param].name; });

INSTANTIATE_TEST_SUITE_P(Scenarios, ExecMaskRun,
                         ::testing::Combine(::testing::Range<size_t>(0, all().size()),
                                            ::testing::Values(16u, 64u)),
                         [](const auto& info) {
                           return all()[std::get<0>(info.param)].name + "_w" +
                                  std::to_string(std::get<1>(info.param));
                         });

}  // namespace
}  // namespace warptlm::scenarios
