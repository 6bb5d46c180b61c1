// Exact comparison of a kernel's output with the host reference, reporting
// the first mismatch.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "common/buffers.h"
#include "scenario.h"

namespace warptlm::scenarios {

// Compares element by element; on failure the message names `what`, the
// first differing index, the expected and the actual value (or the lengths).
template <class T>
CheckResult compare_exact(const std::string& what, const std::vector<T>& expected,
                          const std::vector<T>& got) {
  CheckResult r;
  if (expected.size() != got.size()) {
    r.message = what + ": expected " + std::to_string(expected.size()) + " values, got " +
                std::to_string(got.size());
    return r;
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    if (expected[i] != got[i]) {
      r.message = what + "[" + std::to_string(i) + "]: expected " + std::to_string(expected[i]) +
                  ", got " + std::to_string(got[i]);
      return r;
    }
  }
  r.passed = true;
  r.message = what + ": all " + std::to_string(expected.size()) + " values match";
  return r;
}

// compare_exact for floats, bit for bit: -0 differs from +0 and a NaN from
// itself only where the bits differ. A mismatch shows both values and bits.
CheckResult compare_float_bits(const std::string& what, const std::vector<float>& expected,
                               const std::vector<float>& got);

// The usual check(): buffer `index` of `out` against the same buffer of
// `expected` (the scenario's expected(in)), as T elements, exactly (floats bit
// for bit), named by the buffer's name. Throws std::invalid_argument naming
// the scenario when either launch lacks the buffer.
template <class T>
CheckResult check_buffer(const std::string& scenario, const LaunchSpec& expected,
                         const LaunchSpec& out, size_t index) {
  const HostBuffer& want = buffer_at(scenario, expected, index);
  const HostBuffer& got = buffer_at(scenario, out, index);
  if constexpr (std::is_same_v<T, float>)
    return compare_float_bits(want.name, read_buffer<float>(want), read_buffer<float>(got));
  else
    return compare_exact(want.name, read_buffer<T>(want), read_buffer<T>(got));
}

// Whether every `chunk`-key run of `keys` is sorted: ascending where
// ascending(c) holds for chunk c, else descending. The sort checks run this
// before comparing with the reference: "chunk 2 not ascending at index 517:
// 9 before 4" says more about a broken sort than the first differing key.
template <class Ascending>
CheckResult check_chunk_order(const std::string& what, const std::vector<uint32_t>& keys,
                              size_t chunk, Ascending ascending) {
  CheckResult r;
  for (size_t i = 1; i < keys.size(); ++i) {
    if (i % chunk == 0) continue;
    bool up = ascending(i / chunk);
    if (up ? keys[i] < keys[i - 1] : keys[i] > keys[i - 1]) {
      r.message = what + ": chunk " + std::to_string(i / chunk) + " not " +
                  (up ? "ascending" : "descending") + " at index " + std::to_string(i) + ": " +
                  std::to_string(keys[i - 1]) + " before " + std::to_string(keys[i]);
      return r;
    }
  }
  r.passed = true;
  r.message = what + ": every chunk in order";
  return r;
}

}  // namespace warptlm::scenarios
