// The registry of compaction units by name (registry/component_registry.h).
#include <stdexcept>

#include "compaction/capri_compaction.h"
#include "compaction/compaction_unit.h"
#include "compaction/ideal_compaction.h"
#include "compaction/tbc_compaction.h"
#include "registry/component_registry.h"

namespace warptlm {
namespace {

using Registry = ComponentRegistry<CompactionUnitFactory>;

template <typename T>
std::unique_ptr<CompactionUnit> make(const CompactionSetup& setup) {
  return std::make_unique<T>(setup);
}

// docs/compaction.md describes each.
std::vector<Registry::Entry> builtins() {
  return {
      {"tbc", "thread block compaction: threads keep their (permuted) home lanes",
       &make<TbcCompaction>},
      {"capri", "tbc at the divergent branches CAPRI's table predicts worth it (capri.*)",
       &make<CapriCompaction>, CapriCompaction::option_infos()},
      {"ideal", "any thread in any lane: ceil(threads / warp_size) warps", &make<IdealCompaction>},
  };
}

Registry& registry() {
  static Registry r("compaction unit", "compaction", &builtins);
  return r;
}

}  // namespace

void register_compaction_unit(const std::string& name, CompactionUnitFactory factory,
                              const std::string& description,
                              const std::vector<OptionInfo>& options) {
  if (name == "none")
    throw std::invalid_argument("name: 'none' means no compaction and cannot be registered");
  registry().add(name, description, factory, options);
}

ComponentOptions compaction_unit_options(const std::string& name, const OptionValues& values) {
  return registry().options(name, values);
}

std::vector<DeclaredOptions> compaction_declared_options() { return registry().declared_options(); }

std::vector<std::string> compaction_unit_names() { return registry().names(); }

std::vector<std::pair<std::string, std::string>> compaction_unit_descriptions() {
  return registry().descriptions();
}

std::unique_ptr<CompactionUnit> make_compaction_unit(const std::string& name,
                                                     CompactionSetup setup) {
  if (name == "none") return nullptr;
  const CompactionUnitFactory factory = registry().factory(name);
  // A unit that builds another (a plug-in wrapping ideal) passes its own
  // setup on: the inner unit gets its own defaults.
  if (setup.options.component() != name) setup.options = compaction_unit_options(name, {});
  return factory(setup);
}

}  // namespace warptlm
