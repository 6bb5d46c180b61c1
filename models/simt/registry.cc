#include <map>
#include <mutex>
#include <stdexcept>

#include "simt/ipdom_stack.h"
#include "simt/reconvergence_unit.h"

namespace warptlm {
namespace {

std::map<std::string, ReconvergenceFactory>& registry() {
  static std::map<std::string, ReconvergenceFactory> schemes;
  return schemes;
}

// The schemes warptlm ships. Explicit rather than static self-registration,
// which the linker drops from static libraries.
void register_builtin_reconvergence() {
  static std::once_flag once;
  std::call_once(once, [] {
    register_reconvergence("ipdom", [](unsigned) -> std::unique_ptr<ReconvergenceUnit> {
      return std::make_unique<IpdomStack>();
    });
  });
}

}  // namespace

void register_reconvergence(const std::string& name, ReconvergenceFactory factory) {
  registry()[name] = factory;
}

std::vector<std::string> reconvergence_names() {
  register_builtin_reconvergence();
  std::vector<std::string> names;
  for (const auto& [name, factory] : registry()) names.push_back(name);
  return names;
}

std::unique_ptr<ReconvergenceUnit> make_reconvergence_unit(const std::string& name,
                                                           unsigned warp_size) {
  register_builtin_reconvergence();
  auto it = registry().find(name);
  if (it == registry().end()) {
    std::string known;
    for (const auto& n : reconvergence_names()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("reconvergence: unknown scheme '" + name + "' (known: " + known +
                                ")");
  }
  return it->second(warp_size);
}

}  // namespace warptlm
