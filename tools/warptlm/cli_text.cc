#include "cli_text.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "compaction/lane_permutation.h"
#include "config/close_names.h"
#include "config/platform_config.h"
#include "config/scheme_names.h"
#include "dram/scheduler/dram_scheduler.h"
#include "gpu/statistics.h"
#include "scenario.h"
#include "simt/reconvergence_unit.h"
#include "sm/scheduler/warp_scheduler.h"

namespace warptlm::cli {
namespace {

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string row(const char* format, const std::string& a, const std::string& b) {
  // Sized to the text: a long list of registered names is not cut.
  const int n = std::snprintf(nullptr, 0, format, a.c_str(), b.c_str());
  std::string out(static_cast<size_t>(std::max(n, 0)) + 1, '\0');
  std::snprintf(out.data(), out.size(), format, a.c_str(), b.c_str());
  out.pop_back();
  return out;
}

// One line per registered component under its kind's line: name and description.
std::string descriptions_text(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string out;
  for (const auto& [name, doc] : entries)
    out += row("  %-14s   %-16s", "", name) + " " + doc + "\n";
  return out;
}

std::string presets_text() {
  std::string out;
  for (const PresetInfo& p : preset_infos()) out += row("  %-8s %s\n", p.name, p.doc);
  return out;
}

std::string scenarios_text() {
  std::string out;
  for (const scenarios::Scenario& s : scenarios::all()) {
    std::vector<std::string> div, sizes;
    for (auto d : s.divergence) div.push_back(scenarios::divergence_name(d));
    for (const auto& z : s.sizes) sizes.push_back(z.name + " n=" + std::to_string(z.n));
    out += row("  %-16s %s\n", s.name, s.title);
    out += row("  %-16s   mirrors: %s\n", "", s.mirrors);
    out += row("  %-16s   divergence: %s\n", "",
               join(div) + "; sizes: " + join(sizes) + " (n in [" + std::to_string(s.min_n) + ", " +
                   std::to_string(s.max_n) + "])");
  }
  return out;
}

std::string schemes_text() {
  return row("  %-14s %s\n", "reconvergence", join(reconvergence_names())) +
         descriptions_text(reconvergence_descriptions()) +
         row("  %-14s %s\n", "scheduler", join(scheduler_names())) +
         descriptions_text(warp_scheduler_descriptions()) +
         row("  %-14s %s\n", "compaction", join(compaction_names())) +
         descriptions_text(compaction_descriptions()) +
         row("  %-14s %s\n", "permutation", join(permutation_names())) +
         descriptions_text(lane_permutation_descriptions()) +
         row("  %-14s %s\n", "dram.scheduler", join(dram_scheduler_names())) +
         descriptions_text(dram_scheduler_descriptions());
}

std::string statistics_text() {
  std::string out;
  for (const Statistic& s : statistics())
    out += row("  %-44s %s", s.name, "[" + s.unit + (s.timing_only ? "; timing" : "") + "] ") +
           s.meaning + "\n";
  return out;
}

std::string fields_text() {
  std::string out;
  for (const FieldInfo& f : config_fields()) {
    char buf[2048];
    std::snprintf(buf, sizeof buf, "  %-28s %-6s default %-12s %s; %s%s\n", f.name.c_str(),
                  field_type_name(f.type), f.get(PlatformConfig{}).dump().c_str(), f.doc.c_str(),
                  f.describe_allowed().c_str(), f.functional ? "" : "  (timing)");
    out += buf;
  }
  return out;
}

std::string group_of(const std::string& name) {
  const size_t dot = name.find('.');
  if (dot == std::string::npos) return "run";
  const std::string head = name.substr(0, dot);
  return head.rfind("sm<", 0) == 0 ? "sm<N>" : head;
}

std::string statistics_markdown() {
  std::string out =
      "# Statistics\n\n"
      "Every statistic a run can report, generated from the registry (`models/gpu/statistics.h`) "
      "by\n`build/warptlm list statistics --markdown` (or `python3 -m warptlm list statistics "
      "--markdown`);\na test keeps this page current. Modes: `both` (functional and timing runs) "
      "or `timing`.\n`<N>` stands for an SM, DRAM channel or port index: those are per-part "
      "breakdowns, kept in\nsingle runs and in sweeps only with `breakdown=True`. `run` holds what "
      "both modes report plus\nthe whole-GPU timing figures.\n\n"
      "A run's statistics file (`--stats`, `--outdir`, `Result.save()`) is a run record: "
      "`warptlm_version`,\n`command`, `mode`, `kernel` (name, source, `ptx_fnv1a64`), `launch` "
      "(grid, block, shared_bytes, cooperative),\n`config` (every configuration field), `stats` "
      "(the "
      "statistics below), `wall_seconds`; scenario\nruns add `scenario` (name, size, n, seed), "
      "`passed` and `message`.\n";
  std::string group;
  for (const Statistic& s : statistics()) {
    if (group_of(s.name) != group) {
      group = group_of(s.name);
      out += "\n## " + group + "\n\n| name | unit | modes | meaning |\n|---|---|---|---|\n";
    }
    std::string meaning = s.meaning;
    for (char& ch : meaning)
      if (ch == '|') ch = '/';
    out += "| `" + s.name + "` | " + s.unit + " | " + (s.timing_only ? "timing" : "both") + " | " +
           meaning + " |\n";
  }
  return out;
}

}  // namespace

const std::vector<std::string>& list_sections() {
  static const std::vector<std::string> sections = {"presets", "scenarios", "schemes", "statistics",
                                                    "fields"};
  return sections;
}

std::string list_text(const std::string& section, bool markdown) {
  if (markdown) {
    if (section != "statistics")
      throw std::invalid_argument(
          "--markdown lists the statistics: use `list statistics --markdown`");
    return statistics_markdown();
  }
  if (section.empty()) {
    std::string out;
    for (size_t i = 0; i < 4; ++i) out += list_text(list_sections()[i]) + "\n";
    return out;
  }
  std::string body;
  if (section == "presets")
    body = presets_text();
  else if (section == "scenarios")
    body = scenarios_text();
  else if (section == "schemes")
    body = schemes_text();
  else if (section == "statistics")
    body = statistics_text();
  else if (section == "fields")
    body = fields_text();
  else
    throw std::invalid_argument("list: unknown section '" + section + "'" +
                                did_you_mean(section, list_sections()) +
                                "; sections: " + join(list_sections()));
  return section + ":\n" + body;
}

std::string stats_text(const nlohmann::json& record) {
  std::string out = "# warptlm " + record["warptlm_version"].get<std::string>() + " " +
                    record["command"].get<std::string>() + ", " +
                    record["mode"].get<std::string>() + " mode, kernel " +
                    record["kernel"]["name"].get<std::string>() + "\n";
  // In the registry's order (JSON objects keep theirs alphabetical).
  std::vector<std::pair<size_t, std::string>> keys;
  const Statistic* first = &statistics().front();
  for (auto it = record["stats"].begin(); it != record["stats"].end(); ++it) {
    const Statistic* s = find_statistic(it.key());
    keys.emplace_back(s ? size_t(s - first) : statistics().size(), it.key());
  }
  std::stable_sort(keys.begin(), keys.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [index, key] : keys) {
    std::string name = key, value = record["stats"][key].dump();
    name.resize(std::max<size_t>(name.size(), 44), ' ');
    value.insert(0, value.size() < 20 ? 20 - value.size() : 0, ' ');
    out += name + " " + value;
    if (index < statistics().size())
      out += "  # " + statistics()[index].meaning + " (" + statistics()[index].unit + ")";
    out += "\n";
  }
  return out;
}

std::string fnv1a64(const std::string& text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ull;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace warptlm::cli
