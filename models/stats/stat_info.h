// One statistic as the model reports it: its key, its unit and what it means.
// Each component that counts something keeps the table of its statistics next
// to its counters; gpu/statistics.h gathers them into the one registry that
// the CLIs, the Python package and docs/statistics.md list.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace warptlm {

struct StatInfo {
  std::string name;     // key in a run's statistics (relative to the component's prefix)
  std::string unit;     // "warp instructions", "cycles", "fraction", ...
  std::string meaning;  // one definition, formula included where it is derived
  // How parts of one run combine (warps, SMs): by maximum (a peak), else by sum.
  bool peak = false;
};

// The index of statistic `name` in `infos`, or infos.size() when it is not there.
inline size_t stat_index(const std::vector<StatInfo>& infos, const std::string& name) {
  size_t i = 0;
  while (i < infos.size() && infos[i].name != name) ++i;
  return i;
}

}  // namespace warptlm
