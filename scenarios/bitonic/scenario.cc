// bitonic: BITONIC (bitonic sort of one block-sized chunk per CTA in shared
// memory). Size n = number of keys, a multiple of the chunk size.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "builtin.h"
#include "common/buffers.h"
#include "common/compare.h"
#include "common/size_rules.h"

namespace warptlm::scenarios {
namespace {

constexpr const char* kName = "bitonic";
constexpr uint32_t kChunk = 256;  // keys per CTA = threads per CTA (the kernel's shared array)
constexpr uint64_t kMaxN = uint64_t(1) << 24;
constexpr size_t kKeys = 0;  // the one buffer, sorted in place

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, kChunk, kMaxN, kChunk);
  std::mt19937_64 rng(seed);
  // Keys keep only their top 12 bits: about 8 duplicates per chunk exercise
  // equal compares, and half the keys have bit 31 set so a signed compare in
  // the kernel would sort them wrongly.
  std::vector<uint32_t> keys(n);
  for (auto& k : keys) k = uint32_t(rng() >> 52) << 20;
  LaunchSpec l = launch_covering(n, kChunk);
  l.buffers.push_back(make_buffer("keys", keys));
  l.args = {KernelArg::buffer_arg(kKeys)};
  return l;
}

// The host reference: every chunk sorted ascending.
std::vector<uint32_t> sorted_chunks(std::vector<uint32_t> keys, uint32_t chunk) {
  for (size_t begin = 0; begin + chunk <= keys.size(); begin += chunk)
    std::sort(keys.begin() + begin, keys.begin() + begin + chunk);
  return keys;
}

LaunchSpec expected(const LaunchSpec& in) {
  auto keys = read_buffer<uint32_t>(buffer_at(kName, in, kKeys));
  return with_buffer(in, kKeys, sorted_chunks(keys, kChunk));
}

// First checks that every chunk is ascending (the clearer message when the
// sort is wrong), then that it is a permutation of its input: an ascending
// chunk is one exactly when it equals the sorted input chunk.
CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  auto got = read_buffer<uint32_t>(buffer_at(kName, out, kKeys));
  auto want = read_buffer<uint32_t>(buffer_at(kName, expected(in), kKeys));
  if (got.size() == want.size()) {
    CheckResult order = check_chunk_order("keys", got, kChunk, [](size_t) { return true; });
    if (!order.passed) return order;
  }
  CheckResult r = compare_exact("keys", want, got);
  if (!r.passed && got.size() == want.size())
    r.message += " (chunks are ascending but not a permutation of their input)";
  return r;
}

}  // namespace

Scenario make_bitonic() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title = "Bitonic sort of one 256-key chunk per CTA in shared memory";
  s.mirrors = "BITONIC, Bitonic sort (SLP Table 1)";
  s.divergence = {Divergence::Programmatic, Divergence::Data};
  s.entry = "bitonic_chunks";
  s.sizes = {{"test", 1024}, {"study", uint64_t(1) << 16}};
  s.min_n = kChunk;
  s.max_n = kMaxN;
  s.n_multiple = kChunk;
  return s;
}

}  // namespace warptlm::scenarios
