// goto_into_loop: a goto from before a loop into the middle of its body
// (PPC paper's unstructured micro-benchmarks). Each thread hashes its word
// for a loaded number of rounds; threads with a complete header resume in
// the middle of the first round. Size n = number of threads (any n; the last
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

constexpr const char* kName = "goto_into_loop";
constexpr uint32_t kBlock = 256;
constexpr uint64_t kMaxN = uint64_t(1) << 24;
constexpr uint32_t kTable = 256;
constexpr uint32_t kMaxRounds = 16;  // rounds per thread, drawn in [1, 16]
constexpr size_t kIn = 0, kRounds = 1, kTableBuf = 2, kOut = 3;  // buffer indices
constexpr size_t kArgN = 4;

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, 1, kMaxN);
  std::mt19937_64 rng(seed);
  // Uniform words: half the threads have a header (bit 0), and half of those
  // a complete one (bit 1) that sends them into the middle of the loop.
  auto in = draw_words(rng, n);
  std::vector<uint32_t> rounds(n);
  for (auto& v : rounds) v = uint32_t(1 + draw_below(rng, kMaxRounds));
  auto table = draw_words(rng, kTable);
  LaunchSpec l = launch_covering(n, kBlock);
  l.buffers.push_back(make_buffer("in", in));
  l.buffers.push_back(make_buffer("rounds", rounds));
  l.buffers.push_back(make_buffer("table", table));
  l.buffers.push_back(poisoned_buffer("out", n));
  l.args = {KernelArg::buffer_arg(kIn), KernelArg::buffer_arg(kRounds),
            KernelArg::buffer_arg(kTableBuf), KernelArg::buffer_arg(kOut),
            KernelArg::scalar(Type::U32, n)};
  return l;
}

// The host reference: the kernel's computation in 32-bit unsigned
// arithmetic, with the goto written as a flag that skips Z and the first L1.
uint32_t reference(uint32_t x, uint32_t rounds, const std::vector<uint32_t>& table) {
  uint32_t h = x ^ 0x811C9DC5u;
  bool mid_entry = false;
  if (x & 1) {
    h = (h * 0x01000193u) ^ table[x & 255];  // X
    if (x & 2)
      mid_entry = true;
    else
      h += table[(h >> 8) & 255];  // Y
  }
  if (!mid_entry) h ^= x >> 3;  // Z
  do {
    if (!mid_entry) h = (h ^ (h >> 15)) * 0x2C1B3C6Du;  // L1
    mid_entry = false;
    h += table[(h >> 24) & 255];  // L2
    h ^= h << 5;
  } while (--rounds != 0);
  return h;
}

LaunchSpec expected(const LaunchSpec& in) {
  buffer_at(kName, in, kOut);  // throws unless the launch is one make_launch built
  require_arg_count(kName, in, kArgN + 1);
  auto values = read_buffer<uint32_t>(in.buffers[kIn]);
  auto rounds = read_buffer<uint32_t>(in.buffers[kRounds]);
  auto table = read_buffer<uint32_t>(in.buffers[kTableBuf]);
  if (table.size() != kTable || rounds.size() != values.size())
    throw std::invalid_argument(std::string(kName) + ": input buffers have the wrong sizes");
  uint64_t threads = std::min<uint64_t>(in.args[kArgN].bits, values.size());
  return with_thread_results<uint32_t>(in, kOut, threads, [&](size_t i) {
    // The kernel's do-while runs 2^32 times for 0 rounds; make_launch never draws 0.
    if (rounds[i] == 0 || rounds[i] > kMaxRounds)
      throw std::invalid_argument(std::string(kName) + ": rounds[" + std::to_string(i) +
                                  "] is outside [1, 16]");
    return reference(values[i], rounds[i], table);
  });
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  return check_buffer<uint32_t>(kName, expected(in), out, kOut);
}

}  // namespace

Scenario make_goto_into_loop() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title =
      "A goto from before a loop into the middle of its body (irreducible), loaded trip counts";
  s.mirrors = "unstructured control-flow microbenchmarks: goto into a loop (PPC paper, Fig. 6)";
  s.divergence = {Divergence::Unstructured, Divergence::Data, Divergence::LoopTrip};
  s.entry = "goto_into_loop";
  s.sizes = {{"test", 4096}, {"study", uint64_t(1) << 18}};
  s.min_n = 1;
  s.max_n = kMaxN;
  return s;
}

}  // namespace warptlm::scenarios
