// The built-in scenarios: list, describe, and run one against its host
// reference.
#include "cli_text.h"
#include "core.h"
#include "exec/prepared_program.h"
#include "frontend/ptx_parser.h"
#include "scenario.h"
#include "simt/reconvergence_unit.h"

namespace warptlm::python {

namespace {

py::dict describe(const std::string& name) {
  const scenarios::Scenario& s = scenarios::find(name);
  py::dict d;
  d["name"] = s.name;
  d["title"] = s.title;
  d["mirrors"] = s.mirrors;
  py::list div;
  for (auto v : s.divergence) div.append(scenarios::divergence_name(v));
  d["divergence"] = div;
  py::dict sizes;
  for (const auto& z : s.sizes) sizes[py::str(z.name)] = z.n;
  d["sizes"] = sizes;
  d["min_n"] = s.min_n;
  d["max_n"] = s.max_n;
  d["n_multiple"] = s.n_multiple;
  d["entry"] = s.entry;
  d["source"] = "scenarios/" + s.source_dir + "/kernel.cu";
  return d;
}

py::dict run_scenario(const std::string& name, const std::string& size, uint64_t seed,
                      const std::string& config_json, bool trace, const std::string& mode,
                      const std::string& timeline_path, const std::string& vcd_path,
                      bool compactability) {
  PlatformConfig config = config_from_text(config_json);
  const scenarios::Scenario& s = scenarios::find(name);
  uint64_t n = scenarios::resolve_size(s, size);
  LaunchSpec input = s.make_launch(n, seed);
  LaunchSpec launch = input;
  Program program = prepare_program(
      parse_ptx(scenarios::scenario_ptx(s), "scenarios/" + s.source_dir + "/kernel.ptx"),
      config.reconvergence);
  py::dict out = run_launch(program, s.entry, launch, config, trace, mode, timeline_path, vcd_path,
                            compactability);
  describe_run(out, cli::fnv1a64(scenarios::scenario_ptx(s)),
               "scenarios/" + s.source_dir + "/kernel.ptx", s.entry, launch);
  py::dict scenario;
  scenario["name"] = s.name;
  scenario["size"] = size;
  scenario["n"] = n;
  scenario["seed"] = seed;
  out["scenario"] = scenario;
  out["n"] = n;
  if (out["fault"].is_none()) {
    scenarios::CheckResult check = s.check(input, launch);
    out["passed"] = check.passed;
    out["message"] = check.message;
  } else {
    out["passed"] = false;
    out["message"] = out["fault"]["message"];
  }
  return out;
}

}  // namespace

void bind_scenarios(py::module_& m) {
  m.def(
      "scenario_names",
      [] {
        std::vector<std::string> names;
        for (const auto& s : scenarios::all()) names.push_back(s.name);
        return names;
      },
      "Names of the built-in scenarios, in catalogue order.");
  m.def("scenario_info", &describe, py::arg("name"),
        "Title, mirrored benchmark, divergence kinds, sizes and size range of a scenario.");
  m.def("run_scenario", &run_scenario, py::arg("name"), py::arg("size"), py::arg("seed"),
        py::arg("config_json"), py::arg("trace") = false, py::arg("mode") = "functional",
        py::arg("timeline_path") = "", py::arg("vcd_path") = "", py::arg("compactability") = false,
        "Run a scenario with inputs from `seed` and check it against its host reference: "
        "run_kernel's dict plus n, passed, message.");
}

}  // namespace warptlm::python
