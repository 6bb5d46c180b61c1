// collatz: a data-dependent loop. Each thread counts the Collatz steps of a
// loaded start value, capped. Size n = number of threads (any n; the last
// CTA is partly idle when n is not a multiple of the block size).
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

constexpr const char* kName = "collatz";
constexpr uint32_t kBlock = 256;
constexpr uint64_t kMaxN = uint64_t(1) << 24;
// Start values below 2^16 take 0 to 339 steps; the cap of 256 cuts off the
// longest trajectories, and start value 0 (never reaching 1) always hits it.
constexpr uint32_t kMaxStart = 1u << 16;
constexpr uint32_t kMaxSteps = 256;
constexpr uint64_t kZeroOneIn = 64;       // about 1 in 64 start values is 0
constexpr size_t kStart = 0, kSteps = 1;  // buffer indices
constexpr size_t kArgN = 2, kArgMaxSteps = 3;

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, 1, kMaxN);
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> start(n);
  for (auto& v : start)
    v = draw_below(rng, kZeroOneIn) == 0 ? 0 : uint32_t(1 + draw_below(rng, kMaxStart - 1));
  LaunchSpec l = launch_covering(n, kBlock);
  l.buffers.push_back(make_buffer("start", start));
  l.buffers.push_back(poisoned_buffer("steps", n));
  l.args = {KernelArg::buffer_arg(kStart), KernelArg::buffer_arg(kSteps),
            KernelArg::scalar(Type::U32, n), KernelArg::scalar(Type::U32, kMaxSteps)};
  return l;
}

// The host reference: the kernel's loop, in the same 64-bit arithmetic.
uint32_t collatz_steps(uint64_t v, uint32_t max_steps) {
  uint32_t count = 0;
  while (v != 1 && count < max_steps) {
    v = (v & 1) ? 3 * v + 1 : v >> 1;
    ++count;
  }
  return count;
}

LaunchSpec expected(const LaunchSpec& in) {
  buffer_at(kName, in, kSteps);  // throws unless the launch is one make_launch built
  require_arg_count(kName, in, kArgMaxSteps + 1);
  auto start = read_buffer<uint32_t>(in.buffers[kStart]);
  uint32_t max_steps = uint32_t(in.args[kArgMaxSteps].bits);
  uint64_t threads = std::min<uint64_t>(in.args[kArgN].bits, start.size());
  return with_thread_results<uint32_t>(
      in, kSteps, threads, [&](size_t i) { return collatz_steps(start[i], max_steps); });
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  return check_buffer<uint32_t>(kName, expected(in), out, kSteps);
}

}  // namespace

Scenario make_collatz() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title = "Collatz trajectory lengths of loaded start values, capped at 256 steps";
  s.mirrors = "data-dependent loop trips, as in MUM and BFS (SLP Table 1); synthetic kernel";
  s.divergence = {Divergence::Data, Divergence::LoopTrip};
  s.entry = "collatz_steps";
  s.sizes = {{"test", 1024}, {"study", uint64_t(1) << 16}};
  s.min_n = 1;
  s.max_n = kMaxN;
  return s;
}

}  // namespace warptlm::scenarios
