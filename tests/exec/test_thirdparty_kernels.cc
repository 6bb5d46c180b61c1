// Third-party device code runs: NVIDIA's CUB block- and warp-level primitives
// (BlockReduce, BlockScan, BlockRadixSort, WarpReduce) wrapped in tiny
// kernels (tests/data/ptx/thirdparty/src/cub_block.cu) and compiled by nvcc
// (CUDA 13) for sm_75 and sm_90, parsed, finalized and run by the functional
// executor against exact host results. CUB assumes 32-lane warps, so these run
// at warp size 32 only. The math library kernels are in
// test_thirdparty_math.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "thirdparty_util.h"

namespace warptlm {
namespace {

using thirdparty::buffer;
using thirdparty::program;
using thirdparty::Rng;
using thirdparty::values;

constexpr uint32_t kThreads = 128;  // kThreads and kItems of cub_block.cu
constexpr uint32_t kItems = 4;

class Cub : public ::testing::TestWithParam<const char*> {
 protected:
  // Runs `kernel` over `grid` CTAs of kThreads threads with one buffer
  // argument per buffer.
  RunStats run(const std::string& kernel, uint32_t grid, std::vector<HostBuffer>& buffers) {
    LaunchSpec l;
    l.grid = {grid, 1, 1};
    l.block = {kThreads, 1, 1};
    l.buffers = std::move(buffers);
    for (uint32_t i = 0; i < l.buffers.size(); ++i) l.args.push_back(KernelArg::buffer_arg(i));
    RunStats s = run_functional(program(GetParam()), kernel, l, ExecConfig{});
    buffers = std::move(l.buffers);
    return s;
  }
  static std::vector<int32_t> random_ints(size_t n, uint64_t seed, int32_t lo, int32_t hi) {
    Rng rng(seed);
    std::vector<int32_t> v(n);
    for (int32_t& x : v) x = rng.range(lo, hi);
    return v;
  }
};

TEST_P(Cub, BlockReduceSum) {
  const uint32_t grid = 3;
  const auto in = random_ints(grid * kThreads, 1, -100000, 100000);
  std::vector<HostBuffer> b = {buffer("in", in), buffer("out", std::vector<int32_t>(grid, -1))};
  RunStats s = run("cub_block_reduce", grid, b);
  const auto out = values<int32_t>(b[1]);
  for (uint32_t c = 0; c < grid; ++c) {
    const auto first = in.begin() + c * kThreads;
    EXPECT_EQ(out[c], std::accumulate(first, first + kThreads, 0)) << "CTA " << c;
  }
  EXPECT_EQ(s.ctas, grid);
  EXPECT_EQ(s.warps, grid * kThreads / 32);
}

TEST_P(Cub, BlockScanExclusiveSum) {
  const uint32_t grid = 2, per_cta = kThreads * kItems;
  const auto in = random_ints(grid * per_cta, 2, -1000, 1000);
  std::vector<HostBuffer> b = {buffer("in", in), buffer("out", std::vector<int32_t>(in.size(), -1)),
                               buffer("totals", std::vector<int32_t>(grid, -1))};
  run("cub_block_scan", grid, b);
  const auto out = values<int32_t>(b[1]), totals = values<int32_t>(b[2]);
  for (uint32_t c = 0; c < grid; ++c) {
    int32_t sum = 0;
    for (uint32_t i = 0; i < per_cta; ++i) {
      ASSERT_EQ(out[c * per_cta + i], sum) << "CTA " << c << " item " << i;
      sum += in[c * per_cta + i];
    }
    EXPECT_EQ(totals[c], sum) << "CTA " << c;
  }
}

TEST_P(Cub, BlockRadixSortKeys) {
  const uint32_t grid = 2, per_cta = kThreads * kItems;
  Rng rng(3);
  std::vector<uint32_t> in(grid * per_cta);
  for (size_t i = 0; i < in.size(); ++i) {
    // Full-range keys, with runs of duplicates and the extreme values.
    in[i] = i % 7 == 0 ? uint32_t(rng.next() % 16) : uint32_t(rng.next());
    if (i % 97 == 0) in[i] = 0xffffffffu;
    if (i % 101 == 0) in[i] = 0;
  }
  std::vector<HostBuffer> b = {buffer("in", in), buffer("out", std::vector<uint32_t>(in.size()))};
  run("cub_block_radix_sort", grid, b);
  const auto out = values<uint32_t>(b[1]);
  for (uint32_t c = 0; c < grid; ++c) {
    std::vector<uint32_t> want(in.begin() + c * per_cta, in.begin() + (c + 1) * per_cta);
    std::sort(want.begin(), want.end());
    const std::vector<uint32_t> got(out.begin() + c * per_cta, out.begin() + (c + 1) * per_cta);
    EXPECT_EQ(got, want) << "CTA " << c;
  }
}

TEST_P(Cub, WarpReduceSumAndMax) {
  const uint32_t grid = 2, warps = grid * kThreads / 32;
  const auto in = random_ints(grid * kThreads, 4, -(1 << 25), 1 << 25);
  std::vector<HostBuffer> b = {buffer("in", in), buffer("sum", std::vector<int32_t>(warps, -1)),
                               buffer("max", std::vector<int32_t>(warps, -1))};
  run("cub_warp_reduce", grid, b);
  const auto sum = values<int32_t>(b[1]), mx = values<int32_t>(b[2]);
  for (uint32_t w = 0; w < warps; ++w) {
    const auto first = in.begin() + w * 32;
    EXPECT_EQ(sum[w], std::accumulate(first, first + 32, 0)) << "warp " << w;
    EXPECT_EQ(mx[w], *std::max_element(first, first + 32)) << "warp " << w;
  }
}

// The library code exercises the instructions added for it: bmsk (radix
// digit masks) everywhere, and redux.sync (WarpReduce on sm_80+) for sm_90.
TEST_P(Cub, UsesTheInstructionsAddedForIt) {
  const Program& p = program(GetParam());
  EXPECT_TRUE(thirdparty::contains(p, [](const Instruction& in) { return in.op == Opcode::Bmsk; }));
  const bool redux =
      thirdparty::contains(p, [](const Instruction& in) { return in.op == Opcode::Redux; });
  EXPECT_EQ(redux, std::string(GetParam()).find("sm_90") != std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Nvcc, Cub, ::testing::Values("cub_block.sm_75.ptx", "cub_block.sm_90.ptx"),
                         [](const auto& info) {
                           return std::string(info.param).find("sm_90") != std::string::npos
                                      ? "sm_90"
                                      : "sm_75";
                         });

}  // namespace
}  // namespace warptlm
