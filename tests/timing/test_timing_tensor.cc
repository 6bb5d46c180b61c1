// Tensor cores in the timing model (tests/data/ptx/tensor): the WMMA and
// mma.sync kernels give the functional run's bytes, and the tensor-core unit's
// configured latency and issue interval are what a tensor-bound kernel waits
// for.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

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

const std::string kTensorPtx = std::string(WARPTLM_TEST_DATA) + "/ptx/tensor/tensor.sm80.ptx";

std::vector<uint16_t> halves(size_t n, uint32_t seed) {
  std::vector<uint16_t> v(n);
  uint64_t s = seed;
  for (auto& h : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const _Float16 f = static_cast<_Float16>(float(int(s >> 60) - 8) / 4.0f);
    std::memcpy(&h, &f, 2);
  }
  return v;
}

// wmma_f16_f32 on an M x N x K problem (one warp per 16 x 16 tile of D).
LaunchSpec gemm_launch(int M, int N, int K) {
  LaunchSpec l;
  l.grid = {1, uint32_t(M / 16), 1};
  l.block = {uint32_t(32 * (N / 16)), 1, 1};
  l.buffers = {typed_buffer("a", halves(size_t(M) * K, 1)),
               typed_buffer("b", halves(size_t(K) * N, 2)),
               typed_buffer("c", std::vector<float>(size_t(M) * N, 0.25f)),
               typed_buffer("d", std::vector<float>(size_t(M) * N))};
  for (uint32_t i = 0; i < 4; ++i) l.args.push_back(KernelArg::buffer_arg(i));
  for (int v : {M, N, K}) l.args.push_back(KernelArg::scalar(Type::S32, uint32_t(v)));
  float one = 1.0f;
  uint32_t bits;
  std::memcpy(&bits, &one, 4);
  l.args.push_back(KernelArg::scalar(Type::F32, bits));
  return l;
}

LaunchSpec mma_launch() {
  LaunchSpec l;
  l.grid = {1, 1, 1};
  l.block = {32, 1, 1};
  l.buffers = {typed_buffer("a", halves(256, 3)), typed_buffer("b", halves(128, 4)),
               typed_buffer("c", std::vector<float>(128, 1.0f)),
               typed_buffer("d", std::vector<float>(128))};
  for (uint32_t i = 0; i < 4; ++i) l.args.push_back(KernelArg::buffer_arg(i));
  return l;
}

// Runs `kernel` in the timing model in a child process (SystemC elaborates
// once per process); the cycle count comes back through a pipe.
uint64_t timed_cycles(const std::string& kernel, const LaunchSpec& launch,
                      const PlatformConfig& config, bool check_bytes) {
  uint64_t cycles = 0;
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  in_child_process([&] {
    const Module m = parse_ptx_file(kTensorPtx);
    const Program p = prepare_program(m, "ipdom");
    LaunchSpec functional = launch, timing = launch;
    const nlohmann::json stats =
        run_timing(p, kernel, timing, config, nullptr, nullptr, TimingOptions{});
    if (check_bytes) {
      run_functional(p, kernel, functional, config.exec_config());
      for (size_t i = 0; i < launch.buffers.size(); ++i)
        EXPECT_TRUE(functional.buffers[i].bytes == timing.buffers[i].bytes) << "buffer " << i;
    }
    const uint64_t c = stats.at("cycles").get<uint64_t>();
    EXPECT_EQ(write(fds[1], &c, sizeof c), ssize_t(sizeof c));
  });
  close(fds[1]);  // before reading: a child that never wrote gives end-of-file
  EXPECT_EQ(read(fds[0], &cycles, sizeof cycles), ssize_t(sizeof cycles));
  close(fds[0]);
  return cycles;
}

TEST(TimingTensor, WmmaAndMmaMatchTheFunctionalRun) {
  for (const char* preset_name : {"small", "volta"}) {
    SCOPED_TRACE(preset_name);
    const PlatformConfig config = preset(preset_name);
    EXPECT_GT(timed_cycles("wmma_f16_f32", gemm_launch(32, 64, 64), config, true), 0u);
    EXPECT_GT(timed_cycles("mma_ldmatrix_f16", mma_launch(), config, true), 0u);
  }
}

TEST(TimingTensor, TheTensorUnitsLatencyAndIntervalSetTheTime) {
  // One warp, a chain of 8 dependent mma (each adds to the last one's D):
  // once the latency is longer than the loads', each cycle more of it is 8
  // cycles more of the run.
  PlatformConfig config = preset("small");
  const LaunchSpec one_warp = gemm_launch(16, 16, 128);
  config.sm.tensor.latency = 1000;
  const uint64_t base = timed_cycles("wmma_f16_f32", one_warp, config, false);
  config.sm.tensor.latency = 2000;
  const uint64_t slow = timed_cycles("wmma_f16_f32", one_warp, config, false);
  EXPECT_EQ(slow - base, 8u * 1000) << base << " -> " << slow;
  // Sixteen warps on one unit that accepts a warp every 200 cycles: at least
  // 16 x 8 x 200 cycles of issue.
  config = preset("small");
  config.num_sms = 1;
  config.sm.tensor.units = 1;
  config.sm.tensor.interval = 200;
  const uint64_t busy = timed_cycles("wmma_f16_f32", gemm_launch(16, 256, 128), config, false);
  EXPECT_GE(busy, uint64_t(16 * 8 * 200));
}

}  // namespace
}  // namespace warptlm
