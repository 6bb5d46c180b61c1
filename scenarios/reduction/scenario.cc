// reduction: REDUCT kernel 0 (interleaved tree reduction, one partial sum per
// CTA). Size n = number of input elements, a multiple of the block size.
#include <cstdint>
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
constexpr uint32_t kPoison = 0xCDCDCDCDu;  // outputs start as this, so a missing store shows

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, kBlock, kMaxN, kBlock);
  std::mt19937_64 rng(seed);
  std::vector<int32_t> in(n);
  for (auto& v : in) v = int32_t(draw_between(rng, -kMaxMagnitude, kMaxMagnitude));
  LaunchSpec l;
  l.grid.x = uint32_t(n / kBlock);
  l.block.x = kBlock;
  l.buffers.push_back(make_buffer("in", in));
  l.buffers.push_back(make_buffer("partial", std::vector<uint32_t>(l.grid.x, kPoison)));
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
  LaunchSpec e = in;
  auto values = read_buffer<int32_t>(in.buffers[kIn]);
  e.buffers[kPartial] = make_buffer("partial", partial_sums(values, kBlock));
  return e;
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  auto want = read_buffer<int32_t>(buffer_at(kName, expected(in), kPartial));
  auto got = read_buffer<int32_t>(buffer_at(kName, out, kPartial));
  return compare_exact("partial", want, got);
}

}  // namespace

Scenario make_reduction() {
  Scenario s;
  s.name = kName;
  s.title = "Shared-memory tree reduction, one partial sum per CTA (interleaved addressing)";
  s.mirrors = "REDUCT, Reduction kernel 0 (SLP Table 1)";
  s.divergence = {Divergence::Programmatic};
  s.source_dir = "reduction";
  s.entry = "reduce_interleaved";
  s.sizes = {{"test", 4096}, {"study", uint64_t(1) << 20}};
  s.min_n = kBlock;
  s.max_n = kMaxN;
  s.n_multiple = kBlock;
  s.make_launch = make_launch;
  s.check = check;
  s.expected = expected;
  return s;
}

}  // namespace warptlm::scenarios
