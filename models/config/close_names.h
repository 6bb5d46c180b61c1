// "Did you mean": the known names closest to a misspelt one, for error
// messages that name a field, preset or scheme that does not exist.
#pragma once

#include <string>
#include <vector>

namespace warptlm {

// Up to `limit` names of `known` within a small edit distance of `name`
// (at most a third of its length, and at least 2), closest first, ties in
// `known`'s order.
std::vector<std::string> close_names(const std::string& name, const std::vector<std::string>& known,
                                     size_t limit = 3);

// " (did you mean 'a', 'b'?)" for close_names(), or "" when none is close.
std::string did_you_mean(const std::string& name, const std::vector<std::string>& known);

}  // namespace warptlm
