#include "common/compare.h"

#include <cstdio>
#include <cstring>

namespace warptlm::scenarios {
namespace {

// "0.5 (0x3f000000)": the value, and the bits that were compared.
std::string describe(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  char text[48];
  std::snprintf(text, sizeof text, "%.9g (0x%08x)", double(f), unsigned(bits));
  return text;
}

}  // namespace

CheckResult compare_float_bits(const std::string& what, const std::vector<float>& expected,
                               const std::vector<float>& got) {
  CheckResult r;
  if (expected.size() != got.size()) {
    r.message = what + ": expected " + std::to_string(expected.size()) + " values, got " +
                std::to_string(got.size());
    return r;
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    if (std::memcmp(&expected[i], &got[i], sizeof(float)) != 0) {
      r.message = what + "[" + std::to_string(i) + "]: expected " + describe(expected[i]) +
                  ", got " + describe(got[i]) + " (bit-exact comparison)";
      return r;
    }
  }
  r.passed = true;
  r.message = what + ": all " + std::to_string(expected.size()) + " values match bit for bit";
  return r;
}

}  // namespace warptlm::scenarios
