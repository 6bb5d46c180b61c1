// Looks up a scenario's PTX among the texts embedded at build time.
#include <cstring>
#include <stdexcept>

#include "embedded_ptx.h"
#include "scenario.h"

namespace warptlm::scenarios {

const std::string& scenario_ptx(const Scenario& s) {
  // One std::string per folder, made on first use and kept: callers may hold
  // the reference for the life of the program.
  static const std::vector<std::string> texts = [] {
    std::vector<std::string> t;
    for (size_t i = 0; i < detail::kEmbeddedPtxCount; ++i)
      t.emplace_back(detail::kEmbeddedPtx[i].text);
    return t;
  }();
  for (size_t i = 0; i < detail::kEmbeddedPtxCount; ++i)
    if (s.source_dir == detail::kEmbeddedPtx[i].dir) return texts[i];
  throw std::invalid_argument("scenario '" + s.name + "': no embedded PTX for folder '" +
                              s.source_dir + "' (is there a scenarios/" + s.source_dir +
                              "/kernel.ptx?)");
}

}  // namespace warptlm::scenarios
