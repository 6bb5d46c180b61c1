#include "platform_run.h"

#include <map>
#include <sstream>
#include <stdexcept>

#include "config/config_file.h"
#include "config/platform_config.h"
#include "platform/elaboration_view.h"
#include "platform/platform_top.h"
#include "scenario.h"
#include "warptlm/gpu_regs.h"

namespace warptlm::cli {

namespace {

// The platform with --mode and --set applied.
PlatformDescription configured(const std::string& platform, const std::string& mode,
                               const std::vector<std::string>& settings) {
  PlatformDescription d = load_platform(platform);
  std::vector<std::string> sets;
  if (!mode.empty()) {
    if (mode != "lt" && mode != "at")
      throw std::invalid_argument("--mode " + mode + ": a platform runs in lt or at");
    sets.push_back("coding_style=" + mode);
  }
  sets.insert(sets.end(), settings.begin(), settings.end());
  if (!sets.empty()) apply_platform_settings(d, sets);
  return d;
}

}  // namespace

nlohmann::json elaborate_record(const std::string& platform, const std::string& mode,
                                const std::vector<std::string>& sets) {
  return elaborate_platform(configured(platform, mode, sets));
}

std::string elaboration_in_format(const nlohmann::json& view, const std::string& format) {
  if (format == "json") return view.dump(2) + "\n";
  if (format == "text") return elaboration_text(view);
  if (format == "dot") return elaboration_dot(view);
  throw std::invalid_argument("--format " + format + ": text, json or dot");
}

nlohmann::json run_platform_record(const PlatformRunRequest& request) {
  PlatformDescription d = configured(request.platform, request.mode, request.sets);

  // Which GPU runs what: the file's defaults, then --scenario.
  std::vector<std::string> driven;
  for (const PlatformLink& l : d.interrupts) driven.push_back(l.from.module);
  std::map<std::string, std::string> jobs = d.jobs;
  for (const std::string& s : request.scenarios) {
    const size_t eq = s.find('=');
    if (eq == std::string::npos) {
      for (const std::string& g : driven) jobs[g] = s;
      continue;
    }
    const std::string gpu = s.substr(0, eq);
    const PlatformModule* m = d.find(gpu);
    if (!m || m->kind != "gpu") {
      std::string names;
      for (const std::string& g : d.module_names("gpu")) names += (names.empty() ? "" : ", ") + g;
      throw std::invalid_argument("--scenario " + s + ": no GPU '" + gpu + "' in platform " +
                                  d.name + " (" + names + ")");
    }
    jobs[gpu] = s.substr(eq + 1);
  }
  if (jobs.empty())
    throw std::invalid_argument("platform " + d.name +
                                " has no default jobs: give --scenario NAME (every GPU) or "
                                "--scenario GPU=NAME");

  struct Planned {
    std::string gpu;
    const scenarios::Scenario* scenario;
    uint64_t n, seed;
    LaunchSpec input;
  };
  std::vector<Planned> plan;
  std::vector<PlatformJob> platform_jobs;
  for (const auto& [gpu, name] : jobs) {
    const scenarios::Scenario& s = scenarios::find(name);
    const uint64_t n = scenarios::resolve_size(s, request.size);
    const uint64_t seed = request.seed_given ? request.seed : gpu_module_config(*d.find(gpu)).seed;
    Planned p{gpu, &s, n, seed, s.make_launch(n, seed)};
    platform_jobs.push_back({gpu, scenarios::scenario_ptx(s),
                             "scenarios/" + s.source_dir + "/kernel.ptx", s.entry, p.input});
    plan.push_back(std::move(p));
  }

  PlatformOutputs outputs;
  outputs.vcd_path = request.vcd_path;
  outputs.timeline_path = request.timeline_path;
  const PlatformRunResult r = run_platform(d, std::move(platform_jobs), outputs);
  nlohmann::json record = {{"platform", d.name},           {"source", d.source},
                           {"description", d.description}, {"simulated_ns", r.simulated_ns},
                           {"modules", r.stats},           {"timelines", r.timelines}};
  for (const std::string& g : d.module_names("gpu"))
    record["configs"][g] = to_json(gpu_module_config(*d.find(g)));
  bool all = true;
  record["jobs"] = nlohmann::json::array();
  for (size_t i = 0; i < plan.size(); ++i) {
    const Planned& p = plan[i];
    const HostJob& j = r.jobs[i];
    bool passed = false;
    std::string message = j.message;
    if (message.empty()) {
      const scenarios::CheckResult c = p.scenario->check(p.input, j.launch);
      passed = c.passed;
      message = c.message;
    }
    all = all && passed;
    record["jobs"].push_back({{"gpu", p.gpu},
                              {"scenario", p.scenario->name},
                              {"size", request.size},
                              {"n", p.n},
                              {"seed", p.seed},
                              {"status", j.status},
                              {"error", j.error},
                              {"launch_cycles", j.cycles},
                              {"launched_ns", j.launched_ns},
                              {"finished_ns", j.finished_ns},
                              {"passed", passed},
                              {"message", message}});
  }
  record["passed"] = all;
  return record;
}

std::string platform_summary_text(const nlohmann::json& record) {
  std::ostringstream os;
  os << "warptlm platform " << record["platform"].get<std::string>() << ": "
     << record["description"].get<std::string>() << "\n";
  os << "  from " << record["source"].get<std::string>() << "; simulated "
     << record["simulated_ns"].get<double>() / 1000.0 << " us\n";
  for (const nlohmann::json& j : record["jobs"]) {
    const std::string gpu = j["gpu"];
    const nlohmann::json& s = record["modules"][gpu];
    os << "  " << gpu << " (" << record["configs"][gpu]["coding_style"].get<std::string>()
       << "): " << j["scenario"].get<std::string>() << " n=" << j["n"] << ", "
       << j["launch_cycles"].get<uint64_t>() << " cycles, "
       << s.value("warp_instructions", uint64_t(0)) << " warp instructions, from "
       << j["launched_ns"].get<double>() / 1000.0 << " to "
       << j["finished_ns"].get<double>() / 1000.0
       << " us: " << (j["passed"].get<bool>() ? "PASS" : "FAIL") << " ("
       << j["message"].get<std::string>() << ")\n";
  }
  for (const auto& [name, s] : record["modules"].items()) {
    if (s.contains("windows")) {
      os << "  " << name << " (router):";
      for (const auto& [target, w] : s["windows"].items())
        os << " " << target << " " << w["reads"].get<uint64_t>() << "r/"
           << w["writes"].get<uint64_t>() << "w";
      os << ", " << s["unmapped"].get<uint64_t>() << " unmapped\n";
    } else if (s.contains("dmi_refusals")) {
      os << "  " << name << " (memory): " << s["reads"].get<uint64_t>() << " reads, "
         << s["writes"].get<uint64_t>() << " writes, " << s["dmi_grants"].get<uint64_t>()
         << " DMI grants\n";
    } else if (s.contains("mmio_reads")) {
      os << "  " << name << " (host): " << s["mmio_reads"].get<uint64_t>() << " register reads, "
         << s["mmio_writes"].get<uint64_t>() << " writes, " << s["bytes_copied_in"].get<uint64_t>()
         << " bytes copied in, " << s["bytes_copied_out"].get<uint64_t>() << " out\n";
    }
  }
  os << "  host reference: " << (record["passed"].get<bool>() ? "PASS" : "FAIL") << "\n";
  return os.str();
}

}  // namespace warptlm::cli
