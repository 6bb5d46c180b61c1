// Exact comparison of a kernel's output with the host reference, reporting
// the first mismatch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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

}  // namespace warptlm::scenarios
