// The registry of reconvergence schemes by name (component_registry.h).
#include <stdexcept>

#include "registry/component_registry.h"
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

// A registered scheme: its factory, and whether it needs the finalizer's
// Reconverge markers in the program.
struct Scheme {
  ReconvergenceFactory make = nullptr;
  bool needs_markers = false;
  explicit operator bool() const { return make != nullptr; }
};
using Registry = ComponentRegistry<Scheme>;

template <typename T>
std::unique_ptr<ReconvergenceUnit> sized(unsigned warp_size, const SchemeOptions&) {
  return std::make_unique<T>(warp_size);
}
template <typename T>
std::unique_ptr<ReconvergenceUnit> unsized(unsigned, const SchemeOptions&) {
  return std::make_unique<T>();
}

// The schemes warptlm ships, in name order (docs/reconvergence.md).
std::vector<Registry::Entry> builtins() {
  return {
      {"breadth_first",
       "FIFO queue of paths, one basic block per turn; IPDOM joins",
       {&sized<BreadthFirstQueue>, false}},
      {"dual_path",
       "dual-path stack: both sides of the top entry issuable",
       {&unsized<DualPathStack>, false}},
      {"ipdom", "the immediate post-dominator (IPDOM) stack", {&unsized<IpdomStack>, false}},
      {"min_pc",
       "per-thread PCs: max call depth, then min PC issues (Simty)",
       {&sized<MinPcArbiter>, false}},
      {"minority_first",
       "depth-first, the side with fewer lanes first; IPDOM",
       {&sized<MinorityFirstStack>, false}},
      {"mp_ipdom",
       "multi-path IPDOM: split and reconvergence tables (mp_ipdom.*)",
       {[](unsigned ws, const SchemeOptions& o) -> std::unique_ptr<ReconvergenceUnit> {
          return std::make_unique<MultiPathIpdom>(ws, o.mp_ipdom_st_entries, o.mp_ipdom_rt_entries);
        },
        false}},
      {"ppc_explicit",
       "paired-path comparison at the finalizer's IPDOM markers",
       {[](unsigned, const SchemeOptions&) -> std::unique_ptr<ReconvergenceUnit> {
          return std::make_unique<PairedPathStack>(PairedPathStack::Mode::Explicit);
        },
        true}},
      {"ppc_implicit",
       "paired-path comparison after every instruction, no markers",
       {[](unsigned, const SchemeOptions&) -> std::unique_ptr<ReconvergenceUnit> {
          return std::make_unique<PairedPathStack>(PairedPathStack::Mode::Implicit);
        },
        false}},
      {"sorted_list",
       "Simty's sorted path list (HCT and CCT), no reconvergence point",
       {&sized<SortedPathList>, false}},
  };
}

Registry& registry() {
  static Registry r("scheme", "reconvergence", &builtins);
  return r;
}

}  // namespace

void register_reconvergence(const std::string& name, ReconvergenceFactory factory,
                            bool needs_markers, const std::string& description) {
  registry().add(name, description, Scheme{factory, needs_markers});
}

std::vector<std::string> reconvergence_names() { return registry().names(); }

std::vector<std::pair<std::string, std::string>> reconvergence_descriptions() {
  return registry().descriptions();
}

std::unique_ptr<ReconvergenceUnit> make_reconvergence_unit(const std::string& name,
                                                           unsigned warp_size,
                                                           const SchemeOptions& options) {
  return registry().factory(name).make(warp_size, options);
}

bool reconvergence_needs_markers(const std::string& name) {
  return registry().factory(name).needs_markers;
}

}  // namespace warptlm
