// The Scenario helpers that do not depend on a particular scenario.
#include "scenario.h"

#include <cctype>
#include <stdexcept>

#include "common/size_rules.h"

namespace warptlm::scenarios {

const char* divergence_name(Divergence d) {
  switch (d) {
    case Divergence::None:
      return "none";
    case Divergence::Programmatic:
      return "programmatic";
    case Divergence::Data:
      return "data";
    case Divergence::LoopTrip:
      return "loop-trip";
    case Divergence::Unstructured:
      return "unstructured";
  }
  return "?";
}

namespace {

// The allowed sizes of `s`, for error messages: "test (4096), study (1048576)
// or a number that is a multiple of 256 in [256, 16777216]".
std::string allowed_sizes(const Scenario& s) {
  std::string names;
  for (const Size& z : s.sizes)
    names += (names.empty() ? "" : ", ") + z.name + " (" + std::to_string(z.n) + ")";
  return names + " or a number " + (s.n_multiple > 1 ? "that is " : "") +
         size_rule(s.min_n, s.max_n, s.n_multiple);
}

}  // namespace

uint64_t resolve_size(const Scenario& s, const std::string& size) {
  for (const Size& z : s.sizes)
    if (z.name == size) return z.n;
  bool numeric = !size.empty();
  for (char c : size) numeric = numeric && std::isdigit(static_cast<unsigned char>(c));
  if (!numeric)
    throw std::invalid_argument(s.name + ": unknown size '" + size +
                                "'; sizes: " + allowed_sizes(s));
  // More than 19 digits may not fit in uint64_t, and is out of range anyway.
  uint64_t n = size.size() <= 19 ? std::stoull(size) : ~uint64_t(0);
  bool aligned = s.n_multiple <= 1 || n % s.n_multiple == 0;
  if (size.size() > 19 || n < s.min_n || n > s.max_n || !aligned)
    throw std::invalid_argument(s.name + ": size " + size +
                                " is not allowed; sizes: " + allowed_sizes(s));
  return n;
}

}  // namespace warptlm::scenarios
