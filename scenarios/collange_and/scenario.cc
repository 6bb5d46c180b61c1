// collange_and: Collange's `if (A && B) C; else D; E;` (seed 002), with A and
// B tests of per-thread loaded data. Size n = number of threads (any n; the
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

constexpr const char* kName = "collange_and";
constexpr uint32_t kBlock = 256;
constexpr uint64_t kMaxN = uint64_t(1) << 24;
constexpr uint32_t kTable = 256;  // entries of table_c and table_d
constexpr size_t kKeys = 0, kFlags = 1, kTableC = 2, kTableD = 3, kOut = 4;  // buffer indices
constexpr size_t kArgN = 5;
constexpr uint32_t kPoison = 0xCDCDCDCDu;

std::vector<uint32_t> random_words(std::mt19937_64& rng, size_t count) {
  std::vector<uint32_t> v(count);
  for (auto& x : v) x = uint32_t(rng() >> 32);
  return v;
}

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, 1, kMaxN);
  std::mt19937_64 rng(seed);
  // Uniform words: A (key % 4 != 0) holds for 3/4 of the threads, B (flag
  // bit 0) for 1/2, independently, so C runs for 3/8 and D for 5/8.
  auto keys = random_words(rng, n);
  auto flags = random_words(rng, n);
  auto table_c = random_words(rng, kTable);
  auto table_d = random_words(rng, kTable);
  LaunchSpec l;
  l.grid.x = uint32_t(ceil_div(n, kBlock));
  l.block.x = kBlock;
  l.buffers.push_back(make_buffer("keys", keys));
  l.buffers.push_back(make_buffer("flags", flags));
  l.buffers.push_back(make_buffer("table_c", table_c));
  l.buffers.push_back(make_buffer("table_d", table_d));
  l.buffers.push_back(make_buffer("out", std::vector<uint32_t>(n, kPoison)));
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
  if (in.args.size() != kArgN + 1)
    throw std::invalid_argument(std::string(kName) + ": the launch has " +
                                std::to_string(in.args.size()) + " arguments, expected 6");
  auto keys = read_buffer<uint32_t>(in.buffers[kKeys]);
  auto flags = read_buffer<uint32_t>(in.buffers[kFlags]);
  auto table_c = read_buffer<uint32_t>(in.buffers[kTableC]);
  auto table_d = read_buffer<uint32_t>(in.buffers[kTableD]);
  auto out = read_buffer<uint32_t>(in.buffers[kOut]);
  if (table_c.size() != kTable || table_d.size() != kTable || flags.size() != keys.size())
    throw std::invalid_argument(std::string(kName) + ": input buffers have the wrong sizes");
  uint64_t n = in.args[kArgN].bits;
  // Threads at or past n store nothing: their outputs keep their initial bytes.
  for (size_t i = 0; i < out.size() && i < keys.size() && i < n; ++i)
    out[i] = reference(keys[i], flags[i], table_c, table_d, uint32_t(i));
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

Scenario make_collange_and() {
  Scenario s;
  s.name = kName;
  s.title = "Short-circuit conjunction `if (A && B) C; else D; E;` on loaded per-thread data";
  s.mirrors =
      "Collange's `if (A && B) C; else D; E;` example (Collange & Brunie, CompAS 2017; seed 002)";
  s.divergence = {Divergence::Unstructured, Divergence::Data};
  s.source_dir = "collange_and";
  s.entry = "collange_and";
  s.sizes = {{"test", 4096}, {"study", uint64_t(1) << 20}};
  s.min_n = 1;
  s.max_n = kMaxN;
  s.make_launch = make_launch;
  s.check = check;
  s.expected = expected;
  return s;
}

}  // namespace warptlm::scenarios
