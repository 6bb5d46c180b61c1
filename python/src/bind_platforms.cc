// Platforms from Python: the record `warptlm platform` prints from, built by
// the same C++ (tools/warptlm/platform_run.h), so both CLIs agree.
#include "core.h"
#include "platform/platform_description.h"
#include "platform_run.h"

namespace warptlm::python {

void bind_platforms(py::module_& m) {
  m.def(
      "run_platform",
      [](const std::string& platform, const std::vector<std::string>& scenarios,
         const std::string& size, py::object seed, const std::string& mode,
         const std::vector<std::string>& sets, const std::string& vcd_path,
         const std::string& timeline_path) {
        cli::PlatformRunRequest r;
        r.platform = platform;
        r.scenarios = scenarios;
        r.size = size;
        if (!seed.is_none()) {
          r.seed = seed.cast<uint64_t>();
          r.seed_given = true;
        }
        r.mode = mode;
        r.sets = sets;
        r.vcd_path = vcd_path;
        r.timeline_path = timeline_path;
        return to_python(cli::run_platform_record(r));
      },
      py::arg("platform"), py::arg("scenarios"), py::arg("size") = "test",
      py::arg("seed") = py::none(), py::arg("mode") = "",
      py::arg("sets") = std::vector<std::string>{}, py::arg("vcd_path") = "",
      py::arg("timeline_path") = "",
      "Elaborate and simulate a platform with scenarios on its GPUs: the run record (jobs, "
      "modules' statistics, passed).");
  m.def(
      "platform_summary_text",
      [](py::object record) { return cli::platform_summary_text(from_python(record)); },
      py::arg("record"), "The lines `warptlm platform` prints for a record.");
  m.def(
      "elaborate_platform",
      [](const std::string& platform, const std::string& mode,
         const std::vector<std::string>& sets) {
        return to_python(cli::elaborate_record(platform, mode, sets));
      },
      py::arg("platform"), py::arg("mode") = "", py::arg("sets") = std::vector<std::string>{},
      "Elaborate a platform (no jobs) and return its view as JSON data.");
  m.def(
      "elaboration_in_format",
      [](py::object view, const std::string& format) {
        return cli::elaboration_in_format(from_python(view), format);
      },
      py::arg("view"), py::arg("format"), "The view as text, json or dot, as `warptlm elaborate`.");
  m.def(
      "platform_outline",
      [](const std::string& platform, const std::vector<std::string>& sets) {
        PlatformDescription d = load_platform(platform);
        if (!sets.empty()) apply_platform_settings(d, sets);
        nlohmann::json o = {{"name", d.name}, {"modules", nlohmann::json::array()}};
        for (const PlatformModule& m : d.modules)
          o["modules"].push_back({{"name", m.name}, {"kind", m.kind}});
        for (const PlatformLink& l : d.interrupts) o["driven"].push_back(l.from.module);
        for (const auto& [router, entries] : d.maps)
          for (const RouterMapEntry& e : entries) o["windows"][router].push_back(e.target.text());
        return to_python(o);
      },
      py::arg("platform"), py::arg("sets") = std::vector<std::string>{},
      "A checked platform's modules (name, kind), the GPUs its host drives and its routers' "
      "window targets: what a sweep's columns are made of.");
  m.def(
      "platform_names",
      [] {
        std::vector<std::string> names;
        for (const BuiltinPlatform& b : builtin_platforms()) names.push_back(b.name);
        return names;
      },
      "Names of the built-in platforms.");
  m.def(
      "check_platform",
      [](const std::string& platform, const std::vector<std::string>& sets) {
        PlatformDescription d = load_platform(platform);
        if (!sets.empty()) apply_platform_settings(d, sets);
        return d.name;
      },
      py::arg("platform"), py::arg("sets") = std::vector<std::string>{},
      "Loads and checks a platform and settings (ValueError naming what is wrong); its name.");
}

}  // namespace warptlm::python
