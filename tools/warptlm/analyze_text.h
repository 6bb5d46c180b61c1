// `analyze`'s text, shared by `warptlm analyze` and `python3 -m warptlm
// analyze` so the two cannot disagree: per function its blocks with IPDOMs,
// register pressure and every branch with its reconvergence point,
// structure, taint and CTA uniformity; optionally the exec-mask lowered code
// and the reconverging CFG (docs/finalizer.md, docs/reconverging-cfg.md).
#pragma once

#include <string>

namespace warptlm::cli {

struct AnalyzeOptions {
  bool markers = false;           // insert the explicit reconvergence markers
  bool lowered = false;           // the exec-mask lowered program, with its code listed
  bool reconverging = false;      // each function's reconverging CFG as text
  bool reconverging_dot = false;  // only the reconverging CFGs, as Graphviz
};

// The text for the PTX file `file`; PtxError (file:line:col) for a bad file,
// std::invalid_argument for markers together with lowered.
std::string analyze_text(const std::string& file, const AnalyzeOptions& options);

}  // namespace warptlm::cli
