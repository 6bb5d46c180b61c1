// Launches of the cp.async and mbarrier kernels of tests/data/ptx/async
// (async.cu), shared by the functional and the timing tests.
#pragma once

#include <string>
#include <vector>

#include "common/texture_launches.h"
#include "exec/launch.h"

namespace warptlm::testing {

inline const std::string kAsyncPtx = std::string(WARPTLM_TEST_DATA) + "/ptx/async/async.sm80.ptx";

// staged_copy(in, out, tiles): `ctas` CTAs of 128 threads, `tiles` tiles each.
inline LaunchSpec staged_copy_launch(uint32_t ctas, uint32_t tiles) {
  const uint32_t n = 128;
  std::vector<float> in(size_t(ctas) * tiles * n);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(int(i * 7 % 113) - 50);
  LaunchSpec l;
  l.grid = {ctas, 1, 1};
  l.block = {n, 1, 1};
  l.buffers = {typed_buffer("in", in), typed_buffer("out", std::vector<float>(in.size(), -1))};
  l.args = {KernelArg::buffer_arg(0), KernelArg::buffer_arg(1),
            KernelArg::scalar(Type::S32, tiles)};
  return l;
}

// barrier_reduce(in, sums): `ctas` CTAs of 256 threads.
inline LaunchSpec barrier_reduce_launch(uint32_t ctas) {
  const uint32_t n = 256;
  std::vector<int32_t> in(size_t(ctas) * n);
  for (size_t i = 0; i < in.size(); ++i) in[i] = int32_t(i * 31 % 97) - 40;
  LaunchSpec l;
  l.grid = {ctas, 1, 1};
  l.block = {n, 1, 1};
  l.buffers = {typed_buffer("in", in), typed_buffer("sums", std::vector<int32_t>(ctas, -1))};
  l.args = {KernelArg::buffer_arg(0), KernelArg::buffer_arg(1)};
  return l;
}

}  // namespace warptlm::testing
