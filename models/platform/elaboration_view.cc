#include "platform/elaboration_view.h"

#include <tlm_utils/multi_socket_bases.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

#include "config/platform_config.h"
#include "exec/warp_issuer.h"  // hex_string

namespace warptlm {
namespace {

using json = nlohmann::json;

template <unsigned W>
using TargetBase =
    tlm::tlm_base_target_socket_b<W, tlm::tlm_fw_transport_if<>, tlm::tlm_bw_transport_if<>>;
template <unsigned W>
using InitiatorBase =
    tlm::tlm_base_initiator_socket_b<W, tlm::tlm_fw_transport_if<>, tlm::tlm_bw_transport_if<>>;

uint64_t whole_ns(const sc_core::sc_time& t) {
  return t.value() / sc_core::sc_time(1, sc_core::SC_NS).value();
}

// Every object under `o`, depth first, in creation order.
void collect(const sc_core::sc_object& o, std::vector<const sc_core::sc_object*>& out) {
  out.push_back(&o);
  for (const sc_core::sc_object* c : o.get_child_objects()) collect(*c, out);
}

json hierarchy(const sc_core::sc_object& o) {
  json node = {{"name", o.name()}, {"kind", o.kind()}};
  json children = json::array();
  for (const sc_core::sc_object* c : o.get_child_objects())
    if (dynamic_cast<const sc_core::sc_module*>(c)) children.push_back(hierarchy(*c));
  if (!children.empty()) node["children"] = children;
  return node;
}

// Which socket or channel each bound interface belongs to.
class Bindings {
 public:
  explicit Bindings(const std::vector<const sc_core::sc_object*>& objects) {
    for (const sc_core::sc_object* o : objects) {
      auto* object = const_cast<sc_core::sc_object*>(o);
      if (auto* multi = dynamic_cast<tlm_utils::multi_target_base_if<>*>(object)) {
        for (auto* binder : multi->get_binders()) owner_[binder] = o->name();
        continue;
      }
      add_target<32>(object);
      add_target<64>(object);
    }
  }
  std::string owner(const sc_core::sc_interface* i) const {
    const auto it = owner_.find(i);
    if (it != owner_.end()) return it->second;
    if (auto* o = dynamic_cast<const sc_core::sc_object*>(i)) return o->name();  // a channel
    return "";
  }

  // The targets an initiator socket of width W is bound to; false if it is none.
  template <unsigned W>
  bool targets_of(sc_core::sc_object* o, std::vector<std::string>& out) const {
    auto* s = dynamic_cast<InitiatorBase<W>*>(o);
    if (!s) return false;
    auto& port = s->get_base_port();
    for (int i = 0; i < port.size(); ++i) out.push_back(owner(port.get_interface(i)));
    return true;
  }

 private:
  template <unsigned W>
  void add_target(sc_core::sc_object* o) {
    if (auto* t = dynamic_cast<TargetBase<W>*>(o))
      owner_[t->get_base_export().get_interface()] = o->name();
  }
  std::map<const sc_core::sc_interface*, std::string> owner_;
};

// Where a module's field got its value.
std::string origin(const PlatformDescription& d, const PlatformModule& m, const std::string& field,
                   const std::string& fallback) {
  std::string nested = field;
  for (char& c : nested)
    if (c == '.') c = '/';
  for (const std::string& p :
       {"/modules/" + m.name + "/" + field, "/modules/" + m.name + "/" + nested}) {
    const auto it = d.where.find(p);
    if (it != d.where.end()) return it->second;
  }
  if (m.fields.contains(field)) return d.source;  // a JSON file: no line numbers
  return fallback;
}

json field(const json& value, const std::string& from) {
  return {{"value", value}, {"from", from}};
}

}  // namespace

json elaboration_view(const PlatformTop& top) {
  const PlatformDescription& d = top.description();
  const std::string root = top.name();
  std::vector<const sc_core::sc_object*> objects;
  collect(top, objects);
  const Bindings bindings(objects);

  json view = {{"platform", d.name},
               {"source", d.source},
               {"description", d.description},
               {"top", root},
               {"hierarchy", hierarchy(top)}};
  // The platform's modules, as described and as elaborated.
  json modules = json::array();
  for (const PlatformModule& m : d.modules) {
    const std::string name = root + "." + m.name;
    const sc_core::sc_object* o = sc_core::sc_find_object(name.c_str());
    size_t inner = 0;
    std::vector<const sc_core::sc_object*> below;
    if (o) collect(*o, below);
    for (const sc_core::sc_object* b : below)
      if (b != o && dynamic_cast<const sc_core::sc_module*>(b)) ++inner;
    modules.push_back({{"name", name}, {"kind", m.kind}, {"inner_modules", inner}});
  }
  view["modules"] = modules;

  json sockets = json::array(), signals = json::object();
  for (const sc_core::sc_object* c : objects) {
    auto* o = const_cast<sc_core::sc_object*>(c);
    std::vector<std::string> to;
    if (bindings.targets_of<32>(o, to) || bindings.targets_of<64>(o, to)) {
      sockets.push_back({{"name", o->name()}, {"kind", o->kind()}, {"bound_to", to}});
      continue;
    }
    const std::string kind = o->kind();
    if (kind == "sc_in" || kind == "sc_out" || kind == "sc_inout") {
      auto* port = dynamic_cast<sc_core::sc_port_base*>(o);
      const std::string channel = port ? bindings.owner(port->get_interface()) : "";
      signals[channel.empty() ? "(unbound)" : channel].push_back(
          {{"port", o->name()}, {"direction", kind}});
    }
  }
  view["bindings"] = sockets;
  json lines = json::array();
  for (const auto& [channel, ports] : signals.items())
    lines.push_back({{"signal", channel}, {"ports", ports}});
  view["signals"] = lines;

  json maps = json::object(), config = json::object();
  for (const PlatformModule& m : d.modules) {
    const std::string name = root + "." + m.name;
    json c = json::object();
    if (const AddressRouter* r = top.find_router(m.name)) {
      for (const RouterWindow& w : r->windows())
        maps[name].push_back(
            {{"target", root + "." + w.target},
             {"base", w.base},
             {"size", w.size},
             {"range", hex_string(w.base) + ".." + hex_string(w.base + w.size - 1)}});
      c["latency_ns"] = field(whole_ns(r->latency()), origin(d, m, "latency_ns", "default"));
    } else if (const TlmMemory* mem = top.find_memory(m.name)) {
      const TlmMemoryParams& p = mem->params();
      c["size"] = field(p.size, origin(d, m, "size", "default"));
      c["latency_ns"] = field(whole_ns(p.latency), origin(d, m, "latency_ns", "default"));
      c["dmi"] = field(p.dmi, origin(d, m, "dmi", "default"));
      c["debug"] = field(p.debug, origin(d, m, "debug", "default"));
    } else if (const Gpu* g = top.find_gpu(m.name)) {
      const std::string preset = m.fields.value("preset", std::string(kGpuModulePreset));
      c["preset"] = field(preset, origin(d, m, "preset", "default"));
      const json fields = to_json(g->config());
      for (const auto& [f, value] : fields.items())
        c[f] = field(value, origin(d, m, f, "preset " + preset));
    } else if (m.kind == "host") {
      const HostCpuParams& p = top.host().params();
      c["memory"] = field(m.fields["memory"], origin(d, m, "memory", "default"));
      if (!p.local_memory) {
        c["memory_base"] =
            field(p.memory_base, "the window of " + m.fields["memory"].get<std::string>());
        c["memory_size"] =
            field(p.memory_size, "the window of " + m.fields["memory"].get<std::string>());
      }
      json gpus = json::array();
      for (const HostGpu& hg : p.gpus)
        gpus.push_back(
            {{"gpu", root + "." + hg.name}, {"registers", hg.registers}, {"irq", hg.irq}});
      c["gpus"] = field(gpus, "its bus binding, the address map and the interrupts");
    }
    config[name] = c;
  }
  view["address_maps"] = maps;
  view["configuration"] = config;
  return view;
}

namespace {

// The platform module a SystemC name belongs to ("soc.gpu0.sm3.memory" -> "soc.gpu0").
std::string module_of(const std::string& name, const std::string& root) {
  const size_t start = root.size() + 1;
  const size_t dot = name.find('.', start);
  return dot == std::string::npos ? name : name.substr(0, dot);
}

bool crosses_modules(const std::string& from, const std::string& to, const std::string& root) {
  return module_of(from, root) != module_of(to, root);
}

// A socket of a platform module itself ("soc.gpu0.memory"), not of a part inside it
// ("soc.gpu0.memory_port.out", which is bound through it).
bool on_the_boundary(const std::string& socket, const std::string& root) {
  return socket.find('.', module_of(socket, root).size() + 1) == std::string::npos;
}

}  // namespace

std::string elaboration_text(const json& view) {
  const std::string root = view["top"];
  std::ostringstream os;
  os << "platform " << view["platform"].get<std::string>() << " ("
     << view["source"].get<std::string>() << "): " << view["description"].get<std::string>()
     << "\n\nmodules\n";
  for (const json& m : view["modules"])
    os << "  " << m["name"].get<std::string>() << "  " << m["kind"].get<std::string>()
       << (m["inner_modules"].get<size_t>()
               ? "  (" + std::to_string(m["inner_modules"].get<size_t>()) + " modules inside)"
               : "")
       << "\n";
  os << "\nbindings between modules\n";
  size_t inner = 0;
  for (const json& s : view["bindings"]) {
    const std::string from = s["name"];
    const std::vector<std::string> to = s["bound_to"];
    for (size_t i = 0; i < to.size(); ++i) {
      if (!crosses_modules(from, to[i], root) || !on_the_boundary(from, root)) {
        ++inner;
        continue;
      }
      os << "  " << from << (to.size() > 1 ? "[" + std::to_string(i) + "]" : "") << " -> "
         << (to[i].empty() ? "(unbound)" : to[i]) << "\n";
    }
  }
  if (inner)
    os << "  (" << inner << " more inside the modules or through their sockets: --format json "
       << "lists every one)\n";
  os << "\ninterrupts and signals between modules\n";
  for (const json& line : view["signals"]) {
    std::vector<std::string> ports;
    for (const json& p : line["ports"]) ports.push_back(p["port"]);
    bool crosses = false;
    for (const std::string& p : ports) crosses = crosses || crosses_modules(p, ports[0], root);
    if (!crosses) continue;
    os << "  " << line["signal"].get<std::string>() << ":";
    for (const json& p : line["ports"])
      os << " " << p["port"].get<std::string>() << " (" << p["direction"].get<std::string>() << ")";
    os << "\n";
  }
  for (const auto& [router, windows] : view["address_maps"].items()) {
    os << "\naddress map of " << router << "\n";
    std::vector<json> sorted(windows.begin(), windows.end());
    std::sort(sorted.begin(), sorted.end(),
              [](const json& a, const json& b) { return a["base"] < b["base"]; });
    for (const json& w : sorted)
      os << "  " << w["range"].get<std::string>() << "  " << w["target"].get<std::string>() << "\n";
  }
  os << "\nconfiguration (fields not from a preset or a default; --format json lists every one)\n";
  for (const auto& [module, fields] : view["configuration"].items()) {
    os << "  " << module << ":";
    size_t shown = 0;
    for (const auto& [f, v] : fields.items()) {
      const std::string from = v["from"];
      if (from.rfind("preset ", 0) == 0 || from == "default") continue;
      os << (shown++ ? "," : "") << " " << f << "=" << v["value"].dump() << " (" << from << ")";
    }
    if (!shown) os << " all from its preset or defaults";
    os << "\n";
  }
  return os.str();
}

std::string elaboration_dot(const json& view) {
  const std::string root = view["top"];
  std::ostringstream os;
  os << "digraph \"" << view["platform"].get<std::string>() << "\" {\n"
     << "  rankdir=LR;\n  node [shape=box, fontname=\"Helvetica\"];\n"
     << "  edge [fontname=\"Helvetica\", fontsize=10];\n";
  for (const json& m : view["modules"])
    os << "  \"" << m["name"].get<std::string>() << "\" [label=\"" << m["name"].get<std::string>()
       << "\\n"
       << m["kind"].get<std::string>() << "\"];\n";
  std::map<std::string, std::string> window_of;  // target socket -> its range on a router
  for (const auto& [router, windows] : view["address_maps"].items())
    for (const json& w : windows) window_of[w["target"].get<std::string>()] = w["range"];
  for (const json& s : view["bindings"]) {
    const std::string from = s["name"];
    for (const std::string& to : s["bound_to"].get<std::vector<std::string>>()) {
      if (to.empty() || !crosses_modules(from, to, root) || !on_the_boundary(from, root)) continue;
      std::string label = from.substr(module_of(from, root).size() + 1) + " -> " +
                          to.substr(module_of(to, root).size() + 1);
      if (window_of.count(to)) label += "\\n" + window_of[to];
      os << "  \"" << module_of(from, root) << "\" -> \"" << module_of(to, root) << "\" [label=\""
         << label << "\"];\n";
    }
  }
  for (const json& line : view["signals"]) {
    std::string driver;
    for (const json& p : line["ports"])
      if (p["direction"] == "sc_out") driver = p["port"];
    if (driver.empty()) continue;
    for (const json& p : line["ports"]) {
      const std::string port = p["port"];
      if (p["direction"] != "sc_in" || !crosses_modules(driver, port, root)) continue;
      os << "  \"" << module_of(driver, root) << "\" -> \"" << module_of(port, root)
         << "\" [style=dashed, label=\"" << driver.substr(module_of(driver, root).size() + 1)
         << "\"];\n";
    }
  }
  os << "}\n";
  return os.str();
}

json elaborate_platform(const PlatformDescription& description) {
  prepare_platform_process("elaborate_platform");
  PlatformTop top(description.name.c_str(), description, {});
  // Elaboration ends (every binding resolved) at the start of the simulation;
  // with no jobs, the host stops it at once.
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  return elaboration_view(top);
}

}  // namespace warptlm
