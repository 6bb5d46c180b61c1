// A platform described by data (YAML or JSON, docs/platforms.md): its modules
// (host, router, memory, gpu) with their parameters, which initiator socket
// binds to which target, the routers' address maps, the interrupt lines, and
// which scenario each GPU runs by default. Everything is checked here, before
// anything is elaborated, with errors that name the file, line and column and
// the item (a YAML file; JSON files name the item's path).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace warptlm {

struct PlatformModule {
  std::string name;  // also its SystemC name under the platform's top
  std::string kind;  // host, router, memory, gpu
  nlohmann::json fields = nlohmann::json::object();  // every entry but kind
};

// One end of a binding or interrupt: a module and one of its sockets or ports.
struct PlatformEndpoint {
  std::string module, port;
  std::string text() const { return port.empty() ? module : module + "." + port; }
};

struct PlatformLink {
  PlatformEndpoint from, to;
  std::string where;  // file:line:col of the entry
};

struct RouterMapEntry {
  PlatformEndpoint target;
  uint64_t base = 0, size = 0;
  std::string where;
};

struct PlatformDescription {
  std::string name;    // "soc", or the file's stem
  std::string source;  // the file, or "builtin platform soc"
  std::string description;
  std::vector<PlatformModule> modules;  // in file order
  std::vector<PlatformLink> bindings;   // initiator socket -> target socket
  std::vector<PlatformLink> interrupts;
  std::map<std::string, std::vector<RouterMapEntry>> maps;  // per router
  std::map<std::string, std::string> jobs;                  // gpu -> scenario, defaults
  std::map<std::string, std::string> where;  // JSON pointer -> file:line:col (YAML files)

  const PlatformModule* find(const std::string& module) const;  // nullptr if absent
  std::vector<std::string> module_names(const std::string& kind = "") const;
  // "file:line:col" of the node at `pointer` (or of its nearest parent), else the source.
  std::string locate(const std::string& pointer) const;
};

// A gpu module's configuration: its preset (kGpuModulePreset when it names
// none), then its fields. Throws std::invalid_argument naming the module.
constexpr const char* kGpuModulePreset = "small";
struct PlatformConfig;
PlatformConfig gpu_module_config(const PlatformModule& m);

// Parses and checks a platform document. Throws std::invalid_argument with the
// location and the item for anything wrong: an unknown module kind, field or
// socket, a missing field, a socket bound twice or a required one left
// unbound, overlapping or empty windows, an interrupt that is not a GPU's irq
// to the host.
PlatformDescription parse_platform(const std::string& text, const std::string& source,
                                   const std::string& name);

// The built-in platforms (platforms/*.yaml, compiled in): name and text.
struct BuiltinPlatform {
  const char* name;
  const char* text;
};
const std::vector<BuiltinPlatform>& builtin_platforms();

// A built-in platform by name, or a .yaml/.yml/.json file. Throws
// std::invalid_argument listing the built-in names for an unknown name.
PlatformDescription load_platform(const std::string& name_or_path);

// Applies NAME=VALUE settings by hierarchical name: "gpu0.num_sms=4",
// "soc.gpu0.l2.size=...", "ram.latency_ns=20"; a name whose first part is no
// module (after the optional platform name) sets that GPU field on every GPU.
// VALUE is read as a YAML scalar. Throws std::invalid_argument naming the
// setting and listing the modules or fields that exist.
void apply_platform_settings(PlatformDescription& d, const std::vector<std::string>& settings);

}  // namespace warptlm
