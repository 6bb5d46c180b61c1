// Cooperative launches (tests/data/ptx/coop: nvcc's PTX of cooperative
// groups' grid.sync()): with every CTA resident at once and the grid
// workspace in %envreg1:%envreg2, a grid-wide sum is seen whole by every CTA
// and a stencil's rounds stay separated; without a cooperative launch
// grid.sync() traps, as on a GPU; a grid larger than the SMs hold at once
// and compaction are refused.
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "common/texture_launches.h"
#include "exec/functional_executor.h"
#include "exec/prepared_program.h"
#include "frontend/ptx_parser.h"

namespace warptlm {
namespace {

using namespace warptlm::testing;

const Program& coop_program() {
  static const Module m =
      parse_ptx_file(std::string(WARPTLM_TEST_DATA) + "/ptx/coop/coop.sm75.ptx");
  static const Program p = prepare_program(m, "ipdom");
  return p;
}

// Two SMs of 4 CTA slots: 8 CTAs at once.
ExecConfig two_sms() {
  ExecConfig c;
  c.num_sms = 2;
  c.sm.ctas = 4;
  c.sm.threads = 2048;
  c.sm.warps = 64;
  c.sm.registers = 65536;
  return c;
}

LaunchSpec total_launch(uint32_t ctas, uint32_t threads, int n) {
  std::vector<int32_t> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 37) % 101 - 50;
  LaunchSpec l;
  l.grid = {ctas, 1, 1};
  l.block = {threads, 1, 1};
  l.buffers = {typed_buffer("in", in), typed_buffer("total", std::vector<int32_t>{0}),
               typed_buffer("seen", std::vector<int32_t>(ctas, -1))};
  l.args = {KernelArg::buffer_arg(0), KernelArg::scalar(Type::S32, uint32_t(n)),
            KernelArg::buffer_arg(1), KernelArg::buffer_arg(2)};
  l.cooperative = true;
  return l;
}

TEST(Cooperative, EveryCtaSeesTheWholeGridsSumAfterGridSync) {
  const int n = 8 * 96 - 5;
  LaunchSpec l = total_launch(8, 96, n);
  run_functional(coop_program(), "grid_total", l, two_sms());
  const std::vector<int32_t> in = typed_values<int32_t>(l.buffers[0]);
  const int32_t sum = std::accumulate(in.begin(), in.end(), 0);
  EXPECT_EQ(typed_values<int32_t>(l.buffers[1])[0], sum);
  for (int32_t seen : typed_values<int32_t>(l.buffers[2])) EXPECT_EQ(seen, sum);
}

TEST(Cooperative, GridSyncSeparatesTheRoundsOfAStencil) {
  const int n = 6 * 64 - 10, steps = 7;
  std::vector<int32_t> x(n);
  for (int i = 0; i < n; ++i) x[i] = (i * 13) % 7 - 3;
  LaunchSpec l;
  l.grid = {6, 1, 1};
  l.block = {64, 1, 1};
  l.buffers = {typed_buffer("x", x), typed_buffer("y", std::vector<int32_t>(n))};
  l.args = {KernelArg::buffer_arg(0), KernelArg::buffer_arg(1),
            KernelArg::scalar(Type::S32, uint32_t(n)), KernelArg::scalar(Type::S32, steps)};
  l.cooperative = true;
  run_functional(coop_program(), "grid_stencil", l, two_sms());
  std::vector<int32_t> a = x, b(n);
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i) b[i] = (i > 0 ? a[i - 1] : 0) + (i + 1 < n ? a[i + 1] : 0);
    std::swap(a, b);
  }
  // After an odd number of rounds the last one wrote y.
  EXPECT_EQ(typed_values<int32_t>(l.buffers[steps % 2 ? 1 : 0]), a);
}

TEST(Cooperative, WithoutACooperativeLaunchGridSyncTraps) {
  LaunchSpec l = total_launch(2, 32, 64);
  l.cooperative = false;
  try {
    run_functional(coop_program(), "grid_total", l, two_sms());
    FAIL() << "expected the trap";
  } catch (const KernelFault& f) {
    EXPECT_NE(std::string(f.what()).find("trap executed"), std::string::npos) << f.what();
    // The hint that says why and what to do.
    EXPECT_NE(std::string(f.what()).find("exec --cooperative or launch(..., cooperative=True)"),
              std::string::npos)
        << f.what();
  }
}

TEST(Cooperative, AGridLargerThanTheSmsHoldAtOnceIsRefused) {
  LaunchSpec l = total_launch(9, 32, 64);
  try {
    run_functional(coop_program(), "grid_total", l, two_sms());
    FAIL() << "expected a refusal";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "launch: kernel 'grid_total': cooperative launch: its 9 CTAs must all be "
                 "resident at once, but the GPU holds at most 8 of them (2 SMs x 4 CTAs each, by "
                 "CTA slots, warps, registers and shared memory); CUDA refuses it too "
                 "(cudaErrorCooperativeLaunchTooLarge)");
  }
  // The same grid fits when each SM holds more.
  ExecConfig roomy = two_sms();
  roomy.sm.ctas = 5;
  run_functional(coop_program(), "grid_total", l, roomy);
}

TEST(Cooperative, CompactionIsRefused) {
  LaunchSpec l = total_launch(2, 32, 64);
  ExecConfig c = two_sms();
  c.compaction = "tbc";
  try {
    run_functional(coop_program(), "grid_total", l, c);
    FAIL() << "expected a refusal";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), kCooperativeCompaction);
  }
}

}  // namespace
}  // namespace warptlm
