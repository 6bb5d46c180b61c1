// mpipdom_example: the Multi-Path IPDOM worked example (seed 003). An if/else
// whose short side does one update of the output word and whose long side
// does four dependent read-modify-writes, then a common update. Size n =
// number of threads (any n; the last CTA is partly idle when n is not a
// multiple of the block size).
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

constexpr const char* kName = "mpipdom_example";
constexpr uint32_t kBlock = 256;
constexpr uint64_t kMaxN = uint64_t(1) << 24;
// Inputs in [-10^6, 10^6]: adding at most 50007 never overflows int32.
constexpr int64_t kMaxMagnitude = 1000000;
// As in kernel.cu: the short side adds 50000, the long side 4 x 300, and
// every thread 7 after the sides reconverge.
constexpr int32_t kShortAdd = 50000, kLongStep = 300, kLongSteps = 4, kTailAdd = 7;
constexpr size_t kIn = 0, kOut = 1;  // buffer indices
constexpr size_t kArgN = 2;
constexpr uint32_t kPoison = 0xCDCDCDCDu;

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, 1, kMaxN);
  std::mt19937_64 rng(seed);
  std::vector<int32_t> in(n);
  for (auto& v : in) v = int32_t(draw_between(rng, -kMaxMagnitude, kMaxMagnitude));
  LaunchSpec l;
  l.grid.x = uint32_t(ceil_div(n, kBlock));
  l.block.x = kBlock;
  l.buffers.push_back(make_buffer("in", in));
  l.buffers.push_back(make_buffer("out", std::vector<uint32_t>(n, kPoison)));
  l.args = {KernelArg::buffer_arg(kIn), KernelArg::buffer_arg(kOut),
            KernelArg::scalar(Type::U32, n)};
  return l;
}

// The host reference: thread i is thread i % kBlock of its CTA; a quarter of
// every group of 8 threads takes the short side.
int32_t reference(int32_t v, uint64_t i) {
  uint64_t t = i % kBlock;
  int32_t r = t % 8 < 2 ? v + kShortAdd : v + kLongSteps * kLongStep;
  return r + kTailAdd;
}

LaunchSpec expected(const LaunchSpec& in) {
  buffer_at(kName, in, kOut);  // throws unless the launch is one make_launch built
  if (in.args.size() != kArgN + 1)
    throw std::invalid_argument(std::string(kName) + ": the launch has " +
                                std::to_string(in.args.size()) + " arguments, expected 3");
  auto values = read_buffer<int32_t>(in.buffers[kIn]);
  auto out = read_buffer<int32_t>(in.buffers[kOut]);
  uint64_t n = in.args[kArgN].bits;
  // Threads at or past n store nothing: their outputs keep their initial bytes.
  for (size_t i = 0; i < out.size() && i < values.size() && i < n; ++i)
    out[i] = reference(values[i], i);
  LaunchSpec e = in;
  e.buffers[kOut] = make_buffer("out", out);
  return e;
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  auto want = read_buffer<int32_t>(buffer_at(kName, expected(in), kOut));
  auto got = read_buffer<int32_t>(buffer_at(kName, out, kOut));
  return compare_exact("out", want, got);
}

}  // namespace

Scenario make_mpipdom_example() {
  Scenario s;
  s.name = kName;
  s.title =
      "Multi-Path IPDOM worked example: if/else with 1 update on the short side, 4 dependent "
      "updates on the long side, then a common update";
  s.mirrors = "the Multi-Path IPDOM example kernel (ElTantawy et al., HPCA 2014; seed 003)";
  s.divergence = {Divergence::Programmatic};
  s.source_dir = "mpipdom_example";
  s.entry = "mpipdom_example";
  s.sizes = {{"test", 4096}, {"study", uint64_t(1) << 20}};
  s.min_n = 1;
  s.max_n = kMaxN;
  s.make_launch = make_launch;
  s.check = check;
  s.expected = expected;
  return s;
}

}  // namespace warptlm::scenarios
