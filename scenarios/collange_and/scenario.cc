// collange_and: Collange's `if (A && B) C; else D; E;` (seed 002), with A and
// B tests of per-thread loaded data. Size n = number of threads (any n; the
// last CTA is partly idle when n is not a multiple of the block size).
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

constexpr const char* kName = "collange_and";
constexpr uint32_t kBlock = 256;
constexpr uint64_t kMaxN = uint64_t(1) << 24;
constexpr uint32_t kTable = 256;  // entries of table_c and table_d
constexpr size_t kKeys = 0, kFlags = 1, kTableC = 2, kTableD = 3, kOut = 4;  // buffer indices
constexpr size_t kArgN = 5;

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, 1, kMaxN);
  std::mt19937_64 rng(seed);
  // Uniform words: A (key % 4 != 0) holds for 3/4 of the threads, B (flag
  // bit 0) for 1/2, independently, so C runs for 3/8 and D for 5/8.
  auto keys = draw_words(rng, n);
  auto flags = draw_words(rng, n);
  auto table_c = draw_words(rng, kTable);
  auto table_d = draw_words(rng, kTable);
  LaunchSpec l = launch_covering(n, kBlock);
  l.buffers.push_back(make_buffer("keys", keys));
  l.buffers.push_back(make_buffer("flags", flags));
  l.buffers.push_back(make_buffer("table_c", table_c));
  l.buffers.push_back(make_buffer("table_d", table_d));
  l.buffers.push_back(poisoned_buffer("out", n));
  l.args = {KernelArg::buffer_arg(kKeys),   KernelArg::buffer_arg(kFlags),
            KernelArg::buffer_arg(kTableC), KernelArg::buffer_arg(kTableD),
            KernelArg::buffer_arg(kOut),    KernelArg::scalar(Type::U32, n)};
  return l;
}

// The host reference: the kernel's C, D and E in 32-bit unsigned arithmetic.
uint32_t reference(uint32_t key, uint32_t flag, const std::vector<uint32_t>& table_c,
                   const std::vector<uint32_t>& table_d, uint32_t i) {
  uint32_t r;
  if (key % 4 != 0 && (flag & 1) != 0) {
    r = table_c[(key >> 2) & 255];
    r = (r ^ flag) * 0x2545F491u;
  } else {
    r = table_d[(key >> 8) & 255];
    r = r + key * 3u;
    r ^= r >> 11;
  }
  return (r ^ (r >> 16)) + i;
}

LaunchSpec expected(const LaunchSpec& in) {
  buffer_at(kName, in, kOut);  // throws unless the launch is one make_launch built
  require_arg_count(kName, in, kArgN + 1);
  auto keys = read_buffer<uint32_t>(in.buffers[kKeys]);
  auto flags = read_buffer<uint32_t>(in.buffers[kFlags]);
  auto table_c = read_buffer<uint32_t>(in.buffers[kTableC]);
  auto table_d = read_buffer<uint32_t>(in.buffers[kTableD]);
  if (table_c.size() != kTable || table_d.size() != kTable || flags.size() != keys.size())
    throw std::invalid_argument(std::string(kName) + ": input buffers have the wrong sizes");
  uint64_t threads = std::min<uint64_t>(in.args[kArgN].bits, keys.size());
  return with_thread_results<uint32_t>(in, kOut, threads, [&](size_t i) {
    return reference(keys[i], flags[i], table_c, table_d, uint32_t(i));
  });
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  return check_buffer<uint32_t>(kName, expected(in), out, kOut);
}

}  // namespace

Scenario make_collange_and() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title = "Short-circuit conjunction `if (A && B) C; else D; E;` on loaded per-thread data";
  s.mirrors =
      "Collange's `if (A && B) C; else D; E;` example (Collange & Brunie, CompAS 2017; seed 002)";
  s.divergence = {Divergence::Unstructured, Divergence::Data};
  s.entry = "collange_and";
  s.sizes = {{"test", 4096}, {"study", uint64_t(1) << 20}};
  s.min_n = 1;
  s.max_n = kMaxN;
  return s;
}

}  // namespace warptlm::scenarios
