// The registry of reconvergence schemes by name (component_registry.h).
#include <stdexcept>

#include "registry/component_registry.h"
#include "simt/breadth_first_queue.h"
#include "simt/dual_path_stack.h"
#include "simt/exec_mask_unit.h"
#include "simt/ipdom_stack.h"
#include "simt/min_pc_arbiter.h"
#include "simt/minority_first_stack.h"
#include "simt/mp_ipdom.h"
#include "simt/ppc_stack.h"
#include "simt/reconvergence_unit.h"
#include "simt/sorted_path_list.h"

namespace warptlm {
namespace {

// A registered scheme: its factory, the form of program it runs, and its own
// statistics.
struct Scheme {
  ReconvergenceFactory make = nullptr;
  ProgramForm form = ProgramForm::Plain;
  std::shared_ptr<const std::vector<StatInfo>> stats = none();
  explicit operator bool() const { return make != nullptr; }

  static const std::shared_ptr<const std::vector<StatInfo>>& none() {
    static const auto empty = std::make_shared<const std::vector<StatInfo>>();
    return empty;
  }
};
using Registry = ComponentRegistry<Scheme>;

template <typename T>
std::unique_ptr<ReconvergenceUnit> sized(unsigned warp_size, const ComponentOptions&) {
  return std::make_unique<T>(warp_size);
}
template <typename T>
std::unique_ptr<ReconvergenceUnit> unsized(unsigned, const ComponentOptions&) {
  return std::make_unique<T>();
}

// The schemes warptlm ships, in name order (docs/reconvergence.md).
std::vector<Registry::Entry> builtins() {
  return {
      {"breadth_first",
       "FIFO queue of paths, one basic block per turn; IPDOM joins",
       {&sized<BreadthFirstQueue>}},
      {"dual_path",
       "dual-path stack: both sides of the top entry issuable",
       {&unsized<DualPathStack>}},
      {"exec_mask",
       "compiler-side: reconverging CFG, exec-mask instructions, one pc (seed 001)",
       {&unsized<ExecMaskUnit>, ProgramForm::ExecMask}},
      {"ipdom", "the immediate post-dominator (IPDOM) stack", {&unsized<IpdomStack>}},
      {"min_pc",
       "per-thread PCs: max call depth, then min PC issues (Simty)",
       {&sized<MinPcArbiter>}},
      {"minority_first",
       "depth-first, the side with fewer lanes first; IPDOM",
       {&sized<MinorityFirstStack>}},
      {"mp_ipdom",
       "multi-path IPDOM: split and reconvergence tables (mp_ipdom.*)",
       {[](unsigned ws, const ComponentOptions& o) -> std::unique_ptr<ReconvergenceUnit> {
          return std::make_unique<MultiPathIpdom>(ws, o.get_unsigned("st_entries"),
                                                  o.get_unsigned("rt_entries"));
        },
        ProgramForm::Plain,
        std::make_shared<const std::vector<StatInfo>>(MultiPathIpdom::stat_infos())},
       MultiPathIpdom::option_infos()},
      {"ppc_explicit",
       "paired-path comparison at the finalizer's IPDOM markers",
       {[](unsigned, const ComponentOptions&) -> std::unique_ptr<ReconvergenceUnit> {
          return std::make_unique<PairedPathStack>(PairedPathStack::Mode::Explicit);
        },
        ProgramForm::Markers}},
      {"ppc_implicit",
       "paired-path comparison after every instruction, no markers",
       {[](unsigned, const ComponentOptions&) -> std::unique_ptr<ReconvergenceUnit> {
         return std::make_unique<PairedPathStack>(PairedPathStack::Mode::Implicit);
       }}},
      {"sorted_list",
       "Simty's sorted path list (HCT and CCT), no reconvergence point",
       {&sized<SortedPathList>, ProgramForm::Plain,
        std::make_shared<const std::vector<StatInfo>>(SortedPathList::stat_infos())}},
  };
}

Registry& registry() {
  static Registry r("scheme", "reconvergence", &builtins);
  return r;
}

}  // namespace

void register_reconvergence(const std::string& name, ReconvergenceFactory factory,
                            bool needs_markers, const std::string& description,
                            const std::vector<StatInfo>& stats,
                            const std::vector<OptionInfo>& options) {
  if (stats.size() > kMaxOwnStats)
    throw std::invalid_argument("stats: scheme '" + name + "' registers " +
                                std::to_string(stats.size()) + " statistics, at most " +
                                std::to_string(kMaxOwnStats));
  // One name means one statistic in every run's results.
  const std::vector<StatInfo> known = all_reconvergence_stats();
  for (size_t i = 0; i < stats.size(); ++i) {
    if (stats[i].name.empty())
      throw std::invalid_argument("stats: scheme '" + name +
                                  "' registers a statistic without a name");
    for (size_t j = 0; j < i; ++j)
      if (stats[j].name == stats[i].name)
        throw std::invalid_argument("stats: scheme '" + name + "' registers '" + stats[i].name +
                                    "' twice");
    for (const StatInfo& k : known)
      if (k.name == stats[i].name && (k.unit != stats[i].unit || k.peak != stats[i].peak))
        throw std::invalid_argument("stats: '" + stats[i].name +
                                    "' is already a statistic of another scheme, in " + k.unit +
                                    (k.peak ? " (a peak)" : " (a sum)"));
  }
  registry().add(name, description,
                 Scheme{factory, needs_markers ? ProgramForm::Markers : ProgramForm::Plain,
                        std::make_shared<const std::vector<StatInfo>>(stats)},
                 options);
}

std::shared_ptr<const std::vector<StatInfo>> reconvergence_stats(const std::string& name) {
  return registry().factory(name).stats;
}

std::vector<StatInfo> all_reconvergence_stats() {
  std::vector<StatInfo> out;
  for (const Registry::Entry& e : registry().entries())
    for (const StatInfo& s : *e.factory.stats) {
      bool seen = false;
      for (const StatInfo& o : out) seen |= o.name == s.name;
      if (!seen) out.push_back(s);
    }
  return out;
}

std::vector<std::string> reconvergence_names() { return registry().names(); }

std::vector<std::pair<std::string, std::string>> reconvergence_descriptions() {
  return registry().descriptions();
}

ComponentOptions reconvergence_options(const std::string& name, const OptionValues& values) {
  return registry().options(name, values);
}

std::vector<DeclaredOptions> reconvergence_declared_options() {
  return registry().declared_options();
}

std::unique_ptr<ReconvergenceUnit> make_reconvergence_unit(const std::string& name,
                                                           unsigned warp_size) {
  return make_reconvergence_unit(name, warp_size, reconvergence_options(name, {}));
}

std::unique_ptr<ReconvergenceUnit> make_reconvergence_unit(const std::string& name,
                                                           unsigned warp_size,
                                                           const ComponentOptions& options) {
  if (options.component() != name)
    throw std::logic_error("make_reconvergence_unit: the options of '" + options.component() +
                           "' given for scheme '" + name + "'");
  const Scheme scheme = registry().factory(name);
  std::unique_ptr<ReconvergenceUnit> unit = scheme.make(warp_size, options);
  if (!scheme.stats->empty()) unit->set_own_stats(scheme.stats);
  return unit;
}

ProgramForm reconvergence_program_form(const std::string& name) {
  return registry().factory(name).form;
}

const char* program_form_name(ProgramForm form) {
  switch (form) {
    case ProgramForm::Plain:
      return "plain";
    case ProgramForm::Markers:
      return "markers";
    case ProgramForm::ExecMask:
      return "exec_mask";
  }
  return "?";
}

}  // namespace warptlm
