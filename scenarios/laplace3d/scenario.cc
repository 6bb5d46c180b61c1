// laplace3d: LPS (one Jacobi iteration of the 3D Laplace equation, a 2D CTA
// of 32 x 4 threads marching along z). Size n = grid side: the grid is
// n x n x n points; the CTAs on the x and y edges are partly idle when n is
// not a multiple of 32 / 4.
//
// Float: the kernel adds the six neighbours in source order and multiplies
// the sum by 1/6 (no multiply feeds an add, so nothing can be fused into an
// fma), and the host reference does the same in float, so the results
// compare bit for bit.
#include <cfloat>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "builtin.h"
#include "common/buffers.h"
#include "common/compare.h"
#include "common/size_rules.h"

// Excess precision (x87) would make the reference round differently.
static_assert(FLT_EVAL_METHOD == 0, "float expressions must be evaluated in float");

namespace warptlm::scenarios {
namespace {

constexpr const char* kName = "laplace3d";
constexpr uint32_t kBlockX = 32, kBlockY = 4;
constexpr uint64_t kMaxN = 256;
constexpr size_t kU1 = 0, kU2 = 1;  // buffer indices
constexpr size_t kArgNx = 2, kArgNy = 3, kArgNz = 4;

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, 1, kMaxN);
  std::mt19937_64 rng(seed);
  // Values k / 2^24, k < 2^24: exact in float, in [0, 1).
  std::vector<float> u1(n * n * n);
  for (auto& v : u1) v = float(rng() >> 40) * 0x1p-24f;
  LaunchSpec l = launch_covering(n, kBlockX, n, kBlockY);
  l.buffers.push_back(make_buffer("u1", u1));
  l.buffers.push_back(poisoned_buffer("u2", u1.size()));
  l.args = {KernelArg::buffer_arg(kU1), KernelArg::buffer_arg(kU2), KernelArg::scalar(Type::S32, n),
            KernelArg::scalar(Type::S32, n), KernelArg::scalar(Type::S32, n)};
  return l;
}

// The host reference: the kernel's update, operation for operation.
std::vector<float> jacobi(const std::vector<float>& u1, int nx, int ny, int nz) {
  const float sixth = 1.0f / 6.0f;
  int plane = nx * ny;
  std::vector<float> u2(u1.size());
  for (int k = 0; k < nz; ++k) {
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        int ind = i + j * nx + k * plane;
        if (i == 0 || i == nx - 1 || j == 0 || j == ny - 1 || k == 0 || k == nz - 1)
          u2[ind] = u1[ind];
        else
          u2[ind] = (u1[ind - 1] + u1[ind + 1] + u1[ind - nx] + u1[ind + nx] + u1[ind - plane] +
                     u1[ind + plane]) *
                    sixth;
      }
    }
  }
  return u2;
}

LaunchSpec expected(const LaunchSpec& in) {
  buffer_at(kName, in, kU2);  // throws unless the launch is one make_launch built
  require_arg_count(kName, in, kArgNz + 1);
  int nx = int(in.args[kArgNx].bits), ny = int(in.args[kArgNy].bits),
      nz = int(in.args[kArgNz].bits);
  auto u1 = read_buffer<float>(in.buffers[kU1]);
  if (nx < 1 || ny < 1 || nz < 1 || u1.size() != size_t(nx) * ny * nz)
    throw std::invalid_argument(std::string(kName) + ": u1 does not hold nx * ny * nz values");
  return with_buffer(in, kU2, jacobi(u1, nx, ny, nz));
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  return check_buffer<float>(kName, expected(in), out, kU2);
}

}  // namespace

Scenario make_laplace3d() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title = "One Jacobi iteration of the 3D Laplace equation on an n^3 grid, 2D CTAs marching in z";
  s.mirrors = "LPS, 3D Laplace solver (SLP Table 1)";
  s.divergence = {Divergence::Programmatic};
  s.entry = "laplace3d_jacobi";
  s.sizes = {{"test", 24}, {"study", 100}};
  s.min_n = 1;
  s.max_n = kMaxN;
  return s;
}

}  // namespace warptlm::scenarios
