// convsep: CONVSEP, the rows pass of a separable convolution: a 17-tap
// horizontal filter over an n x n float image (zero outside it). CTAs are
// 64 x 4 threads, ceil(n / 64) x ceil(n / 4) of them; the last CTA column and
// row are partly idle when n is not a multiple of 64 / 4.
//
// The outputs are float, compared bit for bit: pixels are integers in
// [0, 255] and taps multiples of 1/256 in [-32/256, 64/256], so every product
// is a multiple of 2^-8 below 64 and every partial sum one below 2^11: at most
// 19 significant bits, so every float operation is exact. The host reference
// still adds in the kernel's order (from 0, tap k = -8 first), so even the
// sign of a zero sum matches.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "builtin.h"
#include "common/buffers.h"
#include "common/compare.h"
#include "common/draw.h"
#include "common/size_rules.h"

namespace warptlm::scenarios {
namespace {

constexpr const char* kName = "convsep";
constexpr int64_t kRadius = 8;  // as kernel.cu's CONVSEP_RADIUS
constexpr uint32_t kTaps = 2 * kRadius + 1;
constexpr uint32_t kSpan = 64, kRows = 4;  // CTA shape, as kernel.cu
constexpr uint64_t kMaxN = 2048;
constexpr size_t kImage = 0, kTapsBuffer = 1, kOut = 2;  // buffer indices
constexpr size_t kArgWidth = 3, kArgHeight = 4;

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, 1, kMaxN);
  std::mt19937_64 rng(seed);
  std::vector<float> taps(kTaps), image(n * n);
  for (auto& t : taps) t = float(draw_between(rng, -32, 64)) / 256.0f;
  // Rows of a random walk: neighbouring pixels are correlated, as in a photo.
  for (uint64_t y = 0; y < n; ++y) {
    int64_t v = draw_between(rng, 0, 255);
    for (uint64_t x = 0; x < n; ++x) {
      v += draw_between(rng, -24, 24);
      v = v < 0 ? 0 : v > 255 ? 255 : v;
      image[y * n + x] = float(v);
    }
  }
  LaunchSpec l = launch_covering(n, kSpan, n, kRows);
  l.buffers.push_back(make_buffer("image", image));
  l.buffers.push_back(make_buffer("taps", taps));
  l.buffers.push_back(poisoned_buffer("out", n * n));
  l.args = {KernelArg::buffer_arg(kImage), KernelArg::buffer_arg(kTapsBuffer),
            KernelArg::buffer_arg(kOut), KernelArg::scalar(Type::U32, n),
            KernelArg::scalar(Type::U32, n)};
  return l;
}

// The host reference: out[y][x] = sum_k image[y][x + k] * taps[R - k], in the
// kernel's order.
std::vector<float> convolve_rows(const std::vector<float>& image, const std::vector<float>& taps,
                                 int64_t width, int64_t height) {
  std::vector<float> out(uint64_t(width) * height);
  for (int64_t y = 0; y < height; ++y) {
    for (int64_t x = 0; x < width; ++x) {
      float sum = 0.0f;
      for (int64_t k = -kRadius; k <= kRadius; ++k) {
        int64_t ax = x + k;
        float pixel = ax < 0 || ax >= width ? 0.0f : image[y * width + ax];
        sum += pixel * taps[kRadius - k];
      }
      out[y * width + x] = sum;
    }
  }
  return out;
}

LaunchSpec expected(const LaunchSpec& in) {
  buffer_at(kName, in, kOut);  // throws unless the launch is one make_launch built
  require_arg_count(kName, in, kArgHeight + 1);
  int64_t width = int64_t(in.args[kArgWidth].bits), height = int64_t(in.args[kArgHeight].bits);
  auto image = read_buffer<float>(in.buffers[kImage]);
  auto taps = read_buffer<float>(in.buffers[kTapsBuffer]);
  if (image.size() != uint64_t(width * height) || taps.size() != kTaps)
    throw std::invalid_argument(std::string(kName) + ": image or taps of the wrong size");
  return with_buffer(in, kOut, convolve_rows(image, taps, width, height));
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  return check_buffer<float>(kName, expected(in), out, kOut);
}

}  // namespace

Scenario make_convsep() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title = "Separable convolution, rows pass: 17-tap filter with shared-memory apron (n x n)";
  s.mirrors = "CONVSEP, Separable convolution (CUDA SDK convolutionSeparable, SLP Table 1)";
  s.divergence = {Divergence::Programmatic};
  s.entry = "convolve_rows";
  s.sizes = {{"test", 72}, {"study", 512}};
  s.min_n = 1;
  s.max_n = kMaxN;
  return s;
}

}  // namespace warptlm::scenarios
