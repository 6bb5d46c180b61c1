// fd3d: 3DFD (8th-order 3D finite-difference stencil, a 16 x 16 CTA marching
// along z with its tile and halo in shared memory). Size n = side of the
// interior cube: the output is n x n x n, the input the same cube padded by 4
// points on every side. n is a multiple of the 16-point tile.
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "builtin.h"
#include "common/buffers.h"
#include "common/compare.h"
#include "common/draw.h"
#include "common/size_rules.h"

namespace warptlm::scenarios {
namespace {

constexpr const char* kName = "fd3d";
constexpr uint32_t kTile = 16;  // CTA is kTile x kTile threads (FD_TILE in kernel.cu)
constexpr int kRadius = 4;      // FD_RADIUS in kernel.cu
constexpr uint64_t kMaxN = 256;
constexpr size_t kIn = 0, kOut = 1;  // buffer indices
constexpr size_t kArgNx = 2, kArgNy = 3, kArgNz = 4;
// 5040 times the 8th-order central second-derivative weights; the centre
// weight counts the three axes. As in kernel.cu.
constexpr int64_t kCoef[kRadius + 1] = {-43050, 8064, -1008, 128, -9};
// Inputs in [-1000, 1000]: |result| <= 1000 * (43050 + 6 * 9209) < 2^31, so
// the kernel's signed arithmetic never overflows.
constexpr int64_t kMaxMagnitude = 1000;

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, kTile, kMaxN, kTile);
  std::mt19937_64 rng(seed);
  uint64_t padded = n + 2 * kRadius;
  std::vector<int32_t> in(padded * padded * padded);
  for (auto& v : in) v = int32_t(draw_between(rng, -kMaxMagnitude, kMaxMagnitude));
  LaunchSpec l = launch_covering(n, kTile, n, kTile);
  l.buffers.push_back(make_buffer("in", in));
  l.buffers.push_back(poisoned_buffer("out", n * n * n));
  l.args = {KernelArg::buffer_arg(kIn), KernelArg::buffer_arg(kOut),
            KernelArg::scalar(Type::S32, n), KernelArg::scalar(Type::S32, n),
            KernelArg::scalar(Type::S32, n)};
  return l;
}

// The host reference: the stencil at every interior point.
std::vector<int32_t> stencil(const std::vector<int32_t>& in, int64_t nx, int64_t ny, int64_t nz) {
  int64_t pitch = nx + 2 * kRadius, slice = pitch * (ny + 2 * kRadius);
  std::vector<int32_t> out(size_t(nx * ny * nz));
  for (int64_t z = 0; z < nz; ++z) {
    for (int64_t y = 0; y < ny; ++y) {
      for (int64_t x = 0; x < nx; ++x) {
        int64_t c = (z + kRadius) * slice + (y + kRadius) * pitch + x + kRadius;
        int64_t v = kCoef[0] * in[c];
        for (int64_t r = 1; r <= kRadius; ++r)
          v += kCoef[r] * (int64_t(in[c - r]) + in[c + r] + in[c - r * pitch] + in[c + r * pitch] +
                           in[c - r * slice] + in[c + r * slice]);
        out[size_t((z * ny + y) * nx + x)] = int32_t(v);
      }
    }
  }
  return out;
}

LaunchSpec expected(const LaunchSpec& in) {
  buffer_at(kName, in, kOut);  // throws unless the launch is one make_launch built
  require_arg_count(kName, in, kArgNz + 1);
  int64_t nx = int32_t(in.args[kArgNx].bits), ny = int32_t(in.args[kArgNy].bits),
          nz = int32_t(in.args[kArgNz].bits);
  auto values = read_buffer<int32_t>(in.buffers[kIn]);
  if (nx < 1 || ny < 1 || nz < 1 ||
      values.size() != size_t((nx + 2 * kRadius) * (ny + 2 * kRadius) * (nz + 2 * kRadius)))
    throw std::invalid_argument(std::string(kName) + ": in does not hold the padded volume");
  return with_buffer(in, kOut, stencil(values, nx, ny, nz));
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  return check_buffer<int32_t>(kName, expected(in), out, kOut);
}

}  // namespace

Scenario make_fd3d() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title =
      "8th-order 3D finite-difference stencil, 16 x 16 CTAs marching in z with shared-memory halos";
  s.mirrors = "3DFD, Finite difference computation 3D (SLP Table 1)";
  s.divergence = {Divergence::Programmatic};
  s.entry = "fd3d_stencil";
  s.sizes = {{"test", 16}, {"study", 64}};
  s.min_n = kTile;
  s.max_n = kMaxN;
  s.n_multiple = kTile;
  return s;
}

}  // namespace warptlm::scenarios
