// mandelbrot: MDBROT (escape-time iteration per pixel). Size n = image side:
// the image is n x n pixels, covered by 16 x 16-thread CTAs (the CTAs on the
// right and bottom edges are partly idle when n is not a multiple of 16).
//
// The host reference must reproduce the kernel's float arithmetic bit for
// bit: this file is compiled with -ffp-contract=off (see CMakeLists.txt) and
// evaluates the kernel's + - * in the kernel's order, in float.
#include <cfloat>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "builtin.h"
#include "common/buffers.h"
#include "common/compare.h"
#include "common/draw.h"
#include "common/size_rules.h"

// Excess precision (x87) would make the reference round differently.
static_assert(FLT_EVAL_METHOD == 0, "float expressions must be evaluated in float");

namespace warptlm::scenarios {
namespace {

constexpr const char* kName = "mandelbrot";
constexpr uint32_t kTile = 16;  // CTA is kTile x kTile threads
constexpr uint64_t kMaxN = 4096;
constexpr uint32_t kMaxIter = 128;
constexpr size_t kIters = 0;  // the one buffer
// Kernel parameters after the buffer: width, height, x0, y0, step, max_iter.
constexpr size_t kArgWidth = 1, kArgHeight = 2, kArgX0 = 3, kArgY0 = 4, kArgStep = 5,
                 kArgMaxIter = 6;

uint64_t float_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

float bits_float(uint64_t bits) {
  uint32_t b = uint32_t(bits);
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, 1, kMaxN);
  // The seed moves the view a little around the whole set (centre -0.75 + 0i,
  // half-width 1.25): different seeds give different but comparable images.
  std::mt19937_64 rng(seed);
  double cx = -0.75 + (draw_unit(rng) - 0.5) * 0.1;
  double cy = (draw_unit(rng) - 0.5) * 0.1;
  double half = 1.25 * (0.9 + 0.2 * draw_unit(rng));
  float step = float(2.0 * half / double(n));
  float x0 = float(cx - half);
  float y0 = float(cy - half);
  LaunchSpec l = launch_covering(n, kTile, n, kTile);
  l.buffers.push_back(poisoned_buffer("iters", n * n));
  l.args = {KernelArg::buffer_arg(kIters),
            KernelArg::scalar(Type::U32, n),
            KernelArg::scalar(Type::U32, n),
            KernelArg::scalar(Type::F32, float_bits(x0)),
            KernelArg::scalar(Type::F32, float_bits(y0)),
            KernelArg::scalar(Type::F32, float_bits(step)),
            KernelArg::scalar(Type::U32, kMaxIter)};
  return l;
}

// The host reference: the kernel's loop, operation for operation.
uint32_t escape_time(float cr, float ci, uint32_t max_iter) {
  float zr = 0.0f, zi = 0.0f;
  uint32_t it = 0;
  while (it < max_iter) {
    float zr2 = zr * zr;
    float zi2 = zi * zi;
    if (zr2 + zi2 > 4.0f) break;
    float next_zr = zr2 - zi2 + cr;
    zi = 2.0f * zr * zi + ci;
    zr = next_zr;
    ++it;
  }
  return it;
}

LaunchSpec expected(const LaunchSpec& in) {
  buffer_at(kName, in, kIters);  // throws unless the launch is one make_launch built
  require_arg_count(kName, in, kArgMaxIter + 1);
  uint32_t width = uint32_t(in.args[kArgWidth].bits);
  uint32_t height = uint32_t(in.args[kArgHeight].bits);
  float x0 = bits_float(in.args[kArgX0].bits);
  float y0 = bits_float(in.args[kArgY0].bits);
  float step = bits_float(in.args[kArgStep].bits);
  uint32_t max_iter = uint32_t(in.args[kArgMaxIter].bits);
  std::vector<uint32_t> iters(uint64_t(width) * height);
  for (uint32_t py = 0; py < height; ++py) {
    for (uint32_t px = 0; px < width; ++px) {
      float cr = x0 + float(px) * step;
      float ci = y0 + float(py) * step;
      iters[uint64_t(py) * width + px] = escape_time(cr, ci, max_iter);
    }
  }
  return with_buffer(in, kIters, iters);
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  return check_buffer<uint32_t>(kName, expected(in), out, kIters);
}

}  // namespace

Scenario make_mandelbrot() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title = "Mandelbrot escape-time iteration counts, one thread per pixel of an n x n image";
  s.mirrors = "MDBROT, Mandelbrot (SLP Table 1)";
  s.divergence = {Divergence::LoopTrip, Divergence::Programmatic};
  s.entry = "mandelbrot_escape";
  s.sizes = {{"test", 32}, {"study", 256}};
  s.min_n = 1;
  s.max_n = kMaxN;
  return s;
}

}  // namespace warptlm::scenarios
