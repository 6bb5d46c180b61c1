// sobel: SOBFLT, Sobel gradient magnitude of an 8-bit grey image. Size n =
// image side: the image is n x n pixels (one per 32-bit word), covered by
// 16 x 16-thread CTAs; the CTAs on the right and bottom edges are partly idle
// when n is not a multiple of 16.
//
// The image is a flat background with noise and a few random rectangles and
// discs of other greys, so it has flat areas, edges of every orientation, and
// magnitudes both below and above the 255 clamp.
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

constexpr const char* kName = "sobel";
constexpr uint32_t kTile = 16;  // CTA is kTile x kTile threads, as kernel.cu's SOBEL_TILE
constexpr uint64_t kMaxN = 4096;
constexpr uint32_t kShapes = 8;
constexpr size_t kImage = 0, kOut = 1;  // buffer indices
constexpr size_t kArgWidth = 2, kArgHeight = 3;

std::vector<uint32_t> draw_image(std::mt19937_64& rng, uint32_t side) {
  int64_t s = side;
  int64_t background = draw_between(rng, 40, 200);
  std::vector<uint32_t> image(uint64_t(side) * side, uint32_t(background));
  for (uint32_t k = 0; k < kShapes; ++k) {
    bool disc = draw_below(rng, 2) == 1;
    int64_t cx = draw_between(rng, 0, s - 1), cy = draw_between(rng, 0, s - 1);
    int64_t rx = draw_between(rng, 1, s / 3 + 1), ry = draw_between(rng, 1, s / 3 + 1);
    uint32_t grey = uint32_t(draw_between(rng, 0, 255));
    for (int64_t y = 0; y < s; ++y) {
      for (int64_t x = 0; x < s; ++x) {
        int64_t dx = x - cx, dy = y - cy;
        bool inside = disc ? dx * dx * ry * ry + dy * dy * rx * rx <= rx * rx * ry * ry
                           : (dx < 0 ? -dx : dx) <= rx && (dy < 0 ? -dy : dy) <= ry;
        if (inside) image[y * s + x] = grey;
      }
    }
  }
  // A little noise everywhere, staying in [0, 255].
  for (auto& p : image) {
    int64_t v = int64_t(p) + draw_between(rng, -6, 6);
    p = uint32_t(v < 0 ? 0 : v > 255 ? 255 : v);
  }
  return image;
}

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, 1, kMaxN);
  std::mt19937_64 rng(seed);
  LaunchSpec l = launch_covering(n, kTile, n, kTile);
  l.buffers.push_back(make_buffer("image", draw_image(rng, uint32_t(n))));
  l.buffers.push_back(poisoned_buffer("out", n * n));
  l.args = {KernelArg::buffer_arg(kImage), KernelArg::buffer_arg(kOut),
            KernelArg::scalar(Type::U32, n), KernelArg::scalar(Type::U32, n)};
  return l;
}

// The host reference: the 3 x 3 Sobel kernels with zero outside the image.
std::vector<uint32_t> sobel(const std::vector<uint32_t>& image, int64_t width, int64_t height) {
  auto at = [&](int64_t x, int64_t y) -> int64_t {
    return x < 0 || y < 0 || x >= width || y >= height ? 0 : int64_t(image[y * width + x]);
  };
  std::vector<uint32_t> out(uint64_t(width) * height);
  for (int64_t y = 0; y < height; ++y) {
    for (int64_t x = 0; x < width; ++x) {
      int64_t gx = (at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1)) -
                   (at(x - 1, y - 1) + 2 * at(x - 1, y) + at(x - 1, y + 1));
      int64_t gy = (at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1)) -
                   (at(x - 1, y - 1) + 2 * at(x, y - 1) + at(x + 1, y - 1));
      int64_t magnitude = (gx < 0 ? -gx : gx) + (gy < 0 ? -gy : gy);
      out[y * width + x] = uint32_t(magnitude > 255 ? 255 : magnitude);
    }
  }
  return out;
}

LaunchSpec expected(const LaunchSpec& in) {
  buffer_at(kName, in, kOut);  // throws unless the launch is one make_launch built
  require_arg_count(kName, in, kArgHeight + 1);
  int64_t width = int64_t(in.args[kArgWidth].bits), height = int64_t(in.args[kArgHeight].bits);
  auto image = read_buffer<uint32_t>(in.buffers[kImage]);
  if (image.size() != uint64_t(width * height))
    throw std::invalid_argument(std::string(kName) + ": image size does not match width x height");
  return with_buffer(in, kOut, sobel(image, width, height));
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  return check_buffer<uint32_t>(kName, expected(in), out, kOut);
}

}  // namespace

Scenario make_sobel() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title = "Sobel gradient magnitude of an n x n grey image, shared-memory tile with apron";
  s.mirrors = "SOBFLT, Sobel filter (CUDA SDK SobelFilter, SLP Table 1)";
  s.divergence = {Divergence::Programmatic};
  s.entry = "sobel_magnitude";
  s.sizes = {{"test", 40}, {"study", 512}};
  s.min_n = 1;
  s.max_n = kMaxN;
  return s;
}

}  // namespace warptlm::scenarios
