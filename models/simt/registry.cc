#include <map>
#include <mutex>
#include <set>
#include <stdexcept>

#include "simt/breadth_first_queue.h"
#include "simt/dual_path_stack.h"
#include "simt/ipdom_stack.h"
#include "simt/min_pc_arbiter.h"
#include "simt/minority_first_stack.h"
#include "simt/mp_ipdom.h"
#include "simt/ppc_stack.h"
#include "simt/reconvergence_unit.h"
#include "simt/sorted_path_list.h"

namespace warptlm {
namespace {

std::map<std::string, ReconvergenceFactory>& registry() {
  static std::map<std::string, ReconvergenceFactory> schemes;
  return schemes;
}

// Schemes that need the finalizer's Reconverge markers in the program.
std::set<std::string>& marker_schemes() {
  static std::set<std::string> names;
  return names;
}

// The schemes warptlm ships. Explicit rather than static self-registration,
// which the linker drops from static libraries.
void register_builtin_reconvergence() {
  static std::once_flag once;
  std::call_once(once, [] {
    register_reconvergence(
        "ipdom", [](unsigned, const SchemeOptions&) -> std::unique_ptr<ReconvergenceUnit> {
          return std::make_unique<IpdomStack>();
        });
    register_reconvergence(
        "min_pc", [](unsigned ws, const SchemeOptions&) -> std::unique_ptr<ReconvergenceUnit> {
          return std::make_unique<MinPcArbiter>(ws);
        });
    register_reconvergence(
        "sorted_list", [](unsigned ws, const SchemeOptions&) -> std::unique_ptr<ReconvergenceUnit> {
          return std::make_unique<SortedPathList>(ws);
        });
    register_reconvergence(
        "minority_first",
        [](unsigned ws, const SchemeOptions&) -> std::unique_ptr<ReconvergenceUnit> {
          return std::make_unique<MinorityFirstStack>(ws);
        });
    register_reconvergence(
        "breadth_first",
        [](unsigned ws, const SchemeOptions&) -> std::unique_ptr<ReconvergenceUnit> {
          return std::make_unique<BreadthFirstQueue>(ws);
        });
    register_reconvergence(
        "dual_path", [](unsigned, const SchemeOptions&) -> std::unique_ptr<ReconvergenceUnit> {
          return std::make_unique<DualPathStack>();
        });
    register_reconvergence(
        "ppc_explicit",
        [](unsigned, const SchemeOptions&) -> std::unique_ptr<ReconvergenceUnit> {
          return std::make_unique<PairedPathStack>(PairedPathStack::Mode::Explicit);
        },
        /*needs_markers=*/true);
    register_reconvergence(
        "ppc_implicit", [](unsigned, const SchemeOptions&) -> std::unique_ptr<ReconvergenceUnit> {
          return std::make_unique<PairedPathStack>(PairedPathStack::Mode::Implicit);
        });
    register_reconvergence(
        "mp_ipdom", [](unsigned ws, const SchemeOptions& o) -> std::unique_ptr<ReconvergenceUnit> {
          return std::make_unique<MultiPathIpdom>(ws, o.mp_ipdom_st_entries, o.mp_ipdom_rt_entries);
        });
  });
}

}  // namespace

void register_reconvergence(const std::string& name, ReconvergenceFactory factory,
                            bool needs_markers) {
  registry()[name] = factory;
  if (needs_markers)
    marker_schemes().insert(name);
  else
    marker_schemes().erase(name);
}

std::vector<std::string> reconvergence_names() {
  register_builtin_reconvergence();
  std::vector<std::string> names;
  for (const auto& [name, factory] : registry()) names.push_back(name);
  return names;
}

std::unique_ptr<ReconvergenceUnit> make_reconvergence_unit(const std::string& name,
                                                           unsigned warp_size,
                                                           const SchemeOptions& options) {
  register_builtin_reconvergence();
  auto it = registry().find(name);
  if (it == registry().end()) {
    std::string known;
    for (const auto& n : reconvergence_names()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("reconvergence: unknown scheme '" + name + "' (known: " + known +
                                ")");
  }
  return it->second(warp_size, options);
}

bool reconvergence_needs_markers(const std::string& name) {
  register_builtin_reconvergence();
  if (!registry().count(name)) make_reconvergence_unit(name, 32);  // throws listing the names
  return marker_schemes().count(name) != 0;
}

}  // namespace warptlm
