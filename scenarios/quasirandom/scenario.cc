// quasirandom: QSRDM, Sobol quasirandom points as 32-bit integers, 4
// dimensions. Size n = points per dimension (any n); CTA row y computes
// dimension y with 128-thread CTAs, min(ceil(n / 128), 64) of them striding
// over the points. The sequence starts at index `first`, drawn from the seed
// in [0, 4096).
//
// Direction numbers: dimension 0 is the van der Corput sequence
// (v_b = 2^(31-b)); dimensions 1..3 follow Sobol's recurrence for the
// primitive polynomials x + 1, x^2 + x + 1 and x^3 + x + 1, with initial
// numbers m_k (odd, below 2^k) drawn from the seed.
#include <algorithm>
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

constexpr const char* kName = "quasirandom";
constexpr uint32_t kBlock = 128;
constexpr uint32_t kMaxCtasPerDim = 64;
constexpr uint32_t kDims = 4;
constexpr uint32_t kBits = 32;  // direction numbers per dimension, as kernel.cu's QSRDM_BITS
constexpr uint64_t kMaxN = uint64_t(1) << 22;
constexpr uint64_t kMaxFirst = 4096;
constexpr size_t kDirections = 0, kOut = 1;  // buffer indices
constexpr size_t kArgFirst = 2, kArgPoints = 3;

// Primitive polynomials of dimensions 1..3: degree s and the coefficients a
// of x^(s-1) .. x^1 packed as bits s-2 .. 0.
struct Polynomial {
  uint32_t degree, a;
};
constexpr Polynomial kPolynomials[kDims - 1] = {{1, 0}, {2, 1}, {3, 1}};

std::vector<uint32_t> draw_directions(std::mt19937_64& rng) {
  std::vector<uint32_t> v(kDims * kBits);
  for (uint32_t b = 0; b < kBits; ++b) v[b] = uint32_t(1) << (31 - b);
  for (uint32_t d = 1; d < kDims; ++d) {
    Polynomial p = kPolynomials[d - 1];
    std::vector<uint64_t> m(kBits + 1);  // m[1..32]
    for (uint32_t k = 1; k <= p.degree; ++k) m[k] = 2 * draw_below(rng, uint64_t(1) << (k - 1)) + 1;
    for (uint32_t k = p.degree + 1; k <= kBits; ++k) {
      uint64_t mk = m[k - p.degree] ^ (m[k - p.degree] << p.degree);
      for (uint32_t i = 1; i < p.degree; ++i)
        if ((p.a >> (p.degree - 1 - i)) & 1) mk ^= m[k - i] << i;
      m[k] = mk;
    }
    for (uint32_t k = 1; k <= kBits; ++k) v[d * kBits + k - 1] = uint32_t(m[k] << (32 - k));
  }
  return v;
}

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, 1, kMaxN);
  std::mt19937_64 rng(seed);
  uint32_t first = uint32_t(draw_below(rng, kMaxFirst));
  LaunchSpec l;
  l.grid.x = uint32_t(std::min<uint64_t>(ceil_div(n, kBlock), kMaxCtasPerDim));
  l.grid.y = kDims;
  l.block.x = kBlock;
  l.buffers.push_back(make_buffer("directions", draw_directions(rng)));
  l.buffers.push_back(poisoned_buffer("out", kDims * n));
  l.args = {KernelArg::buffer_arg(kDirections), KernelArg::buffer_arg(kOut),
            KernelArg::scalar(Type::U32, first), KernelArg::scalar(Type::U32, n)};
  return l;
}

// The host reference: the XOR of the direction numbers picked by the bits.
std::vector<uint32_t> sobol(const std::vector<uint32_t>& directions, uint32_t first,
                            uint32_t points) {
  std::vector<uint32_t> out(uint64_t(kDims) * points);
  for (uint32_t d = 0; d < kDims; ++d) {
    for (uint32_t p = 0; p < points; ++p) {
      uint32_t index = first + p, result = 0;
      for (uint32_t b = 0; b < kBits; ++b)
        if ((index >> b) & 1) result ^= directions[d * kBits + b];
      out[uint64_t(d) * points + p] = result;
    }
  }
  return out;
}

LaunchSpec expected(const LaunchSpec& in) {
  buffer_at(kName, in, kOut);  // throws unless the launch is one make_launch built
  require_arg_count(kName, in, kArgPoints + 1);
  uint32_t first = uint32_t(in.args[kArgFirst].bits), points = uint32_t(in.args[kArgPoints].bits);
  auto directions = read_buffer<uint32_t>(in.buffers[kDirections]);
  if (directions.size() != kDims * kBits)
    throw std::invalid_argument(std::string(kName) + ": expected 128 direction numbers");
  return with_buffer(in, kOut, sobol(directions, first, points));
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  return check_buffer<uint32_t>(kName, expected(in), out, kOut);
}

}  // namespace

Scenario make_quasirandom() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title = "Sobol quasirandom points, 4 dimensions, per-bit conditional XOR of direction numbers";
  s.mirrors = "QSRDM, Quasirandom generator (CUDA SDK quasirandomGenerator, SLP Table 1)";
  s.divergence = {Divergence::Programmatic};
  s.entry = "sobol_points";
  s.sizes = {{"test", 1000}, {"study", 65536}};
  s.min_n = 1;
  s.max_n = kMaxN;
  return s;
}

}  // namespace warptlm::scenarios
