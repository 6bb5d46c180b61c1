// mpipdom_example: the Multi-Path IPDOM worked example (seed 003). An if/else
// whose short side does one update of the output word and whose long side
// does four dependent read-modify-writes, then a common update. Size n =
// number of threads (any n; the last CTA is partly idle when n is not a
// multiple of the block size).
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

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, 1, kMaxN);
  std::mt19937_64 rng(seed);
  std::vector<int32_t> in(n);
  for (auto& v : in) v = int32_t(draw_between(rng, -kMaxMagnitude, kMaxMagnitude));
  LaunchSpec l = launch_covering(n, kBlock);
  l.buffers.push_back(make_buffer("in", in));
  l.buffers.push_back(poisoned_buffer("out", n));
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
  require_arg_count(kName, in, kArgN + 1);
  auto values = read_buffer<int32_t>(in.buffers[kIn]);
  uint64_t threads = std::min<uint64_t>(in.args[kArgN].bits, values.size());
  return with_thread_results<int32_t>(in, kOut, threads,
                                      [&](size_t i) { return reference(values[i], i); });
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  return check_buffer<int32_t>(kName, expected(in), out, kOut);
}

}  // namespace

Scenario make_mpipdom_example() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title =
      "Multi-Path IPDOM worked example: if/else with 1 update on the short side, 4 dependent "
      "updates on the long side, then a common update";
  s.mirrors = "the Multi-Path IPDOM example kernel (ElTantawy et al., HPCA 2014; seed 003)";
  s.divergence = {Divergence::Programmatic};
  s.entry = "mpipdom_example";
  s.sizes = {{"test", 4096}, {"study", uint64_t(1) << 20}};
  s.min_n = 1;
  s.max_n = kMaxN;
  return s;
}

}  // namespace warptlm::scenarios
