// reduction: REDUCT kernel 0 (interleaved tree reduction, one partial sum per
// CTA). Size n = number of input elements, a multiple of the block size.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <random>
#include <vector>

#include "builtin.h"
#include "common/buffers.h"
#include "common/compare.h"
#include "common/draw.h"
#include "common/size_rules.h"

namespace warptlm::scenarios {
namespace {

constexpr const char* kName = "reduction";
constexpr uint32_t kBlock = 256;  // threads per CTA; the kernel's shared array holds 256
constexpr uint64_t kMaxN = uint64_t(1) << 24;
constexpr size_t kIn = 0, kPartial = 1;  // buffer indices
// Inputs in [-1000, 1000]: a CTA's sum stays far inside int32, so the signed
// additions never overflow (which would be undefined in the CUDA source).
constexpr int64_t kMaxMagnitude = 1000;

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, kBlock, kMaxN, kBlock);
  std::mt19937_64 rng(seed);
  std::vector<int32_t> in(n);
  for (auto& v : in) v = int32_t(draw_between(rng, -kMaxMagnitude, kMaxMagnitude));
  LaunchSpec l = launch_covering(n, kBlock);
  l.buffers.push_back(make_buffer("in", in));
  l.buffers.push_back(poisoned_buffer("partial", l.grid.x));
  l.args = {KernelArg::buffer_arg(kIn), KernelArg::buffer_arg(kPartial)};
  return l;
}

// The host reference: the sum of each block-sized chunk.
std::vector<int32_t> partial_sums(const std::vector<int32_t>& in, uint32_t block) {
  std::vector<int32_t> sums(in.size() / block, 0);
  for (size_t i = 0; i < in.size(); ++i) sums[i / block] += in[i];
  return sums;
}

LaunchSpec expected(const LaunchSpec& in) {
  buffer_at(kName, in, kPartial);  // throws unless the launch is one make_launch built
  auto values = read_buffer<int32_t>(in.buffers[kIn]);
  if (values.size() % kBlock != 0)  // a hand-built launch: each CTA sums a whole block
    throw std::invalid_argument(std::string(kName) + ": input holds " +
                                std::to_string(values.size()) + " elements, not a multiple of " +
                                std::to_string(kBlock));
  return with_buffer(in, kPartial, partial_sums(values, kBlock));
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  return check_buffer<int32_t>(kName, expected(in), out, kPartial);
}

}  // namespace

Scenario make_reduction() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title = "Shared-memory tree reduction, one partial sum per CTA (interleaved addressing)";
  s.mirrors = "REDUCT, Reduction kernel 0 (SLP Table 1)";
  s.divergence = {Divergence::Programmatic};
  s.entry = "reduce_interleaved";
  s.sizes = {{"test", 4096}, {"study", uint64_t(1) << 20}};
  s.min_n = kBlock;
  s.max_n = kMaxN;
  s.n_multiple = kBlock;
  return s;
}

}  // namespace warptlm::scenarios
