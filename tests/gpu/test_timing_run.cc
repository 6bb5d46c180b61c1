// run_timing: the standalone platform matches run_functional bit-exactly,
// reports consistent statistics, throws the functional executor's errors,
// writes a VCD on request and refuses a second run in one process.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "common/systemc_child.h"
#include "common/temp_path.h"
#include "exec/functional_executor.h"
#include "gpu/timing_run.h"
#include "gpu_test_kernels.h"

namespace warptlm {
namespace {

using testing::in_child_process;

void expect_matches_functional(const std::string& preset_name, uint32_t ctas) {
  SCOPED_TRACE(preset_name);
  const Program program = testing::program_of(testing::kReduceKernel);
  const PlatformConfig config = preset(preset_name);
  LaunchSpec functional = testing::reduce_launch(ctas);
  const RunStats expected = run_functional(program, "reduce", functional, config.exec_config());
  ASSERT_EQ(testing::u32_values(functional.buffers[1]), testing::reduce_expected(ctas));
  in_child_process([&] {
    LaunchSpec timed = testing::reduce_launch(ctas);
    RunStats got;
    nlohmann::json stats = run_timing(program, "reduce", timed, config, &got);
    EXPECT_EQ(timed.buffers[1].bytes, functional.buffers[1].bytes);  // bit-exact output
    EXPECT_EQ(timed.buffers[0].bytes, functional.buffers[0].bytes);  // input untouched
    EXPECT_EQ(got.warp_instructions, expected.warp_instructions);
    EXPECT_EQ(got.thread_instructions, expected.thread_instructions);
    EXPECT_EQ(got.branches, expected.branches);
    EXPECT_EQ(got.divergent_branches, expected.divergent_branches);
    EXPECT_EQ(got.ctas, ctas);
    EXPECT_EQ(got.warps, 2u * ctas);  // 64 threads = 2 warps of 32
    EXPECT_EQ(got.warp_size, 32u);

    // The flat statistics agree with themselves.
    const uint64_t cycles = stats["cycles"].get<uint64_t>();
    const uint64_t wi = stats["warp_instructions"].get<uint64_t>();
    EXPECT_GT(cycles, 0u);
    EXPECT_EQ(stats["busy_cycles"].get<uint64_t>(), cycles);  // one launch
    EXPECT_EQ(wi, expected.warp_instructions);
    EXPECT_DOUBLE_EQ(stats["ipc"].get<double>(), double(wi) / double(cycles));
    EXPECT_DOUBLE_EQ(stats["simd_utilisation"].get<double>(), expected.simd_utilisation());
    EXPECT_EQ(stats["sm.warp_instructions"].get<uint64_t>(), wi);
    uint64_t per_sm = 0;
    for (unsigned i = 0; i < config.num_sms; ++i)
      per_sm += stats["sm" + std::to_string(i) + ".warp_instructions"].get<uint64_t>();
    EXPECT_EQ(per_sm, wi);
    EXPECT_EQ(stats["occupancy.ctas_dispatched"].get<uint64_t>(), ctas);
    EXPECT_GT(stats["l2.reads"].get<uint64_t>(), 0u);
    EXPECT_GT(stats["dram.reads"].get<uint64_t>(), 0u);
    EXPECT_GT(stats["interconnect.requests"].get<uint64_t>(), 0u);
  });
}

TEST(TimingRun, MatchesTheFunctionalExecutorOnSmall) { expect_matches_functional("small", 9); }

TEST(TimingRun, MatchesTheFunctionalExecutorOnFermi) { expect_matches_functional("fermi", 40); }

// The message run_functional gives for `launch`, or "" when it accepts it.
std::string functional_error(const Program& program, const std::string& entry, LaunchSpec launch) {
  try {
    run_functional(program, entry, launch);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(TimingRun, BadLaunchesThrowWhatRunFunctionalThrows) {
  const Program program = testing::program_of(testing::kReduceKernel);
  LaunchSpec wrong_args = testing::reduce_launch(2);
  wrong_args.args.pop_back();
  LaunchSpec zero_grid = testing::reduce_launch(2);
  zero_grid.grid.x = 0;
  const std::pair<std::string, LaunchSpec> cases[] = {
      {"nope", testing::reduce_launch(2)}, {"reduce", wrong_args}, {"reduce", zero_grid}};
  for (const auto& [entry, launch] : cases) {
    const std::string expected = functional_error(program, entry, launch);
    ASSERT_FALSE(expected.empty());
    in_child_process([&] {
      LaunchSpec l = launch;
      try {
        run_timing(program, entry, l, preset("small"));
        ADD_FAILURE() << "no exception";
      } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()), expected);
      }
    });
  }
}

TEST(TimingRun, ACtaThatNeverFitsIsABadLaunch) {
  in_child_process([] {
    const Program program = testing::program_of(testing::kGpuKernels);
    LaunchSpec l;
    l.block = Dim3{512, 1, 1};
    try {
      PlatformConfig config = preset("small");
      config.sm.max_registers_per_thread = 255;  // charge all 100 declared registers
      run_timing(program, "hungry", l, config);
      ADD_FAILURE() << "no exception";
    } catch (const std::invalid_argument& e) {
      EXPECT_STREQ(e.what(),
                   "launch: kernel 'hungry' with block (512,1,1): a CTA needs 51200 registers "
                   "(100 per thread x 512 threads), an SM has 32768 (sm.registers)");
    }
  });
}

TEST(TimingRun, AKernelFaultThrowsKernelFault) {
  in_child_process([] {
    const Program program = testing::program_of(testing::kGpuKernels);
    LaunchSpec l;
    try {
      run_timing(program, "crash", l, preset("small"));
      ADD_FAILURE() << "no exception";
    } catch (const KernelFault& f) {
      EXPECT_EQ(f.site.kernel, "crash");
      EXPECT_TRUE(f.site.has_address);
      EXPECT_EQ(f.site.address, 0u);
    }
  });
}

TEST(TimingRun, WritesAVcdAndRunsOncePerProcess) {
  const std::string path = warptlm::testing::temp_path("gpu_test_timing.vcd");
  std::remove(path.c_str());
  in_child_process([&] {
    const Program program = testing::program_of(testing::kReduceKernel);
    LaunchSpec l = testing::reduce_launch(3);
    TimingOptions options;
    options.vcd_path = path;
    run_timing(program, "reduce", l, preset("small"), nullptr, nullptr, options);
    EXPECT_EQ(testing::u32_values(l.buffers[1]), testing::reduce_expected(3));
    try {
      run_timing(program, "reduce", l, preset("small"));
      ADD_FAILURE() << "no exception";
    } catch (const std::logic_error& e) {
      EXPECT_NE(std::string(e.what()).find("once per process"), std::string::npos) << e.what();
    }
  });
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << path;
  std::stringstream text;
  text << in.rdbuf();
  // sc_trace turns the dotted names into scopes: gpu { irq status running sm0 { resident_ctas } }.
  for (const char* line : {"$scope module gpu $end", "irq", "status", "running",
                           "$scope module sm0 $end", "$scope module sm1 $end", "resident_ctas"})
    EXPECT_NE(text.str().find(line), std::string::npos) << line;
  std::remove(path.c_str());
}

}  // namespace
}  // namespace warptlm
