#include "platform/platform_description.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "config/close_names.h"
#include "config/config_file.h"
#include "config/platform_config.h"
#include "exec/warp_issuer.h"  // hex_string

namespace warptlm {
namespace {

using json = nlohmann::json;

// What each kind of module offers: its fields (gpu: also every configuration
// field), its initiator sockets, target sockets and interrupt ports.
struct KindInfo {
  const char* kind;
  std::vector<std::string> fields, required, initiators, targets;
  const char* irq_port;  // "" when none
  const char* doc;
};

const std::vector<KindInfo>& kinds() {
  static const std::vector<KindInfo> k = {
      {"host",
       {"memory"},
       {"memory"},
       {"bus"},
       {},
       "irq",
       "a CPU running the C driver: memory names where it places buffers"},
      {"router",
       {"map", "latency_ns"},
       {"map"},
       {},
       {"in"},
       "",
       "an address-decoding bus: map lists {target, base, size} windows"},
      {"memory",
       {"size", "latency_ns", "dmi", "debug"},
       {"size"},
       {},
       {"socket"},
       "",
       "a loosely-timed RAM (memory/tlm): size in bytes, latency_ns per transaction"},
      {"gpu",
       {"preset"},
       {},
       {"memory"},
       {"control"},
       "irq",
       "the warptlm GPU: preset, then any configuration field"},
  };
  return k;
}

const KindInfo* kind_info(const std::string& kind) {
  for (const KindInfo& k : kinds())
    if (kind == k.kind) return &k;
  return nullptr;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return s.empty() ? "none" : s;
}

// A key escaped as one JSON pointer token (RFC 6901: ~ as ~0, / as ~1), by nlohmann::json.
std::string token(const std::string& key) {
  return (json::json_pointer() / key).to_string().substr(1);
}

class Checker {
 public:
  explicit Checker(PlatformDescription& d) : d_(d) {}

  [[noreturn]] void fail(const std::string& pointer, const std::string& message) const {
    throw std::invalid_argument(d_.locate(pointer) + ": " + message);
  }

  uint64_t unsigned_field(const json& v, const std::string& pointer, const std::string& what) {
    if (!v.is_number_unsigned())
      fail(pointer, what + ": must be a non-negative integer, got " + v.dump());
    return v.get<uint64_t>();
  }

  std::string string_field(const json& v, const std::string& pointer, const std::string& what) {
    if (!v.is_string()) fail(pointer, what + ": must be a name, got " + v.dump());
    return v.get<std::string>();
  }

  // "module" or "module.port", checked against what the module offers in `role`.
  PlatformEndpoint endpoint(const json& v, const std::string& pointer, const std::string& what,
                            const std::string& role) {
    const std::string text = string_field(v, pointer, what);
    const size_t dot = text.find('.');
    PlatformEndpoint e{text.substr(0, dot), dot == std::string::npos ? "" : text.substr(dot + 1)};
    const PlatformModule* m = d_.find(e.module);
    if (!m)
      fail(pointer, what + ": no module '" + e.module + "'" +
                        did_you_mean(e.module, d_.module_names()) +
                        " (modules: " + join(d_.module_names()) + ")");
    const KindInfo& k = *kind_info(m->kind);
    std::vector<std::string> ports = role == "initiator" ? k.initiators
                                     : role == "target"  ? k.targets
                                                         : std::vector<std::string>{};
    if (role == "irq" && *k.irq_port) ports.push_back(k.irq_port);
    if (e.port.empty()) {
      if (ports.size() != 1)
        fail(pointer,
             what + ": " + e.module + " (" + m->kind + ") " +
                 (ports.empty() ? "has no " + role + " socket or port"
                                : "has several " + role + " sockets; name one of " + join(ports)));
      e.port = ports[0];
    } else if (std::find(ports.begin(), ports.end(), e.port) == ports.end()) {
      fail(pointer, what + ": " + e.module + " (" + m->kind + ") has no " + role + " '" + e.port +
                        "' (" + join(ports) + ")");
    }
    return e;
  }

  void modules(const json& doc) {
    if (!doc.contains("modules") || !doc["modules"].is_object() || doc["modules"].empty())
      fail("/modules",
           "modules: missing, or not a mapping of module names to their kinds and "
           "fields");
    for (const auto& [name, body] : doc["modules"].items()) {
      const std::string at = "/modules/" + token(name);
      if (name.empty() || name.find('.') != std::string::npos ||
          name.find('/') != std::string::npos)
        fail(at, "module name '" + name + "': must be a plain name (no '.' or '/')");
      if (!body.is_object() || !body.contains("kind"))
        fail(at, name + ": needs kind (" + kind_list() + ")");
      const std::string kind = string_field(body["kind"], at + "/kind", name + ".kind");
      const KindInfo* k = kind_info(kind);
      if (!k)
        fail(at + "/kind", name + ".kind: unknown module kind '" + kind + "'" +
                               did_you_mean(kind, kind_names()) + " (" + kind_list() + ")");
      PlatformModule m{name, kind, body};
      m.fields.erase("kind");
      for (const std::string& r : k->required)
        if (!m.fields.contains(r)) fail(at, name + " (" + kind + "): missing field '" + r + "'");
      if (kind != "gpu")
        for (const auto& [field, value] : m.fields.items())
          if (std::find(k->fields.begin(), k->fields.end(), field) == k->fields.end())
            fail(at + "/" + token(field), name + "." + field + ": " + kind + " has no field '" +
                                              field + "'" + did_you_mean(field, k->fields) +
                                              " (fields: " + join(k->fields) + ")");
      d_.modules.push_back(std::move(m));
    }
    // In file order (JSON objects come sorted by name; a YAML file says where each module is).
    auto line_col = [&](const PlatformModule& m) {
      const auto it = d_.where.find("/modules/" + token(m.name));
      if (it == d_.where.end()) return std::pair<long, long>(0, 0);
      const std::string& w = it->second;
      const size_t c2 = w.rfind(':'), c1 = w.rfind(':', c2 - 1);
      return std::pair<long, long>(std::stol(w.substr(c1 + 1, c2 - c1 - 1)),
                                   std::stol(w.substr(c2 + 1)));
    };
    std::stable_sort(d_.modules.begin(), d_.modules.end(),
                     [&](const PlatformModule& a, const PlatformModule& b) {
                       return line_col(a) < line_col(b);
                     });
    if (d_.module_names("host").size() != 1)
      fail("/modules", "a platform has exactly one host module (found " +
                           std::to_string(d_.module_names("host").size()) + ")");
  }

  void module_fields() {
    for (const PlatformModule& m : d_.modules) {
      const std::string at = "/modules/" + token(m.name);
      if (m.kind == "memory") {
        if (unsigned_field(m.fields["size"], at + "/size", m.name + ".size") == 0)
          fail(at + "/size", m.name + ".size: must be at least 1 byte");
        if (m.fields.contains("latency_ns"))
          unsigned_field(m.fields["latency_ns"], at + "/latency_ns", m.name + ".latency_ns");
        for (const char* b : {"dmi", "debug"})
          if (m.fields.contains(b) && !m.fields[b].is_boolean())
            fail(at + "/" + b,
                 m.name + "." + b + ": must be true or false, got " + m.fields[b].dump());
      } else if (m.kind == "router") {
        if (m.fields.contains("latency_ns"))
          unsigned_field(m.fields["latency_ns"], at + "/latency_ns", m.name + ".latency_ns");
      } else if (m.kind == "gpu") {
        gpu_config(m, at);
      } else if (m.kind == "host") {
        string_field(m.fields["memory"], at + "/memory", m.name + ".memory");
      }
    }
  }

  void gpu_config(const PlatformModule& m, const std::string& at) {
    try {
      gpu_module_config(m);
    } catch (const std::invalid_argument& e) {
      // "gpu0: num_sms: ..." -> located at the field when the message names one we know.
      std::string where = at;
      for (const auto& [field, value] : m.fields.items())
        if (std::string(e.what()).find(field) != std::string::npos) where = at + "/" + token(field);
      fail(where, e.what());
    }
  }

  void maps() {
    for (const PlatformModule& m : d_.modules) {
      if (m.kind != "router") continue;
      const std::string at = "/modules/" + token(m.name) + "/map";
      const json& map = m.fields["map"];
      if (!map.is_array() || map.empty())
        fail(at, m.name + ".map: must list windows as {target, base, size}");
      std::vector<RouterMapEntry>& entries = d_.maps[m.name];
      for (size_t i = 0; i < map.size(); ++i) {
        const std::string ai = at + "/" + std::to_string(i);
        const std::string what = m.name + ".map[" + std::to_string(i) + "]";
        const json& w = map[i];
        if (!w.is_object()) fail(ai, what + ": must be {target, base, size}");
        for (const auto& [key, value] : w.items())
          if (key != "target" && key != "base" && key != "size")
            fail(ai + "/" + token(key),
                 what + ": unknown entry '" + key + "' (target, base, size)");
        for (const char* key : {"target", "base", "size"})
          if (!w.contains(key)) fail(ai, what + ": missing '" + key + "'");
        RouterMapEntry e;
        e.target = endpoint(w["target"], ai + "/target", what + ".target", "target");
        if (e.target.module == m.name) fail(ai + "/target", what + ": a router cannot map itself");
        e.base = unsigned_field(w["base"], ai + "/base", what + ".base");
        e.size = unsigned_field(w["size"], ai + "/size", what + ".size");
        e.where = d_.locate(ai);
        if (e.size == 0) fail(ai + "/size", what + ": an empty window");
        if (e.base + e.size < e.base)
          fail(ai, what + ": [" + hex_string(e.base) + ", +" + hex_string(e.size) +
                       ") wraps past 2^64");
        for (const RouterMapEntry& o : entries)
          if (e.base < o.base + o.size && o.base < e.base + e.size)
            fail(ai, what + ": " + e.target.text() + " [" + hex_string(e.base) + ", " +
                         hex_string(e.base + e.size) + ") overlaps " + o.target.text() + " [" +
                         hex_string(o.base) + ", " + hex_string(o.base + o.size) + ") (" + o.where +
                         ")");
        entries.push_back(e);
        bind_target(e.target, e.where);
      }
    }
  }

  // A target socket other than a router's `in` takes one initiator.
  void bind_target(const PlatformEndpoint& t, const std::string& where) {
    const PlatformModule* m = d_.find(t.module);
    if (m->kind == "router") return;
    auto [it, fresh] = target_bound_.emplace(t.text(), where);
    if (!fresh)
      throw std::invalid_argument(where + ": " + t.text() + " is bound twice (also at " +
                                  it->second + ")");
  }

  void links(const json& doc, const char* key, std::vector<PlatformLink>& out,
             const std::string& from_role, const std::string& to_role) {
    if (!doc.contains(key)) return;
    const std::string at = std::string("/") + key;
    if (!doc[key].is_array()) fail(at, std::string(key) + ": must be a list of {from, to}");
    for (size_t i = 0; i < doc[key].size(); ++i) {
      const std::string ai = at + "/" + std::to_string(i);
      const std::string what = std::string(key) + "[" + std::to_string(i) + "]";
      const json& l = doc[key][i];
      if (!l.is_object() || !l.contains("from") || !l.contains("to") || l.size() != 2)
        fail(ai, what + ": must be {from: MODULE.SOCKET, to: MODULE.SOCKET}");
      PlatformLink link{endpoint(l["from"], ai + "/from", what + ".from", from_role),
                        endpoint(l["to"], ai + "/to", what + ".to", to_role), d_.locate(ai)};
      out.push_back(link);
    }
  }

  void bindings(const json& doc) {
    links(doc, "bindings", d_.bindings, "initiator", "target");
    std::map<std::string, std::string> initiator_bound;
    for (const PlatformLink& l : d_.bindings) {
      auto [it, fresh] = initiator_bound.emplace(l.from.text(), l.where);
      if (!fresh)
        throw std::invalid_argument(l.where + ": " + l.from.text() + " is bound twice (also at " +
                                    it->second + ")");
      bind_target(l.to, l.where);
      if (d_.find(l.to.module)->kind == "router") router_used_.insert(l.to.module);
    }
    for (const PlatformModule& m : d_.modules) {
      const std::string at = "/modules/" + token(m.name);
      if (m.kind == "host" && !initiator_bound.count(m.name + ".bus"))
        fail(at, m.name + ".bus: not bound (add a binding {from: " + m.name + ".bus, to: ...})");
      if (m.kind == "router" && !router_used_.count(m.name))
        fail(at, m.name + ": no initiator is bound to it (add a binding {from: ..., to: " + m.name +
                     "})");
      if (m.kind == "gpu" && !target_bound_.count(m.name + ".control"))
        fail(at, m.name +
                     ".control: nothing reaches the GPU's registers (bind it, or map it "
                     "on a router)");
      if (m.kind == "memory" && !target_bound_.count(m.name + ".socket"))
        fail(at, m.name + ": nothing reaches this memory (bind it, or map it on a router)");
    }
  }

  void interrupts(const json& doc) {
    links(doc, "interrupts", d_.interrupts, "irq", "irq");
    std::set<std::string> seen;
    for (const PlatformLink& l : d_.interrupts) {
      if (d_.find(l.from.module)->kind != "gpu" || d_.find(l.to.module)->kind != "host")
        throw std::invalid_argument(l.where + ": an interrupt goes from a GPU's irq to the host (" +
                                    l.from.text() + " -> " + l.to.text() + ")");
      if (!seen.insert(l.from.module).second)
        throw std::invalid_argument(l.where + ": " + l.from.text() + " is connected twice");
    }
  }

  void host_memory() {
    const PlatformModule& host = *d_.find(d_.module_names("host")[0]);
    const std::string at = "/modules/" + token(host.name) + "/memory";
    const std::string name = host.fields["memory"].get<std::string>();
    const PlatformModule* m = d_.find(name);
    if (!m || (m->kind != "memory" && m->kind != "gpu"))
      fail(at, host.name + ".memory: '" + name + "' is not a memory or GPU module (" +
                   join(d_.module_names("memory")) + "; or a GPU, for its own memory)");
    if (m->kind == "gpu") {
      for (const PlatformLink& l : d_.bindings)
        if (l.from.module == name && l.from.port == "memory")
          fail(at, host.name + ".memory: " + name +
                       " has no memory of its own: its memory "
                       "socket is bound (" +
                       l.where + ")");
    }
  }

  void jobs(const json& doc) {
    if (!doc.contains("jobs")) return;
    if (!doc["jobs"].is_object()) fail("/jobs", "jobs: must map GPU names to scenario names");
    for (const auto& [gpu, scenario] : doc["jobs"].items()) {
      const std::string at = "/jobs/" + token(gpu);
      const PlatformModule* m = d_.find(gpu);
      if (!m || m->kind != "gpu")
        fail(at, "jobs." + gpu + ": no GPU '" + gpu + "' (" + join(d_.module_names("gpu")) + ")");
      d_.jobs[gpu] = string_field(scenario, at, "jobs." + gpu);
    }
  }

 private:
  static std::vector<std::string> kind_names() {
    std::vector<std::string> n;
    for (const KindInfo& k : kinds()) n.push_back(k.kind);
    return n;
  }
  static std::string kind_list() {
    std::string s;
    for (const KindInfo& k : kinds())
      s += (s.empty() ? "" : "; ") + std::string(k.kind) + ": " + k.doc;
    return s;
  }

  PlatformDescription& d_;
  std::map<std::string, std::string> target_bound_;  // target socket -> where
  std::set<std::string> router_used_;
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

PlatformConfig gpu_module_config(const PlatformModule& m) {
  return config_from_json(m.fields, m.name, kGpuModulePreset);
}

const PlatformModule* PlatformDescription::find(const std::string& module) const {
  for (const PlatformModule& m : modules)
    if (m.name == module) return &m;
  return nullptr;
}

std::vector<std::string> PlatformDescription::module_names(const std::string& kind) const {
  std::vector<std::string> names;
  for (const PlatformModule& m : modules)
    if (kind.empty() || m.kind == kind) names.push_back(m.name);
  return names;
}

std::string PlatformDescription::locate(const std::string& pointer) const {
  std::string p = pointer;
  while (true) {
    const auto it = where.find(p);
    if (it != where.end()) return it->second;
    if (p.empty()) break;
    p = p.substr(0, p.rfind('/'));
  }
  return source + (pointer.empty() ? "" : " (at " + pointer + ")");
}

PlatformDescription parse_platform(const std::string& text, const std::string& source,
                                   const std::string& name) {
  PlatformDescription d;
  d.name = name;
  d.source = source;
  json doc;
  if (ends_with(source, ".json")) {
    try {
      doc = json::parse(text);
    } catch (const json::parse_error& e) {
      throw std::invalid_argument(source + ": not JSON: " + e.what());
    }
  } else {
    doc = yaml_to_json(text, source, &d.where);
  }
  Checker c(d);
  if (!doc.is_object()) c.fail("", "a platform is a mapping with modules, bindings, interrupts");
  for (const auto& [key, value] : doc.items())
    if (key != "description" && key != "modules" && key != "bindings" && key != "interrupts" &&
        key != "jobs")
      c.fail("/" + token(key),
             "unknown entry '" + key + "'" +
                 did_you_mean(key, {"description", "modules", "bindings", "interrupts", "jobs"}) +
                 " (description, modules, bindings, interrupts, jobs)");
  if (doc.contains("description"))
    d.description = c.string_field(doc["description"], "/description", "description");
  c.modules(doc);
  c.module_fields();
  c.maps();
  c.bindings(doc);
  c.interrupts(doc);
  c.host_memory();
  c.jobs(doc);
  return d;
}

PlatformDescription load_platform(const std::string& name_or_path) {
  for (const BuiltinPlatform& b : builtin_platforms())
    if (name_or_path == b.name)
      return parse_platform(b.text, "builtin platform " + std::string(b.name), b.name);
  const bool file = ends_with(name_or_path, ".yaml") || ends_with(name_or_path, ".yml") ||
                    ends_with(name_or_path, ".json") || name_or_path.find('/') != std::string::npos;
  if (!file) {
    std::vector<std::string> names;
    for (const BuiltinPlatform& b : builtin_platforms()) names.push_back(b.name);
    throw std::invalid_argument("unknown platform '" + name_or_path + "'" +
                                did_you_mean(name_or_path, names) + " (built in: " + join(names) +
                                "; or a .yaml/.json file)");
  }
  std::ifstream in(name_or_path);
  if (!in) throw std::invalid_argument(name_or_path + ": cannot read the platform file");
  std::ostringstream text;
  text << in.rdbuf();
  std::string stem = name_or_path.substr(name_or_path.rfind('/') + 1);
  stem = stem.substr(0, stem.find('.'));
  return parse_platform(text.str(), name_or_path, stem);
}

void apply_platform_settings(PlatformDescription& d, const std::vector<std::string>& settings) {
  for (const std::string& s : settings) {
    const std::string what = "--set " + s;
    const size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0)
      throw std::invalid_argument(what + ": expected NAME=VALUE");
    std::string name = s.substr(0, eq);
    const json value = yaml_to_json(s.substr(eq + 1), what);
    if (name.rfind(d.name + ".", 0) == 0) name = name.substr(d.name.size() + 1);
    const size_t dot = name.find('.');
    const std::string modules =
        " (modules of platform " + d.name + ": " + join(d.module_names()) + ")";
    PlatformModule* m = dot == std::string::npos
                            ? nullptr
                            : const_cast<PlatformModule*>(d.find(name.substr(0, dot)));
    if (!m) {
      // A field of every GPU.
      std::vector<std::string> gpus = d.module_names("gpu");
      if (gpus.empty())
        throw std::invalid_argument(what + ": no module '" + name.substr(0, dot) + "'" + modules);
      for (const std::string& g : gpus) {
        PlatformModule& gm = *const_cast<PlatformModule*>(d.find(g));
        gm.fields[name] = value;
        d.where["/modules/" + g + "/" + name] = what;  // where the value came from
        try {
          gpu_module_config(gm);
        } catch (const std::invalid_argument& e) {
          throw std::invalid_argument(what + ": " +
                                      (dot == std::string::npos
                                           ? std::string()
                                           : "'" + name.substr(0, dot) + "' is no module" +
                                                 modules + "; as a field of every GPU: ") +
                                      e.what());
        }
      }
      continue;
    }
    const std::string field = name.substr(dot + 1);
    const KindInfo& k = *kind_info(m->kind);
    d.where["/modules/" + m->name + "/" + field] = what;
    if (m->kind == "gpu") {
      m->fields[field] = value;
      try {
        gpu_module_config(*m);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(what + ": " + e.what());
      }
      continue;
    }
    if (std::find(k.fields.begin(), k.fields.end(), field) == k.fields.end() || field == "map")
      throw std::invalid_argument(what + ": " + m->name + " (" + m->kind + ") has no field '" +
                                  field + "' to set" + did_you_mean(field, k.fields) +
                                  " (fields: " + join(k.fields) + ")" + modules);
    const bool flag = field == "dmi" || field == "debug";
    if (flag                ? !value.is_boolean()
        : field == "memory" ? !value.is_string()
                            : !value.is_number_unsigned())
      throw std::invalid_argument(what + ": " + m->name + "." + field + " must be " +
                                  (flag                ? "true or false"
                                   : field == "memory" ? "a module name"
                                                       : "a non-negative integer") +
                                  ", got " + value.dump());
    if (field == "size" && value.get<uint64_t>() == 0)
      throw std::invalid_argument(what + ": " + m->name + ".size must be at least 1 byte");
    m->fields[field] = value;
    if (field == "memory") {
      try {
        Checker(d).host_memory();
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(what + ": " + e.what());
      }
    }
  }
}

}  // namespace warptlm
