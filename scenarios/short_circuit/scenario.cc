// short_circuit: `if (a && b) X; else if (a || c) Y; else Z;` where X jumps
// into Y's tail, on per-thread loaded data (PPC paper's unstructured
// micro-benchmarks). Size n = number of threads (any n; the last CTA is
// partly idle when n is not a multiple of the block size).
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

constexpr const char* kName = "short_circuit";
constexpr uint32_t kBlock = 256;
constexpr uint64_t kMaxN = uint64_t(1) << 24;
constexpr uint32_t kTable = 256;
constexpr size_t kKeys = 0, kBFlags = 1, kCFlags = 2, kTableBuf = 3, kOut = 4;  // buffer indices
constexpr size_t kArgN = 5;

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, 1, kMaxN);
  std::mt19937_64 rng(seed);
  // Uniform words: a (key % 3 != 0) holds for about 2/3 of the threads, b and
  // c (bit 0 of their flag words) for 1/2 each, independently. So X runs for
  // 1/3 of the threads, Y for 1/2 (a && !b, or !a && c), Z for 1/6, and the
  // shared tail S for 5/6.
  auto keys = draw_words(rng, n);
  auto bflags = draw_words(rng, n);
  auto cflags = draw_words(rng, n);
  auto table = draw_words(rng, kTable);
  LaunchSpec l = launch_covering(n, kBlock);
  l.buffers.push_back(make_buffer("keys", keys));
  l.buffers.push_back(make_buffer("bflags", bflags));
  l.buffers.push_back(make_buffer("cflags", cflags));
  l.buffers.push_back(make_buffer("table", table));
  l.buffers.push_back(poisoned_buffer("out", n));
  l.args = {KernelArg::buffer_arg(kKeys),   KernelArg::buffer_arg(kBFlags),
            KernelArg::buffer_arg(kCFlags), KernelArg::buffer_arg(kTableBuf),
            KernelArg::buffer_arg(kOut),    KernelArg::scalar(Type::U32, n)};
  return l;
}

// The host reference: the kernel's blocks X, Y, S, Z and T in 32-bit
// unsigned arithmetic, written without the goto.
uint32_t reference(uint32_t key, uint32_t bflag, uint32_t cflag,
                   const std::vector<uint32_t>& table) {
  bool a = key % 3 != 0, b = (bflag & 1) != 0, c = (cflag & 1) != 0;
  uint32_t r;
  if (a || c) {
    if (a && b) {  // X
      r = table[key & 255] ^ key;
      r = r * 0x9E3779B1u;
    } else {  // Y
      r = table[(key >> 8) & 255] + key;
      r ^= r << 7;
    }
    // S
    r = (r ^ (r >> 15)) * 0x2C1B3C6Du;
    r += table[(r >> 24) & 255];
  } else {  // Z
    r = table[(key >> 16) & 255] - key;
  }
  return r ^ (r >> 13);  // T
}

LaunchSpec expected(const LaunchSpec& in) {
  buffer_at(kName, in, kOut);  // throws unless the launch is one make_launch built
  require_arg_count(kName, in, kArgN + 1);
  auto keys = read_buffer<uint32_t>(in.buffers[kKeys]);
  auto bflags = read_buffer<uint32_t>(in.buffers[kBFlags]);
  auto cflags = read_buffer<uint32_t>(in.buffers[kCFlags]);
  auto table = read_buffer<uint32_t>(in.buffers[kTableBuf]);
  if (table.size() != kTable || bflags.size() != keys.size() || cflags.size() != keys.size())
    throw std::invalid_argument(std::string(kName) + ": input buffers have the wrong sizes");
  uint64_t threads = std::min<uint64_t>(in.args[kArgN].bits, keys.size());
  return with_thread_results<uint32_t>(
      in, kOut, threads, [&](size_t i) { return reference(keys[i], bflags[i], cflags[i], table); });
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  return check_buffer<uint32_t>(kName, expected(in), out, kOut);
}

}  // namespace

Scenario make_short_circuit() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title =
      "Short-circuit conditions `if (a && b) X; else if (a || c) Y; else Z;` with shared tails";
  s.mirrors =
      "unstructured control-flow microbenchmarks: short-circuit conditions (PPC paper, Fig. 6)";
  s.divergence = {Divergence::Unstructured, Divergence::Data};
  s.entry = "short_circuit";
  s.sizes = {{"test", 4096}, {"study", uint64_t(1) << 20}};
  s.min_n = 1;
  s.max_n = kMaxN;
  return s;
}

}  // namespace warptlm::scenarios
