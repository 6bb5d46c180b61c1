// multi_exit_loop: a scan loop with three exits leading to different
// continuation code, two of which share a tail (PPC paper's unstructured
// micro-benchmarks). Size n = number of threads, one record of kStride words
// each (any n; the last CTA is partly idle when n is not a multiple of the
// block size).
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

constexpr const char* kName = "multi_exit_loop";
constexpr uint32_t kBlock = 256;
constexpr uint64_t kMaxN = uint64_t(1) << 22;
constexpr uint32_t kTable = 256;
constexpr uint32_t kStride = 16;                         // words per record
constexpr uint32_t kLimit = 12;                          // words scanned at most
constexpr uint32_t kEscape = 0xFFFF0000u;                // as MULTI_EXIT_ESCAPE in kernel.cu
constexpr size_t kRecords = 0, kTableBuf = 1, kOut = 2;  // buffer indices
constexpr size_t kArgStride = 1, kArgLimit = 2, kArgN = 5;

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, 1, kMaxN);
  std::mt19937_64 rng(seed);
  // Each word is a terminator (0) with probability 1/10, an escape with
  // probability 1/16, else an ordinary word; so a scan goes on with
  // probability 0.84 per word and about 12% of the records reach the limit.
  std::vector<uint32_t> records(n * kStride);
  for (auto& w : records) {
    uint64_t d = draw_below(rng, 160);
    if (d < 16)
      w = 0;
    else if (d < 26)
      w = kEscape | uint32_t(draw_below(rng, 0x10000));
    else
      w = uint32_t(1 + draw_below(rng, kEscape - 1));
  }
  auto table = draw_words(rng, kTable);
  LaunchSpec l = launch_covering(n, kBlock);
  l.buffers.push_back(make_buffer("records", records));
  l.buffers.push_back(make_buffer("table", table));
  l.buffers.push_back(poisoned_buffer("out", n));
  l.args = {KernelArg::buffer_arg(kRecords),      KernelArg::scalar(Type::U32, kStride),
            KernelArg::scalar(Type::U32, kLimit), KernelArg::buffer_arg(kTableBuf),
            KernelArg::buffer_arg(kOut),          KernelArg::scalar(Type::U32, n)};
  return l;
}

// The host reference: the kernel's scan and its three continuations, in
// 32-bit unsigned arithmetic.
uint32_t reference(const uint32_t* rec, uint32_t limit, const std::vector<uint32_t>& table) {
  uint32_t sum = 0x811C9DC5u, k = 0, r;
  for (;;) {
    if (k == limit) return 0x80000000u | (sum >> 1);  // too_long
    uint32_t w = rec[k];
    if (w == 0) {  // terminated
      r = sum + (k << 24);
      break;
    }
    sum = (sum ^ w) * 0x01000193u;
    ++k;
    if (w >= kEscape) {  // escaped
      r = (sum ^ table[w & 255]) + k;
      r ^= r >> 7;
      break;
    }
  }
  r = (r ^ (r >> 16)) * 0x45D9F3Bu;  // finish
  return (r ^ (r >> 16)) & 0x7FFFFFFFu;
}

LaunchSpec expected(const LaunchSpec& in) {
  buffer_at(kName, in, kOut);  // throws unless the launch is one make_launch built
  require_arg_count(kName, in, kArgN + 1);
  auto records = read_buffer<uint32_t>(in.buffers[kRecords]);
  auto table = read_buffer<uint32_t>(in.buffers[kTableBuf]);
  size_t outputs = read_buffer<uint32_t>(in.buffers[kOut]).size();
  uint64_t stride = in.args[kArgStride].bits, limit = in.args[kArgLimit].bits;
  if (table.size() != kTable || limit > stride || records.size() < outputs * stride)
    throw std::invalid_argument(std::string(kName) + ": input buffers and arguments do not match");
  return with_thread_results<uint32_t>(in, kOut, in.args[kArgN].bits, [&](size_t i) {
    return reference(records.data() + i * stride, uint32_t(limit), table);
  });
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  return check_buffer<uint32_t>(kName, expected(in), out, kOut);
}

}  // namespace

Scenario make_multi_exit_loop() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title =
      "Record scan loop with three exits (terminator, escape, length limit) to different "
      "continuations, two sharing a tail";
  s.mirrors =
      "unstructured control-flow microbenchmarks: a loop with several exits (PPC paper, Fig. 6)";
  s.divergence = {Divergence::Unstructured, Divergence::Data, Divergence::LoopTrip};
  s.entry = "multi_exit_loop";
  s.sizes = {{"test", 4096}, {"study", uint64_t(1) << 18}};
  s.min_n = 1;
  s.max_n = kMaxN;
  return s;
}

}  // namespace warptlm::scenarios
