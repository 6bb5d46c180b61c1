// nested3: nested divergence three levels deep with work at every level.
// Level 1 is the lane's parity (programmatic); levels 2 and 3 test bits of
// the thread's loaded word (data). Size n = number of threads (any n; the
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

constexpr const char* kName = "nested3";
constexpr uint32_t kBlock = 256;
constexpr uint64_t kMaxN = uint64_t(1) << 24;
constexpr uint32_t kTable = 256;
constexpr size_t kIn = 0, kTableBuf = 1, kOut = 2;  // buffer indices
constexpr size_t kArgN = 3;

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, 1, kMaxN);
  std::mt19937_64 rng(seed);
  // Uniform words: each level-2 and level-3 test bit is set for half the
  // threads, independently.
  auto in = draw_words(rng, n);
  auto table = draw_words(rng, kTable);
  LaunchSpec l = launch_covering(n, kBlock);
  l.buffers.push_back(make_buffer("in", in));
  l.buffers.push_back(make_buffer("table", table));
  l.buffers.push_back(poisoned_buffer("out", n));
  l.args = {KernelArg::buffer_arg(kIn), KernelArg::buffer_arg(kTableBuf),
            KernelArg::buffer_arg(kOut), KernelArg::scalar(Type::U32, n)};
  return l;
}

// The host reference: the kernel's tree in 32-bit unsigned arithmetic.
// Thread i is thread i % kBlock of its CTA.
uint32_t reference(uint32_t v, uint32_t i, const std::vector<uint32_t>& table) {
  uint32_t t = i % kBlock;
  uint32_t r = v * 0x01000193u + i;
  if (t & 1) {
    r += table[r & 255];
    if (v & 0x100) {
      r ^= table[(r >> 8) & 255];
      if (v & 0x200)
        r = r * 5u + table[(r >> 16) & 255];
      else
        r = (r >> 3) ^ table[(r >> 4) & 255];
      r += 0x9E37u;
    } else {
      r -= table[(r >> 12) & 255];
      if (v & 0x400)
        r = (r << 5) + table[(r >> 20) & 255];
      else
        r = r * 0x2545F491u ^ table[(r >> 24) & 255];
      r ^= r >> 9;
    }
    r = r * 3u + 1u;
  } else {
    r ^= table[(r >> 2) & 255];
    if (v & 0x800) {
      r = (r + 0x7F4A7C15u) ^ table[(r >> 10) & 255];
      if (v & 0x1000)
        r -= table[(r >> 18) & 255];
      else
        r ^= table[(r >> 6) & 255] << 1;
      r = (r >> 11) ^ (r << 20);
    } else {
      r += table[(r >> 14) & 255] * 7u;
    }
    r ^= 0x5bd1e995u;
  }
  return r ^ (r >> 16);
}

LaunchSpec expected(const LaunchSpec& in) {
  buffer_at(kName, in, kOut);  // throws unless the launch is one make_launch built
  require_arg_count(kName, in, kArgN + 1);
  auto values = read_buffer<uint32_t>(in.buffers[kIn]);
  auto table = read_buffer<uint32_t>(in.buffers[kTableBuf]);
  if (table.size() != kTable)
    throw std::invalid_argument(std::string(kName) + ": the table must hold 256 words");
  uint64_t threads = std::min<uint64_t>(in.args[kArgN].bits, values.size());
  return with_thread_results<uint32_t>(
      in, kOut, threads, [&](size_t i) { return reference(values[i], uint32_t(i), table); });
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  return check_buffer<uint32_t>(kName, expected(in), out, kOut);
}

}  // namespace

Scenario make_nested3() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title = "Nested if/else three levels deep with work at every level (lane parity, then data)";
  s.mirrors =
      "nested divergence, as in the nested example of Multi-Path IPDOM (seed 003, Fig. 6) and "
      "Collange's traversal orders (seed 002); synthetic kernel";
  s.divergence = {Divergence::Programmatic, Divergence::Data};
  s.entry = "nested3";
  s.sizes = {{"test", 4096}, {"study", uint64_t(1) << 20}};
  s.min_n = 1;
  s.max_n = kMaxN;
  return s;
}

}  // namespace warptlm::scenarios
