// nested3: nested divergence three levels deep with work at every level.
// Level 1 is the lane's parity (programmatic); levels 2 and 3 test bits of
// the thread's loaded word (data). Size n = number of threads (any n; the
// last CTA is partly idle when n is not a multiple of the block size).
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
constexpr uint32_t kPoison = 0xCDCDCDCDu;

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, 1, kMaxN);
  std::mt19937_64 rng(seed);
  // Uniform words: each level-2 and level-3 test bit is set for half the
  // threads, independently.
  std::vector<uint32_t> in(n), table(kTable);
  for (auto& v : in) v = uint32_t(rng() >> 32);
  for (auto& v : table) v = uint32_t(rng() >> 32);
  LaunchSpec l;
  l.grid.x = uint32_t(ceil_div(n, kBlock));
  l.block.x = kBlock;
  l.buffers.push_back(make_buffer("in", in));
  l.buffers.push_back(make_buffer("table", table));
  l.buffers.push_back(make_buffer("out", std::vector<uint32_t>(n, kPoison)));
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
  if (in.args.size() != kArgN + 1)
    throw std::invalid_argument(std::string(kName) + ": the launch has " +
                                std::to_string(in.args.size()) + " arguments, expected 4");
  auto values = read_buffer<uint32_t>(in.buffers[kIn]);
  auto table = read_buffer<uint32_t>(in.buffers[kTableBuf]);
  auto out = read_buffer<uint32_t>(in.buffers[kOut]);
  if (table.size() != kTable)
    throw std::invalid_argument(std::string(kName) + ": the table must hold 256 words");
  uint64_t n = in.args[kArgN].bits;
  // Threads at or past n store nothing: their outputs keep their initial bytes.
  for (size_t i = 0; i < out.size() && i < values.size() && i < n; ++i)
    out[i] = reference(values[i], uint32_t(i), table);
  LaunchSpec e = in;
  e.buffers[kOut] = make_buffer("out", out);
  return e;
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  auto want = read_buffer<uint32_t>(buffer_at(kName, expected(in), kOut));
  auto got = read_buffer<uint32_t>(buffer_at(kName, out, kOut));
  return compare_exact("out", want, got);
}

}  // namespace

Scenario make_nested3() {
  Scenario s;
  s.name = kName;
  s.title = "Nested if/else three levels deep with work at every level (lane parity, then data)";
  s.mirrors =
      "nested divergence, as in the nested example of Multi-Path IPDOM (seed 003, Fig. 6) and "
      "Collange's traversal orders (seed 002); synthetic kernel";
  s.divergence = {Divergence::Programmatic, Divergence::Data};
  s.source_dir = "nested3";
  s.entry = "nested3";
  s.sizes = {{"test", 4096}, {"study", uint64_t(1) << 20}};
  s.min_n = 1;
  s.max_n = kMaxN;
  s.make_launch = make_launch;
  s.check = check;
  s.expected = expected;
  return s;
}

}  // namespace warptlm::scenarios
