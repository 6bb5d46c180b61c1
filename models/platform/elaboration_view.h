// What a platform elaborated to, read from the SystemC objects themselves: the
// module hierarchy with SystemC names, every TLM socket and signal port with
// what it is bound to (found by following the bound interfaces), the routers'
// address maps, and every module's effective configuration with where each
// value came from (preset, file:line:col, --set). As JSON (what tests and
// tools read), text, or Graphviz dot.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "platform/platform_top.h"

namespace warptlm {

// Call after elaboration (sc_start(SC_ZERO_TIME) has run).
nlohmann::json elaboration_view(const PlatformTop& top);
std::string elaboration_text(const nlohmann::json& view);
std::string elaboration_dot(const nlohmann::json& view);

// Elaborates `description` with no jobs and returns its view; once per
// process, as run_platform.
nlohmann::json elaborate_platform(const PlatformDescription& description);

}  // namespace warptlm
