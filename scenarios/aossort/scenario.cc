// aossort: AOSSORT (sort of an array of structures): each CTA sorts a chunk
// of 128 records {key, id, x, y} (four 32-bit words each) by key in shared
// memory with odd-even transposition sort, one record per thread. The sort is
// stable. Size n = number of records, a multiple of the chunk.
#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "builtin.h"
#include "common/buffers.h"
#include "common/draw.h"
#include "common/size_rules.h"

namespace warptlm::scenarios {
namespace {

constexpr const char* kName = "aossort";
constexpr uint32_t kChunk = 128;  // records per CTA = threads per CTA (shared array holds 256)
constexpr uint64_t kMaxN = uint64_t(1) << 22;
constexpr size_t kRecords = 0;  // the one buffer, sorted in place
constexpr uint32_t kWords = 4;  // words per record: key, id, x, y (as in kernel.cu)
constexpr const char* kField[kWords] = {"key", "id", "x", "y"};
// Keys below 32: about four records share each key in a chunk, so stability
// (ids of equal keys stay in input order) is tested.
constexpr uint64_t kKeyRange = 32;

struct Record {
  uint32_t w[kWords];
};

std::vector<Record> to_records(const std::vector<uint32_t>& words) {
  std::vector<Record> r(words.size() / kWords);
  for (size_t i = 0; i < r.size(); ++i)
    for (uint32_t f = 0; f < kWords; ++f) r[i].w[f] = words[i * kWords + f];
  return r;
}

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, kChunk, kMaxN, kChunk);
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> words(n * kWords);
  for (uint64_t i = 0; i < n; ++i) {
    words[i * kWords + 0] = uint32_t(draw_below(rng, kKeyRange));
    words[i * kWords + 1] = uint32_t(i);  // the id: its input position
    words[i * kWords + 2] = draw_word(rng);
    words[i * kWords + 3] = draw_word(rng);
  }
  LaunchSpec l = launch_covering(n, kChunk);
  l.buffers.push_back(make_buffer("records", words));
  l.args = {KernelArg::buffer_arg(kRecords)};
  return l;
}

// The host reference: every chunk stably sorted by key.
LaunchSpec expected(const LaunchSpec& in) {
  auto words = read_buffer<uint32_t>(buffer_at(kName, in, kRecords));
  if (words.size() % (kChunk * kWords) != 0)
    throw std::invalid_argument(std::string(kName) + ": records must be whole chunks of " +
                                std::to_string(kChunk) + " records");
  std::vector<Record> recs = to_records(words);
  for (size_t begin = 0; begin < recs.size(); begin += kChunk)
    std::stable_sort(recs.begin() + begin, recs.begin() + begin + kChunk,
                     [](const Record& a, const Record& b) { return a.w[0] < b.w[0]; });
  for (size_t i = 0; i < recs.size(); ++i)
    for (uint32_t f = 0; f < kWords; ++f) words[i * kWords + f] = recs[i].w[f];
  return with_buffer(in, kRecords, words);
}

// Exact comparison, naming the first differing record and field.
CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  auto want = read_buffer<uint32_t>(buffer_at(kName, expected(in), kRecords));
  auto got = read_buffer<uint32_t>(buffer_at(kName, out, kRecords));
  CheckResult r;
  if (want.size() != got.size()) {
    r.message = "records: expected " + std::to_string(want.size() / kWords) + " records, got " +
                std::to_string(got.size()) + " bytes / 4 words";
    return r;
  }
  for (size_t i = 0; i < want.size(); ++i) {
    if (want[i] != got[i]) {
      r.message = "records[" + std::to_string(i / kWords) + "]." + kField[i % kWords] +
                  ": expected " + std::to_string(want[i]) + ", got " + std::to_string(got[i]) +
                  " (chunk " + std::to_string(i / kWords / kChunk) + ")";
      return r;
    }
  }
  r.passed = true;
  r.message = "records: all " + std::to_string(want.size() / kWords) + " records match";
  return r;
}

}  // namespace

Scenario make_aossort() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title =
      "Stable sort of 16-byte records by key, 128 per CTA, odd-even transposition in shared memory";
  s.mirrors = "AOSSORT, AOS sorting (SLP Table 1)";
  s.divergence = {Divergence::Programmatic, Divergence::Data};
  s.entry = "aos_transposition_sort";
  s.sizes = {{"test", 256}, {"study", uint64_t(1) << 14}};
  s.min_n = kChunk;
  s.max_n = kMaxN;
  s.n_multiple = kChunk;
  return s;
}

}  // namespace warptlm::scenarios
