#include "platform/platform_top.h"

#include <sysc/tracing/sc_tracing_ids.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "config/config_file.h"
#include "trace/chrome_trace.h"

namespace warptlm {
namespace {

sc_core::sc_time ns_field(const nlohmann::json& fields, const char* name, uint64_t fallback) {
  const uint64_t ns = fields.contains(name) ? fields[name].get<uint64_t>() : fallback;
  return sc_core::sc_time(static_cast<double>(ns), sc_core::SC_NS);
}

}  // namespace

PlatformTop::PlatformTop(sc_core::sc_module_name name, const PlatformDescription& description,
                         std::vector<PlatformJob> jobs)
    : sc_module(name), description_(description) {
  const PlatformDescription& d = description_;
  std::string host_name;
  for (const PlatformModule& m : d.modules) {
    const char* n = m.name.c_str();
    if (m.kind == "memory") {
      TlmMemoryParams p;
      p.size = m.fields["size"].get<uint64_t>();
      p.latency = ns_field(m.fields, "latency_ns", 100);
      p.dmi = m.fields.value("dmi", true);
      p.debug = m.fields.value("debug", true);
      memories_[m.name] = std::make_unique<TlmMemory>(n, p);
    } else if (m.kind == "router") {
      auto r = std::make_unique<AddressRouter>(n, ns_field(m.fields, "latency_ns", 0));
      for (const RouterMapEntry& e : d.maps.at(m.name)) r->map(e.target.text(), e.base, e.size);
      routers_[m.name] = std::move(r);
    } else if (m.kind == "gpu") {
      gpus_[m.name] = std::make_unique<Gpu>(n, gpu_module_config(m));
    } else if (m.kind == "host") {
      host_name = m.name;
    }
  }
  std::vector<HostJob> host_jobs;
  const HostCpuParams params = host_params(jobs, host_jobs);
  host_ = std::make_unique<HostCpu>(host_name.c_str(), params, std::move(host_jobs));

  for (const PlatformLink& l : d.bindings) {
    TargetSocket& t = target(l.to);
    if (l.from.module == host_name)
      host_->bus.bind(t);
    else
      gpus_.at(l.from.module)->memory.bind(t);
  }
  for (const auto& [router, entries] : d.maps)
    for (const RouterMapEntry& e : entries) routers_.at(router)->out.bind(target(e.target));
  unsigned line = 0;
  for (const PlatformLink& l : d.interrupts) {
    irqs_.push_back(std::make_unique<sc_core::sc_signal<bool>>((l.from.module + "_irq").c_str()));
    gpus_.at(l.from.module)->irq.bind(*irqs_.back());
    host_->irq[line++].bind(*irqs_.back());
  }
}

PlatformTop::TargetSocket& PlatformTop::target(const PlatformEndpoint& e) {
  if (auto m = memories_.find(e.module); m != memories_.end()) return m->second->socket;
  if (auto r = routers_.find(e.module); r != routers_.end()) return r->second->in;
  return gpus_.at(e.module)->control;
}

HostCpuParams PlatformTop::host_params(std::vector<PlatformJob>& jobs,
                                       std::vector<HostJob>& host_jobs) {
  const PlatformDescription& d = description_;
  const PlatformModule& host = *d.find(d.module_names("host")[0]);
  const PlatformLink* bus = nullptr;
  for (const PlatformLink& l : d.bindings)
    if (l.from.module == host.name) bus = &l;
  const std::vector<RouterMapEntry>* map =
      d.maps.count(bus->to.module) ? &d.maps.at(bus->to.module) : nullptr;
  // Where the host sees `target` on its bus, or nullptr.
  auto window = [&](const std::string& target) -> const RouterMapEntry* {
    if (!map) return nullptr;
    for (const RouterMapEntry& e : *map)
      if (e.target.text() == target) return &e;
    return nullptr;
  };

  HostCpuParams p;
  for (const PlatformLink& irq : d.interrupts) {
    const std::string& g = irq.from.module;
    HostGpu hg{g, 0, static_cast<unsigned>(p.gpus.size())};
    if (const RouterMapEntry* w = window(g + ".control"))
      hg.registers = w->base;
    else if (bus->to.text() != g + ".control")
      throw std::invalid_argument(d.source + ": " + host.name + " cannot reach " + g +
                                  "'s registers (map " + g +
                                  ".control on the router its bus is "
                                  "bound to, or bind " +
                                  host.name + ".bus to it)");
    p.gpus.push_back(hg);
  }
  const std::string memory = host.fields["memory"].get<std::string>();
  if (gpus_.count(memory)) {
    p.local_memory = &gpus_.at(memory)->default_store();
  } else {
    const RouterMapEntry* w = window(memory + ".socket");
    if (!w)
      throw std::invalid_argument(d.source + ": " + host.name + ".memory: " + memory +
                                  " is not on the router " + host.name + ".bus is bound to");
    p.memory_base = w->base;
    p.memory_size = std::min(w->size, d.find(memory)->fields["size"].get<uint64_t>());
  }
  for (PlatformJob& j : jobs) {
    HostJob h;
    h.gpu = static_cast<unsigned>(p.gpus.size());
    for (size_t i = 0; i < p.gpus.size(); ++i)
      if (p.gpus[i].name == j.gpu) h.gpu = static_cast<unsigned>(i);
    if (h.gpu == p.gpus.size())
      throw std::invalid_argument(
          d.source + ": a job for '" + j.gpu + "', which is " +
          (gpus_.count(j.gpu) ? "not driven by the host (its irq does not reach " + host.name + ")"
                              : "no GPU of the platform"));
    h.ptx = std::move(j.ptx);
    h.source = std::move(j.source);
    h.entry = std::move(j.entry);
    h.launch = std::move(j.launch);
    host_jobs.push_back(std::move(h));
  }
  return p;
}

namespace {
template <class Map>
auto find_in(const Map& m, const std::string& name) -> decltype(m.begin()->second.get()) {
  const auto it = m.find(name);
  return it == m.end() ? nullptr : it->second.get();
}
}  // namespace

const Gpu* PlatformTop::find_gpu(const std::string& name) const { return find_in(gpus_, name); }
const TlmMemory* PlatformTop::find_memory(const std::string& name) const {
  return find_in(memories_, name);
}
const AddressRouter* PlatformTop::find_router(const std::string& name) const {
  return find_in(routers_, name);
}

nlohmann::json PlatformTop::stats() const {
  nlohmann::json s = nlohmann::json::object();
  for (const auto& [name, gpu] : gpus_) s[name] = gpu->stats();
  for (const auto& [name, router] : routers_) s[name] = router->stats();
  for (const auto& [name, memory] : memories_) {
    const TlmMemoryStats& m = memory->stats();
    s[name] = {{"reads", m.reads},
               {"writes", m.writes},
               {"errors", m.errors},
               {"dmi_grants", m.dmi_grants},
               {"dmi_refusals", m.dmi_refusals},
               {"debug_accesses", m.debug_accesses}};
  }
  s[host_->basename()] = host_->stats();
  return s;
}

namespace {

// A GPU's issued instructions as timeline slices named by their PTX text, from
// the program of the launch running (the GPU loads programs itself).
class GpuTimelineSink : public TraceSink {
 public:
  GpuTimelineSink(const Gpu& gpu, ChromeTrace& timeline) : gpu_(gpu), timeline_(timeline) {}
  void issued(const TraceRecord& r) override {
    const Program* p = gpu_.launch_program();
    if (p) timeline_.slice(r.sm, r.warp, p->module.at(r.pc).text, r.step, 1, r.mask);
  }

 private:
  const Gpu& gpu_;
  ChromeTrace& timeline_;
};

}  // namespace

void prepare_platform_process(const char* what) {
  if (sc_core::sc_get_status() != sc_core::SC_ELABORATION ||
      sc_core::sc_time_stamp() != sc_core::SC_ZERO_TIME)
    throw std::logic_error(std::string(what) + ": SystemC has already simulated in this process");
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
}

std::string timeline_path_of(const std::string& path, const std::string& gpu, size_t gpus) {
  if (gpus <= 1) return path;
  const size_t slash = path.rfind('/');
  const size_t dot = path.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
    return path + "." + gpu;
  return path.substr(0, dot) + "." + gpu + path.substr(dot);
}

PlatformRunResult run_platform(const PlatformDescription& description,
                               std::vector<PlatformJob> jobs, const PlatformOutputs& outputs) {
  prepare_platform_process("run_platform");
  PlatformTop top(description.name.c_str(), description, std::move(jobs));
  const std::vector<std::string> gpus = description.module_names("gpu");
  sc_core::sc_report_handler::set_actions(sc_core::SC_ID_TRACING_TIMESCALE_UNIT_, sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  // A refusal or fault reaches the job's message through ERROR_TEXT; the
  // GPUs' own warnings would say it twice.
  for (const std::string& g : gpus)
    sc_core::sc_report_handler::set_actions(top.gpu(g).name(), sc_core::SC_WARNING,
                                            sc_core::SC_DO_NOTHING);
  sc_core::sc_trace_file* vcd = nullptr;
  if (!outputs.vcd_path.empty()) {
    std::string base = outputs.vcd_path;
    if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0)
      base.resize(base.size() - 4);
    vcd = sc_core::sc_create_vcd_trace_file(base.c_str());
    vcd->set_time_unit(1, sc_core::SC_PS);
    for (const std::string& g : gpus) top.gpu(g).trace_signals(vcd);
  }
  std::vector<std::unique_ptr<ChromeTrace>> timelines;
  std::vector<std::unique_ptr<GpuTimelineSink>> sinks;
  if (!outputs.timeline_path.empty())
    for (const std::string& g : gpus) {
      timelines.push_back(std::make_unique<ChromeTrace>(outputs.timeline_max_events));
      sinks.push_back(std::make_unique<GpuTimelineSink>(top.gpu(g), *timelines.back()));
      top.gpu(g).set_trace(sinks.back().get());
    }
  sc_core::sc_start();
  if (vcd) sc_core::sc_close_vcd_trace_file(vcd);
  PlatformRunResult r;
  for (size_t i = 0; i < timelines.size(); ++i) {
    const std::string path = timeline_path_of(outputs.timeline_path, gpus[i], gpus.size());
    std::ofstream out(path);
    if (out) timelines[i]->write(out, top.gpu(gpus[i]).cycle().to_seconds() * 1e9);
    if (!out) throw std::runtime_error("run_platform: cannot write the timeline to '" + path + "'");
    r.timelines.push_back(path);
  }
  r.jobs = top.host().jobs();
  r.stats = top.stats();
  r.simulated_ns = sc_core::sc_time_stamp().to_seconds() * 1e9;
  if (!top.host().finished())
    throw std::runtime_error("run_platform: the simulation ended before the host finished");
  return r;
}

}  // namespace warptlm
