// dwthaar: DWTHARR, multi-level 1D Haar decomposition in shared memory. Size
// n = signal length, a multiple of 512: CTA c (256 threads) decomposes
// samples [512c, 512c + 512) completely (nine levels) and writes its 512
// coefficients in the Mallat layout (see kernel.cu).
//
// The outputs are float, compared bit for bit: samples are integers in
// [0, 255] and the transform averages and halves differences (unnormalised
// Haar), so a level-l value is a multiple of 2^-l below 256 in magnitude: at
// most 17 significant bits, so every float operation is exact.
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

constexpr const char* kName = "dwthaar";
constexpr uint32_t kBlock = 256;         // threads per CTA; the kernel's shared array holds 256
constexpr uint32_t kSlice = 2 * kBlock;  // samples per CTA
constexpr uint64_t kMaxN = uint64_t(1) << 24;
constexpr size_t kSignal = 0, kOut = 1;  // buffer indices

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, kSlice, kMaxN, kSlice);
  std::mt19937_64 rng(seed);
  // A clamped random walk: smooth stretches (small details) and jumps.
  std::vector<float> signal(n);
  int64_t v = draw_between(rng, 0, 255);
  for (auto& s : signal) {
    v += draw_between(rng, -16, 16);
    v = v < 0 ? 0 : v > 255 ? 255 : v;
    s = float(v);
  }
  LaunchSpec l;
  l.grid.x = uint32_t(n / kSlice);
  l.block.x = kBlock;
  l.buffers.push_back(make_buffer("signal", signal));
  l.buffers.push_back(poisoned_buffer("out", n));
  l.args = {KernelArg::buffer_arg(kSignal), KernelArg::buffer_arg(kOut)};
  return l;
}

// The host reference: per slice, level after level, averages stay and halved
// differences go to offset (number of pairs) of the slice's output.
std::vector<float> haar(const std::vector<float>& signal) {
  std::vector<float> out(signal.size());
  for (size_t base = 0; base < signal.size(); base += kSlice) {
    std::vector<float> average(signal.begin() + base, signal.begin() + base + kSlice);
    for (uint32_t pairs = kSlice / 2; pairs > 0; pairs /= 2) {
      for (uint32_t t = 0; t < pairs; ++t) {
        float lo = average[2 * t], hi = average[2 * t + 1];
        average[t] = (lo + hi) * 0.5f;
        out[base + pairs + t] = (lo - hi) * 0.5f;
      }
    }
    out[base] = average[0];
  }
  return out;
}

LaunchSpec expected(const LaunchSpec& in) {
  buffer_at(kName, in, kOut);  // throws unless the launch is one make_launch built
  auto signal = read_buffer<float>(in.buffers[kSignal]);
  if (signal.size() % kSlice != 0)
    throw std::invalid_argument(std::string(kName) + ": signal length is not a multiple of 512");
  return with_buffer(in, kOut, haar(signal));
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  return check_buffer<float>(kName, expected(in), out, kOut);
}

}  // namespace

Scenario make_dwthaar() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title = "Haar wavelet decomposition, nine levels per 512-sample slice in shared memory";
  s.mirrors = "DWTHARR, Haar wavelets (CUDA SDK dwtHaar1D, SLP Table 1)";
  s.divergence = {Divergence::Programmatic};
  s.entry = "haar_decompose";
  s.sizes = {{"test", 4096}, {"study", uint64_t(1) << 19}};
  s.min_n = kSlice;
  s.max_n = kMaxN;
  s.n_multiple = kSlice;
  return s;
}

}  // namespace warptlm::scenarios
