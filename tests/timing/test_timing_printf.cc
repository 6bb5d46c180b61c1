// printf and assert in the timing model: the same text as the functional
// run, and a failed assert's fault keeps what was printed before it.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "common/systemc_child.h"
#include "config/platform_config.h"
#include "exec/functional_executor.h"
#include "exec/prepared_program.h"
#include "frontend/ptx_parser.h"
#include "gpu/timing_run.h"

namespace warptlm {
namespace {

const std::string kPtx = std::string(WARPTLM_TEST_DATA) + "/ptx/printf/printf.clang.ptx";

LaunchSpec launch(const std::vector<int32_t>& values, int32_t scalar) {
  LaunchSpec l;
  l.block = {static_cast<uint32_t>(values.size()), 1, 1};
  HostBuffer b;
  b.name = "buffer";
  b.bytes.resize(values.size() * 4);
  std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
  l.buffers.push_back(b);
  l.args = {KernelArg::buffer_arg(0), KernelArg::scalar(Type::S32, static_cast<uint32_t>(scalar))};
  return l;
}

TEST(TimingPrintf, PrintsWhatTheFunctionalRunPrints) {
  warptlm::testing::in_child_process([] {
    const Program p = prepare_program(parse_ptx_file(kPtx), "ipdom");
    LaunchSpec functional = launch(std::vector<int32_t>(40, 0), 37), timing = functional;
    run_functional(p, "_Z5helloPii", functional, ExecConfig{});
    run_timing(p, "_Z5helloPii", timing, preset("small"));
    EXPECT_FALSE(timing.output.empty());
    // Two warps: each call's lanes in lane order; the warps' order is the
    // timing model's issue order, here the same.
    EXPECT_EQ(timing.output, functional.output);
    EXPECT_NE(timing.output.find("thread 36 of 37: 54.00 str"), std::string::npos) << timing.output;
  });
}

TEST(TimingPrintf, AFailedAssertFaultsWithThePrintedText) {
  warptlm::testing::in_child_process([] {
    const Program p = prepare_program(parse_ptx_file(kPtx), "ipdom");
    LaunchSpec l = launch({1, 5, 2, 9}, 4);
    try {
      run_timing(p, "_Z5checkPKii", l, preset("small"));
      ADD_FAILURE() << "no fault";
    } catch (const KernelFault& f) {
      EXPECT_NE(std::string(f.what()).find("assertion `in[t] < limit` failed (printf.cu:32"),
                std::string::npos)
          << f.what();
      EXPECT_EQ(f.output, "checking 1\nchecking 5\nchecking 2\nchecking 9\n");
    }
  });
}

}  // namespace
}  // namespace warptlm
