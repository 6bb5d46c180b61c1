// hashprobe: unstructured control flow. Each thread looks up a query in an
// open-addressing hash table with linear probing; the probe loop has three
// exits leading to different code. Size n = number of queries (any n; the
// last CTA is partly idle when n is not a multiple of the block size).
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "builtin.h"
#include "common/buffers.h"
#include "common/compare.h"
#include "common/draw.h"
#include "common/size_rules.h"

namespace warptlm::scenarios {
namespace {

constexpr const char* kName = "hashprobe";
constexpr uint32_t kBlock = 256;
constexpr uint64_t kMaxN = uint64_t(1) << 22;
// A table of at least 2n slots (a power of two, at least 64) filled to 3/4:
// linear probing then makes clusters of very different lengths, and a few are
// longer than the probe limit.
constexpr uint32_t kMinSlotsLog2 = 6;
constexpr uint32_t kMaxProbes = 24;
constexpr uint32_t kEmpty = 0, kAbsent = 0x80000000u, kGaveUp = 0xFFFFFFFFu;  // as in kernel.cu
constexpr uint32_t kHashMultiplier = 0x9E3779B1u;
constexpr size_t kKeys = 0, kValues = 1, kQueries = 2, kResults = 3;  // buffer indices
constexpr size_t kArgShift = 2, kArgN = 5, kArgMaxProbes = 6;

uint32_t home_slot(uint32_t key, uint32_t shift) { return (key * kHashMultiplier) >> shift; }

// A key not yet used: nonzero (0 marks an empty slot) and distinct.
uint32_t fresh_key(std::mt19937_64& rng, std::unordered_set<uint32_t>& used) {
  for (;;) {
    uint32_t k = draw_word(rng);
    if (k != kEmpty && used.insert(k).second) return k;
  }
}

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, 1, kMaxN);
  uint32_t log2_slots = kMinSlotsLog2;
  while ((uint64_t(1) << log2_slots) < 2 * n) ++log2_slots;
  uint32_t slots = uint32_t(1) << log2_slots, shift = 32 - log2_slots;

  std::mt19937_64 rng(seed);
  std::unordered_set<uint32_t> used;
  std::vector<uint32_t> keys(slots, kEmpty), values(slots, 0), stored;
  for (uint32_t count = 0; count < slots / 4 * 3; ++count) {
    uint32_t key = fresh_key(rng, used);
    uint32_t slot = home_slot(key, shift);
    while (keys[slot] != kEmpty) slot = (slot + 1) & (slots - 1);
    keys[slot] = key;
    values[slot] = uint32_t(rng() >> 33);  // below 2^31: never mistaken for kAbsent / kGaveUp
    stored.push_back(key);
  }
  // Half the queries hit a stored key, half miss.
  std::vector<uint32_t> queries(n);
  for (auto& q : queries)
    q = draw_below(rng, 2) == 0 ? stored[draw_below(rng, stored.size())] : fresh_key(rng, used);

  LaunchSpec l = launch_covering(n, kBlock);
  l.buffers.push_back(make_buffer("keys", keys));
  l.buffers.push_back(make_buffer("values", values));
  l.buffers.push_back(make_buffer("queries", queries));
  l.buffers.push_back(poisoned_buffer("results", n));
  l.args = {KernelArg::buffer_arg(kKeys),
            KernelArg::buffer_arg(kValues),
            KernelArg::scalar(Type::U32, shift),
            KernelArg::buffer_arg(kQueries),
            KernelArg::buffer_arg(kResults),
            KernelArg::scalar(Type::U32, n),
            KernelArg::scalar(Type::U32, kMaxProbes)};
  return l;
}

// The host reference: the kernel's lookup.
uint32_t lookup(const std::vector<uint32_t>& keys, const std::vector<uint32_t>& values,
                uint32_t shift, uint32_t query, uint32_t max_probes) {
  uint32_t mask = 0xFFFFFFFFu >> shift;
  uint32_t slot = home_slot(query, shift);
  for (uint32_t probes = 1; probes <= max_probes; ++probes) {
    if (keys[slot] == query) return values[slot];
    if (keys[slot] == kEmpty) return kAbsent | probes;
    slot = (slot + 1) & mask;
  }
  return kGaveUp;
}

LaunchSpec expected(const LaunchSpec& in) {
  buffer_at(kName, in, kResults);  // throws unless the launch is one make_launch built
  require_arg_count(kName, in, kArgMaxProbes + 1);
  auto keys = read_buffer<uint32_t>(in.buffers[kKeys]);
  auto values = read_buffer<uint32_t>(in.buffers[kValues]);
  auto queries = read_buffer<uint32_t>(in.buffers[kQueries]);
  uint32_t shift = uint32_t(in.args[kArgShift].bits);
  uint32_t max_probes = uint32_t(in.args[kArgMaxProbes].bits);
  if (shift == 0 || shift > 31 || keys.size() != (size_t(1) << (32 - shift)) ||
      values.size() != keys.size())
    throw std::invalid_argument(std::string(kName) + ": table and shift do not match");
  uint64_t threads = std::min<uint64_t>(in.args[kArgN].bits, queries.size());
  return with_thread_results<uint32_t>(in, kResults, threads, [&](size_t i) {
    return lookup(keys, values, shift, queries[i], max_probes);
  });
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  return check_buffer<uint32_t>(kName, expected(in), out, kResults);
}

}  // namespace

Scenario make_hashprobe() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title = "Linear-probing hash lookups whose probe loop exits three ways";
  s.mirrors = "unstructured control-flow microbenchmarks (PPC paper, Fig. 6)";
  s.divergence = {Divergence::Unstructured, Divergence::Data, Divergence::LoopTrip};
  s.entry = "hash_probe";
  s.sizes = {{"test", 1024}, {"study", uint64_t(1) << 16}};
  s.min_n = 1;
  s.max_n = kMaxN;
  return s;
}

}  // namespace warptlm::scenarios
