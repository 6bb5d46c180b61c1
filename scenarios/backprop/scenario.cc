// backprop: BACKP, the layer-forward kernel of back-propagation (input layer
// into a 16-unit hidden layer). Size n = number of input units, a multiple of
// the 16 rows of a CTA; CTA c sums input units [16c, 16c + 16).
//
// The outputs are float, compared bit for bit: inputs are multiples of 1/16
// in [0, 1] and weights multiples of 2^-10 in [-1, 1], so every product is a
// multiple of 2^-14 below 1 in magnitude and every partial sum one below 16:
// at most 19 significant bits, so every float operation is exact. The host
// reference still adds in the kernel's tree order, so even the sign of a zero
// sum matches.
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

constexpr const char* kName = "backprop";
constexpr uint32_t kHidden = 16;  // hidden units = CTA x dimension
constexpr uint32_t kRows = 16;    // input units per CTA = CTA y dimension (a power of two)
constexpr uint64_t kMaxN = uint64_t(1) << 20;
constexpr size_t kInput = 0, kWeight = 1, kPartial = 2;  // buffer indices

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, kRows, kMaxN, kRows);
  std::mt19937_64 rng(seed);
  std::vector<float> input(n), weight(n * kHidden);
  for (auto& v : input) v = float(draw_below(rng, 17)) / 16.0f;
  for (auto& w : weight) w = float(draw_between(rng, -1024, 1024)) / 1024.0f;
  LaunchSpec l;
  l.grid.x = uint32_t(n / kRows);
  l.block.x = kHidden;
  l.block.y = kRows;
  l.buffers.push_back(make_buffer("input", input));
  l.buffers.push_back(make_buffer("weight", weight));
  l.buffers.push_back(poisoned_buffer("partial", l.grid.x * kHidden));
  l.args = {KernelArg::buffer_arg(kInput), KernelArg::buffer_arg(kWeight),
            KernelArg::buffer_arg(kPartial)};
  return l;
}

// The host reference: per CTA and hidden unit, the products summed by the
// kernel's tree (row r += row r + stride / 2 for r a multiple of stride).
std::vector<float> partial_sums(const std::vector<float>& input, const std::vector<float>& weight) {
  size_t ctas = input.size() / kRows;
  std::vector<float> sums(ctas * kHidden);
  for (size_t c = 0; c < ctas; ++c) {
    for (uint32_t j = 0; j < kHidden; ++j) {
      float product[kRows];
      for (uint32_t r = 0; r < kRows; ++r) {
        size_t unit = c * kRows + r;
        product[r] = weight[unit * kHidden + j] * input[unit];
      }
      for (uint32_t stride = 2; stride <= kRows; stride *= 2)
        for (uint32_t r = 0; r < kRows; r += stride) product[r] += product[r + stride / 2];
      sums[c * kHidden + j] = product[0];
    }
  }
  return sums;
}

LaunchSpec expected(const LaunchSpec& in) {
  buffer_at(kName, in, kPartial);  // throws unless the launch is one make_launch built
  auto input = read_buffer<float>(in.buffers[kInput]);
  auto weight = read_buffer<float>(in.buffers[kWeight]);
  if (weight.size() != input.size() * kHidden || input.size() % kRows != 0)
    throw std::invalid_argument(std::string(kName) + ": inconsistent input / weight sizes");
  return with_buffer(in, kPartial, partial_sums(input, weight));
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  return check_buffer<float>(kName, expected(in), out, kPartial);
}

}  // namespace

Scenario make_backprop() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title = "Back-propagation layer forward: per-CTA weighted sums into 16 hidden units (2D CTA)";
  s.mirrors = "BACKP, Back propagation (Rodinia backprop, SLP Table 1)";
  s.divergence = {Divergence::Programmatic};
  s.entry = "layer_forward";
  s.sizes = {{"test", 256}, {"study", 32768}};
  s.min_n = kRows;
  s.max_n = kMaxN;
  s.n_multiple = kRows;
  return s;
}

}  // namespace warptlm::scenarios
