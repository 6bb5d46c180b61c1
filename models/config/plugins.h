// Component plug-ins: shared libraries that register reconvergence schemes,
// warp schedulers, lane permutations, compaction units or DRAM schedulers by
// name, written and built outside
// models/ (examples/components is one). A plug-in defines
//
//   extern "C" void warptlm_register_components(const warptlm::PluginApi* api);
//
// and registers its components through `api`, so it needs only warptlm's
// headers: the registries it calls are the host's (the CLI's or the Python
// module's), whichever loaded it. Both CLIs and the Python package load the
// plug-ins named by the environment variable WARPTLM_PLUGINS (paths separated
// by ':') before anything else, so a registered name is accepted by the
// configuration, `list schemes`, runs and sweeps (whose child processes
// inherit the variable).
#pragma once

#include <string>
#include <vector>

#include "compaction/compaction_unit.h"
#include "compaction/lane_permutation.h"
#include "dram/scheduler/dram_scheduler.h"
#include "simt/reconvergence_unit.h"
#include "sm/scheduler/warp_scheduler.h"

namespace warptlm {

constexpr unsigned kPluginApiVersion = 3;

struct PluginApi {
  unsigned version = kPluginApiVersion;  // a plug-in built for another version refuses to load
  void (*register_reconvergence)(const std::string& name, ReconvergenceFactory factory,
                                 bool needs_markers, const std::string& description,
                                 const std::vector<StatInfo>& stats,
                                 const std::vector<OptionInfo>& options);
  void (*register_warp_scheduler)(const std::string& name, WarpSchedulerFactory factory,
                                  const std::string& description);
  void (*register_lane_permutation)(const std::string& name, LanePermutationFactory factory,
                                    const std::string& description);
  void (*register_compaction_unit)(const std::string& name, CompactionUnitFactory factory,
                                   const std::string& description,
                                   const std::vector<OptionInfo>& options);
  void (*register_dram_scheduler)(const std::string& name, DramSchedulerFactory factory,
                                  const std::string& description);
};

// Loads the plug-in at `path` and lets it register its components; loading
// the same file again does nothing. std::invalid_argument naming the path for
// a file that does not exist, cannot be loaded (the loader's message) or has
// no warptlm_register_components; what the plug-in's registrations throw
// (a name already registered) propagates, prefixed with the path.
void load_plugin(const std::string& path);
// Loads every plug-in WARPTLM_PLUGINS names (empty entries are skipped).
void load_plugins_from_environment();
// The plug-ins loaded so far (canonical paths), in load order.
std::vector<std::string> loaded_plugins();

}  // namespace warptlm
