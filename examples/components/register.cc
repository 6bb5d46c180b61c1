// The plug-in's entry point: the host (a CLI or the Python module) calls it
// with the registration functions of its own registries.
#include <stdexcept>
#include <string>

#include "example_components.h"

extern "C" void warptlm_register_components(const warptlm::PluginApi* api) {
  if (api->version != warptlm::kPluginApiVersion)
    throw std::runtime_error("built for plug-in API " + std::to_string(warptlm::kPluginApiVersion) +
                             ", the host has " + std::to_string(api->version));
  api->register_reconvergence("not_taken_first", &warptlm_example::make_not_taken_first, false,
                              "IPDOM stack running the fall-through side first (example plug-in)",
                              warptlm_example::not_taken_first_stats(), {});
  api->register_warp_scheduler("youngest_first", &warptlm_example::make_youngest_first,
                               "youngest warp first (example plug-in)");
  api->register_compaction_unit(
      "adequate_tbc", &warptlm_example::make_adequate_tbc,
      "tbc where it needs fewer warps: CAPRI with a perfect predictor (example plug-in)",
      warptlm_example::adequate_tbc_options());
}
