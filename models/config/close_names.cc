#include "config/close_names.h"

#include <algorithm>

namespace warptlm {
namespace {

// Levenshtein distance with unit costs.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace

std::vector<std::string> close_names(const std::string& name, const std::vector<std::string>& known,
                                     size_t limit) {
  const size_t bound = std::max<size_t>(2, name.size() / 3);
  std::vector<std::pair<size_t, size_t>> found;  // (distance, index in known)
  for (size_t i = 0; i < known.size(); ++i) {
    const size_t d = edit_distance(name, known[i]);
    if (d <= bound) found.emplace_back(d, i);
  }
  std::stable_sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < found.size() && out.size() < limit; ++i)
    out.push_back(known[found[i].second]);
  return out;
}

std::string did_you_mean(const std::string& name, const std::vector<std::string>& known) {
  const std::vector<std::string> close = close_names(name, known);
  if (close.empty()) return "";
  std::string text = " (did you mean ";
  for (size_t i = 0; i < close.size(); ++i) text += (i ? ", '" : "'") + close[i] + "'";
  return text + "?)";
}

}  // namespace warptlm
