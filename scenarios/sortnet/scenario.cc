// sortnet: SORTNW (a sorting network over key/value pairs in shared memory):
// Batcher's odd-even merge sort of one chunk of 256 pairs per CTA, 128
// threads each owning one comparator per step. Even chunks are sorted
// ascending, odd chunks descending. Size n = number of pairs, a multiple of
// the chunk.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "builtin.h"
#include "common/buffers.h"
#include "common/compare.h"
#include "common/draw.h"
#include "common/size_rules.h"

namespace warptlm::scenarios {
namespace {

constexpr const char* kName = "sortnet";
constexpr uint32_t kBlock = 128;         // threads per CTA
constexpr uint32_t kChunk = 2 * kBlock;  // pairs per CTA (the kernel's shared arrays hold 256)
constexpr uint64_t kMaxN = uint64_t(1) << 24;
constexpr size_t kKeys = 0, kVals = 1;  // buffer indices; both sorted in place

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, kChunk, kMaxN, kChunk);
  std::mt19937_64 rng(seed);
  // Keys keep only their top 8 bits: 256 values for 256 pairs a chunk, so
  // many keys repeat and the network alone decides the order of their values
  // (half the keys have bit 31 set, which a signed compare would misorder).
  std::vector<uint32_t> keys(n), vals(n);
  for (uint64_t i = 0; i < n; ++i) {
    keys[i] = uint32_t(rng() >> 56) << 24;
    vals[i] = draw_word(rng);
  }
  LaunchSpec l;
  l.grid.x = uint32_t(n / kChunk);
  l.block.x = kBlock;
  l.buffers.push_back(make_buffer("keys", keys));
  l.buffers.push_back(make_buffer("vals", vals));
  l.args = {KernelArg::buffer_arg(kKeys), KernelArg::buffer_arg(kVals)};
  return l;
}

bool ascending_chunk(size_t chunk_index) { return chunk_index % 2 == 0; }

// The host reference: the same odd-even merge network, comparator by
// comparator. The comparators of one step touch disjoint pairs, so running
// them one after another gives what the CTA's threads give in parallel.
void sort_chunk(uint32_t* key, uint32_t* val, uint32_t len, bool ascending) {
  auto compare_exchange = [&](uint32_t a, uint32_t b) {
    if ((key[a] > key[b]) == ascending) {
      std::swap(key[a], key[b]);
      std::swap(val[a], val[b]);
    }
  };
  for (uint32_t run = 1; run < len; run <<= 1) {
    for (uint32_t stride = run; stride > 0; stride >>= 1) {
      for (uint32_t t = 0; t < len / 2; ++t) {
        uint32_t pos = 2 * t - (t & (stride - 1));
        if (stride == run) {
          compare_exchange(pos, pos + stride);
        } else {
          uint32_t a = pos + stride, b = a + stride;
          if ((a & ~(2 * run - 1)) == (b & ~(2 * run - 1))) compare_exchange(a, b);
        }
      }
    }
  }
}

LaunchSpec expected(const LaunchSpec& in) {
  auto keys = read_buffer<uint32_t>(buffer_at(kName, in, kKeys));
  auto vals = read_buffer<uint32_t>(buffer_at(kName, in, kVals));
  if (keys.size() != vals.size() || keys.size() % kChunk != 0)
    throw std::invalid_argument(std::string(kName) + ": keys and vals must hold the same " +
                                "whole number of " + std::to_string(kChunk) + "-pair chunks");
  for (size_t c = 0; c < keys.size() / kChunk; ++c) {
    uint32_t* k = keys.data() + c * kChunk;
    std::vector<uint32_t> sorted(k, k + kChunk);
    if (ascending_chunk(c))
      std::sort(sorted.begin(), sorted.end());
    else
      std::sort(sorted.begin(), sorted.end(), std::greater<uint32_t>());
    sort_chunk(k, vals.data() + c * kChunk, kChunk, ascending_chunk(c));
    // The network is a sorting network: its keys are the sorted keys.
    if (!std::equal(sorted.begin(), sorted.end(), k))
      throw std::logic_error(std::string(kName) + ": the reference network did not sort chunk " +
                             std::to_string(c));
  }
  return with_buffer(with_buffer(in, kKeys, keys), kVals, vals);
}

// First checks that every chunk's keys are in its order (the clearer message
// when the sort is wrong), then compares keys and values with the network's
// result: values of equal keys must end where the network puts them.
CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  LaunchSpec e = expected(in);
  auto got_keys = read_buffer<uint32_t>(buffer_at(kName, out, kKeys));
  auto got_vals = read_buffer<uint32_t>(buffer_at(kName, out, kVals));
  auto want_keys = read_buffer<uint32_t>(e.buffers[kKeys]);
  auto want_vals = read_buffer<uint32_t>(e.buffers[kVals]);
  if (got_keys.size() == want_keys.size()) {
    CheckResult order = check_chunk_order("keys", got_keys, kChunk, ascending_chunk);
    if (!order.passed) return order;
  }
  CheckResult r = compare_exact("keys", want_keys, got_keys);
  if (!r.passed) return r;
  CheckResult v = compare_exact("vals", want_vals, got_vals);
  if (!v.passed) return v;
  r.message += "; " + v.message;
  return r;
}

}  // namespace

Scenario make_sortnet() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title =
      "Odd-even merge sorting network over key/value pairs, 256 pairs per CTA in shared memory";
  s.mirrors = "SORTNW, Sorting network (SLP Table 1)";
  s.divergence = {Divergence::Programmatic, Divergence::Data};
  s.entry = "oddeven_merge_sort";
  s.sizes = {{"test", 1024}, {"study", uint64_t(1) << 16}};
  s.min_n = kChunk;
  s.max_n = kMaxN;
  s.n_multiple = kChunk;
  return s;
}

}  // namespace warptlm::scenarios
