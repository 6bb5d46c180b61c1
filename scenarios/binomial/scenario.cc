// binomial: BINOM, European call prices by backward induction over a
// 127-step binomial tree, one option per 128-thread CTA. Size n = number of
// options.
//
// Options are drawn as in the original benchmark's generator: stock price S
// in [5, 30], strike X within 30% of S, expiry T in [0.25, 10] years, riskless
// rate 6%, volatility 10%. The host derives, in double and rounds to float,
// each option's discounted up / down probabilities and its 128 leaf stock
// prices S * exp(v sqrt(dt) (2i - 127)), so the kernel needs no exp.
//
// The outputs are float, compared bit for bit: the kernel's float operations
// (a subtract and max per leaf, then two multiplies and an add per node and
// step, no fused multiply-add in its PTX) are repeated on the host in the same
// order, each product rounded to float through a volatile so the host
// compiler cannot fuse it into an fma either (the FLT_EVAL_METHOD assertion
// rules out excess precision).
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "builtin.h"
#include "common/buffers.h"
#include "common/compare.h"
#include "common/draw.h"
#include "common/size_rules.h"

static_assert(FLT_EVAL_METHOD == 0, "float expressions must be evaluated in float");

namespace warptlm::scenarios {
namespace {

constexpr const char* kName = "binomial";
constexpr uint32_t kLeaves = 128;  // threads per CTA; the kernel's shared array holds 128
constexpr uint32_t kSteps = kLeaves - 1;
constexpr uint64_t kMaxN = uint64_t(1) << 16;
constexpr double kRate = 0.06, kVolatility = 0.10;
constexpr size_t kLeafPrice = 0, kStrike = 1, kPuDf = 2, kPdDf = 3, kValue = 4;  // buffers

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, 1, kMaxN);
  std::mt19937_64 rng(seed);
  std::vector<float> leaf_price(n * kLeaves), strike(n), pu_df(n), pd_df(n);
  for (uint64_t o = 0; o < n; ++o) {
    double s = 5.0 + 25.0 * draw_unit(rng);
    double x = s * (0.7 + 0.6 * draw_unit(rng));
    double t = 0.25 + 9.75 * draw_unit(rng);
    double dt = t / kSteps;
    double vdt = kVolatility * std::sqrt(dt);
    double u = std::exp(vdt), d = 1.0 / u;
    double pu = (std::exp(kRate * dt) - d) / (u - d);
    double df = std::exp(-kRate * dt);
    strike[o] = float(x);
    pu_df[o] = float(pu * df);
    pd_df[o] = float((1.0 - pu) * df);
    for (uint32_t i = 0; i < kLeaves; ++i)
      leaf_price[o * kLeaves + i] = float(s * std::exp(vdt * (2.0 * i - double(kSteps))));
  }
  LaunchSpec l;
  l.grid.x = uint32_t(n);
  l.block.x = kLeaves;
  l.buffers.push_back(make_buffer("leaf_price", leaf_price));
  l.buffers.push_back(make_buffer("strike", strike));
  l.buffers.push_back(make_buffer("pu_df", pu_df));
  l.buffers.push_back(make_buffer("pd_df", pd_df));
  l.buffers.push_back(poisoned_buffer("value", n));
  l.args = {KernelArg::buffer_arg(kLeafPrice), KernelArg::buffer_arg(kStrike),
            KernelArg::buffer_arg(kPuDf), KernelArg::buffer_arg(kPdDf),
            KernelArg::buffer_arg(kValue)};
  return l;
}

// A float product rounded to float on its own (never fused into an fma).
float product(float a, float b) {
  volatile float p = a * b;
  return p;
}

// The host reference: the kernel's induction, operation for operation.
std::vector<float> prices(const std::vector<float>& leaf_price, const std::vector<float>& strike,
                          const std::vector<float>& pu_df, const std::vector<float>& pd_df) {
  std::vector<float> value(strike.size());
  float node[kLeaves];
  for (size_t o = 0; o < strike.size(); ++o) {
    for (uint32_t t = 0; t < kLeaves; ++t) {
      float payoff = leaf_price[o * kLeaves + t] - strike[o];
      node[t] = payoff > 0.0f ? payoff : 0.0f;  // max.f32 (no NaN here)
    }
    for (int i = int(kSteps) - 1; i >= 0; --i)
      for (int t = 0; t <= i; ++t)
        node[t] = product(pu_df[o], node[t + 1]) + product(pd_df[o], node[t]);
    value[o] = node[0];
  }
  return value;
}

LaunchSpec expected(const LaunchSpec& in) {
  buffer_at(kName, in, kValue);  // throws unless the launch is one make_launch built
  auto leaf_price = read_buffer<float>(in.buffers[kLeafPrice]);
  auto strike = read_buffer<float>(in.buffers[kStrike]);
  auto pu_df = read_buffer<float>(in.buffers[kPuDf]);
  auto pd_df = read_buffer<float>(in.buffers[kPdDf]);
  size_t n = strike.size();
  if (leaf_price.size() != n * kLeaves || pu_df.size() != n || pd_df.size() != n)
    throw std::invalid_argument(std::string(kName) + ": option buffers of inconsistent sizes");
  return with_buffer(in, kValue, prices(leaf_price, strike, pu_df, pd_df));
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  return check_buffer<float>(kName, expected(in), out, kValue);
}

}  // namespace

Scenario make_binomial() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title = "Binomial option pricing, 127-step backward induction per option in shared memory";
  s.mirrors = "BINOM, Binomial options (CUDA SDK binomialOptions, SLP Table 1)";
  s.divergence = {Divergence::Programmatic};
  s.entry = "binomial_price";
  s.sizes = {{"test", 4}, {"study", 256}};
  s.min_n = 1;
  s.max_n = kMaxN;
  return s;
}

}  // namespace warptlm::scenarios
