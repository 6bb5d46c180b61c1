#include "config/plugins.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <stdexcept>

namespace warptlm {
namespace {

std::mutex& plugins_mutex() {
  static std::mutex m;
  return m;
}

std::vector<std::string>& loaded() {
  static std::vector<std::string> paths;
  return paths;
}

const PluginApi& api() {
  static const PluginApi table = [] {
    PluginApi t;
    t.register_reconvergence = &register_reconvergence;
    t.register_warp_scheduler = &register_warp_scheduler;
    t.register_lane_permutation = &register_lane_permutation;
    t.register_compaction_unit = &register_compaction_unit;
    t.register_dram_scheduler = &register_dram_scheduler;
    return t;
  }();
  return table;
}

}  // namespace

void load_plugin(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path canonical = std::filesystem::canonical(path, ec);
  if (ec || !std::filesystem::is_regular_file(canonical))
    throw std::invalid_argument("plugin '" + path + "': no such file");
  std::lock_guard<std::mutex> lock(plugins_mutex());
  for (const std::string& p : loaded())
    if (p == canonical.string()) return;
  // Never closed: the components it registered live as long as the process.
  void* handle = dlopen(canonical.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw std::invalid_argument("plugin '" + path + "': " + dlerror());
  using Entry = void (*)(const PluginApi*);
  auto entry = reinterpret_cast<Entry>(dlsym(handle, "warptlm_register_components"));
  if (!entry)
    throw std::invalid_argument("plugin '" + path +
                                "': no extern \"C\" warptlm_register_components(const "
                                "warptlm::PluginApi*) in it");
  try {
    entry(&api());
  } catch (const std::exception& e) {
    throw std::invalid_argument("plugin '" + path + "': " + e.what());
  }
  loaded().push_back(canonical.string());
}

void load_plugins_from_environment() {
  const char* list = std::getenv("WARPTLM_PLUGINS");
  if (!list) return;
  const std::string all = list;
  size_t start = 0;
  while (start <= all.size()) {
    size_t end = all.find(':', start);
    if (end == std::string::npos) end = all.size();
    if (end > start) load_plugin(all.substr(start, end - start));
    start = end + 1;
  }
}

std::vector<std::string> loaded_plugins() {
  std::lock_guard<std::mutex> lock(plugins_mutex());
  return loaded();
}

}  // namespace warptlm
