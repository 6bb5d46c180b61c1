// Helpers for the third-party kernel tests (tests/data/ptx/thirdparty, made by
// scripts/regen_test_ptx.sh): typed host buffers, a cache of finalized
// programs, a deterministic input generator and ulp distances.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "exec/functional_executor.h"
#include "frontend/finalizer.h"
#include "frontend/ptx_parser.h"

namespace warptlm::thirdparty {

template <class T>
HostBuffer buffer(const std::string& name, const std::vector<T>& values) {
  HostBuffer b;
  b.name = name;
  b.bytes.resize(values.size() * sizeof(T));
  std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
  return b;
}

template <class T>
std::vector<T> values(const HostBuffer& b) {
  std::vector<T> v(b.bytes.size() / sizeof(T));
  std::memcpy(v.data(), b.bytes.data(), v.size() * sizeof(T));
  return v;
}

// tests/data/ptx/thirdparty/<file>, parsed and finalized once per test binary.
inline const Program& program(const std::string& file) {
  static std::map<std::string, std::unique_ptr<Program>> cache;
  auto& p = cache[file];
  if (!p) {
    const std::string path = std::string(WARPTLM_TEST_DATA) + "/ptx/thirdparty/" + file;
    p = std::make_unique<Program>(finalize(parse_ptx_file(path)));
  }
  return *p;
}

// Whether the program contains an instruction satisfying `pred`.
template <class Pred>
bool contains(const Program& p, Pred pred) {
  for (const Instruction& in : p.module.code)
    if (pred(in)) return true;
  return false;
}

// A fixed-seed xorshift generator: the same inputs on every host and library.
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed ? seed : 1) {}
  uint64_t next() {
    s_ ^= s_ << 13;
    s_ ^= s_ >> 7;
    s_ ^= s_ << 17;
    return s_;
  }
  // Uniform in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * double(next() >> 11) * 0x1p-53; }
  int32_t range(int32_t lo, int32_t hi) { return lo + int32_t(next() % uint64_t(hi - lo + 1)); }

 private:
  uint64_t s_;
};

// Monotonic integer keys of IEEE values: adjacent floats differ by 1, +0 and
// -0 coincide, and infinity sits one step past the largest finite value.
inline int64_t ordered(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return (b >> 31) ? -int64_t(b & 0x7fffffffu) : int64_t(b);
}
inline int64_t ordered(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return (b >> 63) ? -int64_t(b & 0x7fffffffffffffffull) : int64_t(b);
}

// The error of `got` in units in the last place as the CUDA Programming
// Guide states its bounds: the distance from the correctly rounded result,
// here the exact result `ref` (computed in a wider format) rounded to T.
// NaN must meet NaN; anything else against NaN is an infinite error.
template <class T, class Wide>
double ulp_error(T got, Wide ref) {
  const T cr = static_cast<T>(ref);
  if (std::isnan(cr) || std::isnan(got)) return std::isnan(cr) && std::isnan(got) ? 0 : INFINITY;
  const int64_t d = ordered(got) - ordered(cr);
  return double(d < 0 ? -d : d);
}

}  // namespace warptlm::thirdparty
