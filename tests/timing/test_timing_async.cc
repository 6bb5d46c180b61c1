// cp.async, mbarrier and function pointers in the timing model
// (tests/data/ptx/async, tests/data/ptx/fnptr): the results equal the
// functional run's in AT and LT, and cp.async.wait_all holds its warp until
// the copy has come back from memory.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/async_launches.h"
#include "common/systemc_child.h"
#include "common/texture_launches.h"
#include "config/platform_config.h"
#include "exec/functional_executor.h"
#include "exec/prepared_program.h"
#include "frontend/ptx_parser.h"
#include "gpu/timing_run.h"

namespace warptlm {
namespace {
using namespace warptlm::testing;

const std::string kData = std::string(WARPTLM_TEST_DATA) + "/ptx/";

LaunchSpec staged_launch() { return staged_copy_launch(3, 5); }
LaunchSpec reduce_launch() { return barrier_reduce_launch(3); }

LaunchSpec fold_launch() {
  const int rows = 64, row = 7;
  std::vector<int32_t> in(size_t(rows) * row);
  for (size_t i = 0; i < in.size(); ++i) in[i] = int32_t(i * 5 % 23) - 9;
  LaunchSpec l;
  l.grid = {2, 1, 1};
  l.block = {32, 1, 1};
  l.buffers = {typed_buffer("in", in), typed_buffer("out", std::vector<int32_t>(rows, -1))};
  l.args = {KernelArg::buffer_arg(0), KernelArg::buffer_arg(1),
            KernelArg::scalar(Type::S32, uint32_t(row)), KernelArg::scalar(Type::S32, 1)};
  return l;
}

void expect_timing_equals_functional(const std::string& file, const std::string& kernel,
                                     LaunchSpec (*make)()) {
  for (const char* coding : {"at", "lt"}) {
    SCOPED_TRACE(kernel + " " + coding);
    in_child_process([&] {
      const Module m = parse_ptx_file(kData + file);
      const Program p = prepare_program(m, "ipdom");
      PlatformConfig config = preset("small");
      config.coding_style = coding;
      LaunchSpec functional = make(), timing = make();
      run_functional(p, kernel, functional, config.exec_config());
      const nlohmann::json stats = run_timing(p, kernel, timing, config);
      for (size_t i = 0; i < functional.buffers.size(); ++i)
        EXPECT_TRUE(functional.buffers[i].bytes == timing.buffers[i].bytes) << "buffer " << i;
      EXPECT_GT(stats.at("cycles").get<uint64_t>(), 0u);
    });
  }
}

TEST(TimingAsync, ACpAsyncPipelineMatchesTheFunctionalRun) {
  expect_timing_equals_functional("async/async.sm80.ptx", "staged_copy", staged_launch);
}

TEST(TimingAsync, AnMbarrierReductionMatchesTheFunctionalRun) {
  expect_timing_equals_functional("async/async.sm80.ptx", "barrier_reduce", reduce_launch);
}

TEST(TimingAsync, CallsThroughFunctionPointersMatchTheFunctionalRun) {
  expect_timing_equals_functional("fnptr/fnptr.sm75.ptx", "fold_rows", fold_launch);
}

// %clock64 around cp.async.wait_all (or around nothing): the wait lasts at
// least the L1 miss's trip to memory, the plain commit does not wait.
uint64_t cycles_around(bool wait) {
  const std::string ptx =
      ".version 7.0\n.target sm_80\n.address_size 64\n"
      ".visible .entry k(.param .u64 in, .param .u64 out) {\n"
      ".shared .align 16 .b8 s[512];\n.reg .b64 %rd<8>;\n.reg .b32 %r<4>;\n"
      "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\n"
      "mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 2;\n"
      "cvt.u64.u32 %rd3, %r2;\nadd.u64 %rd4, %rd1, %rd3;\n"
      "mov.u32 %r3, s;\nadd.u32 %r3, %r3, %r2;\n"
      "cp.async.ca.shared.global [%r3], [%rd4], 4;\n"
      "cp.async.commit_group;\n"
      "mov.u64 %rd5, %clock64;\n" +
      std::string(wait ? "cp.async.wait_all;\n" : "") +
      "mov.u64 %rd6, %clock64;\n"
      "sub.u64 %rd7, %rd6, %rd5;\n"
      "st.global.u64 [%rd2], %rd7;\n"
      "ret;\n}\n";
  uint64_t cycles = 0;
  in_child_process([&] {
    const Module m = parse_ptx(ptx, "<clock>");
    const Program p = prepare_program(m, "ipdom");
    const PlatformConfig config = preset("small");
    LaunchSpec l;
    l.grid = {1, 1, 1};
    l.block = {32, 1, 1};
    l.buffers = {typed_buffer("in", std::vector<uint32_t>(32, 7)),
                 typed_buffer("out", std::vector<uint64_t>(1, 0))};
    l.args = {KernelArg::buffer_arg(0), KernelArg::buffer_arg(1)};
    run_timing(p, "k", l, config);
    // in_child_process runs this in a child: hand the figure back through a failure message.
    const uint64_t c = typed_values<uint64_t>(l.buffers[1])[0];
    if (wait)
      EXPECT_GE(c, 100u) << "cp.async.wait_all waited " << c << " cycles";
    else
      EXPECT_LT(c, 20u) << "without a wait " << c << " cycles passed";
    cycles = c;
  });
  return cycles;
}

TEST(TimingAsync, WaitAllHoldsTheWarpUntilTheCopyHasLanded) {
  cycles_around(true);
  cycles_around(false);
}

}  // namespace
}  // namespace warptlm
