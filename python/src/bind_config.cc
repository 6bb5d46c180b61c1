// Configuration: the field table, presets, validation, scheme names and the
// list of statistics, as plain Python values.
#include "analyze_text.h"
#include "arg_values.h"
#include "cli_text.h"
#include "config/config_file.h"
#include "config/scheme_names.h"
#include "config/version.h"
#include "core.h"
#include "exec/run_stats.h"
#include "gpu/statistics.h"
#include "image_dict.h"
#include "simt/reconvergence_unit.h"

namespace warptlm::python {

namespace {

py::dict field_dict(const FieldInfo& f) {
  py::dict d;
  d["name"] = f.name;
  d["type"] = field_type_name(f.type);
  d["doc"] = f.doc;
  d["functional"] = f.functional;
  d["default"] = to_python(f.get(PlatformConfig{}));
  d["allowed"] = f.allowed ? py::object(py::cast(f.allowed())) : py::none();
  bool ranged = f.type == FieldType::Int || f.type == FieldType::Float;
  d["min"] = ranged ? py::object(py::int_(f.min)) : py::none();
  d["max"] = ranged ? py::object(py::int_(f.max)) : py::none();
  d["power_of_two"] = f.power_of_two;
  d["describe"] = f.describe_allowed();
  return d;
}

}  // namespace

void bind_config(py::module_& m) {
  m.def(
      "config_fields",
      [] {
        py::list out;
        for (const FieldInfo& f : config_fields()) out.append(field_dict(f));
        return out;
      },
      "Every configuration field: name, type, doc, functional, default, allowed, min, max.");
  m.def(
      "presets",
      [] {
        py::list out;
        for (const PresetInfo& p : preset_infos()) out.append(py::make_tuple(p.name, p.doc));
        return out;
      },
      "(name, description) of every preset.");
  m.def(
      "read_config_file",
      [](const std::string& path, const std::string& default_preset) {
        const ConfigDocument d =
            split_config_document(read_config_document(path), path, default_preset);
        return py::make_tuple(d.preset, d.overrides.dump());
      },
      py::arg("path"), py::arg("default_preset"),
      "(preset, JSON text of the fields) of a configuration file (JSON or YAML), read as the C++ "
      "API's load_config_file reads it; ValueError names the file (and line:column for YAML).");
  m.def(
      "make_config",
      [](const std::string& preset_name, const std::string& overrides_json) {
        nlohmann::json j = nlohmann::json::parse(overrides_json, nullptr, false);
        if (j.is_discarded())
          throw std::invalid_argument("configuration overrides: not valid JSON");
        return to_python(to_json(apply_overrides(preset(preset_name), j)));
      },
      py::arg("preset"), py::arg("overrides_json") = "{}",
      "The flat configuration dict of a preset with overrides (JSON text, flat or nested); "
      "ValueError names an unknown field or a bad value.");
  m.def(
      "check_field", [](const std::string& name) { config_field(name); }, py::arg("name"),
      "Raises ValueError for an unknown configuration field, with the closest names.");
  m.def("list_text", &cli::list_text, py::arg("section") = "", py::arg("markdown") = false,
        "What `list [SECTION]` prints, the same text as the C++ CLI's.");
  m.def(
      "analyze_text",
      [](const std::string& file, bool markers, bool lowered, bool reconverging,
         bool reconverging_dot) {
        return cli::analyze_text(
            file, cli::AnalyzeOptions{markers, lowered, reconverging, reconverging_dot});
      },
      py::arg("file"), py::arg("markers") = false, py::arg("lowered") = false,
      py::arg("reconverging") = false, py::arg("reconverging_dot") = false,
      "What `analyze FILE.ptx` prints, the same text as the C++ CLI's. Raises PtxError.");
  m.def("version", &version, "The warptlm version (the VERSION file).");
  m.def(
      "parse_scalar",
      [](const std::string& text) {
        KernelArg a = cli::parse_scalar(text);
        return py::make_tuple(type_name(a.type), a.bits);
      },
      py::arg("text"),
      "A `--arg TYPE:VALUE` text as the C++ CLI reads it: (PTX type name, zero-extended bits).");
  m.def(
      "parse_image_arg",
      [](const std::string& text) {
        std::string path;
        const cli::ImageOptions o = cli::parse_image_arg(text, &path);
        py::dict d;
        d["kind"] = o.kind == ImageDesc::Kind::Surface ? "surface" : "texture";
        d["channels"] = o.channels;
        if (o.kind == ImageDesc::Kind::Texture) {
          d["filter"] = o.filter;
          d["address"] = o.address;
          d["normalized_coords"] = o.normalized_coords;
          d["read"] = o.read;
          d["border"] = o.border;
        }
        return py::make_tuple(path, d);
      },
      py::arg("text"),
      "An `--arg texture:FILE.npy,...` or `surface:FILE.npy,...` text as the C++ CLI reads it: "
      "(path, the keywords of warptlm.Texture / warptlm.Surface).");
  m.def("is_image_arg", &cli::is_image_arg, py::arg("text"),
        "Whether an --arg text names a texture or surface object.");
  m.def(
      "make_image_desc",
      [](const std::string& kind, const std::vector<uint64_t>& shape, const std::string& element,
         unsigned channels, const std::string& filter, const std::vector<std::string>& address,
         bool normalized_coords, const std::string& read, const std::vector<double>& border) {
        cli::ImageOptions o;
        o.kind = kind == "surface" ? ImageDesc::Kind::Surface : ImageDesc::Kind::Texture;
        o.channels = channels;
        o.filter = filter;
        o.address = address;
        o.normalized_coords = normalized_coords;
        o.read = read;
        o.border = border;
        return image_desc_to_dict(cli::make_image_desc(o, shape, element));
      },
      py::arg("kind"), py::arg("shape"), py::arg("element"), py::arg("channels"), py::arg("filter"),
      py::arg("address"), py::arg("normalized_coords"), py::arg("read"), py::arg("border"),
      "The description of a texture or surface object over an array (warptlm.Texture): "
      "ValueError naming what is wrong, the words the C++ CLI uses.");
  m.def(
      "parse_dim3",
      [](const std::string& flag, const std::string& text) {
        Dim3 d = cli::parse_dim3(flag, text);
        return py::make_tuple(d.x, d.y, d.z);
      },
      py::arg("flag"), py::arg("text"), "An `X[,Y[,Z]]` option value as the C++ CLI reads it.");
  m.def(
      "stats_text",
      [](const std::string& record_json) {
        return cli::stats_text(nlohmann::json::parse(record_json));
      },
      py::arg("record_json"), "A run record's stats.txt, as the C++ CLI writes it.");
  m.def("fnv1a64", &cli::fnv1a64, py::arg("text"),
        "FNV-1a (64-bit, hex) of a PTX text: the run record's fingerprint.");
  m.def("reconvergence_names", &reconvergence_names);
  m.def("scheduler_names", &scheduler_names);
  m.def("compaction_names", &compaction_names);
  m.def("dram_scheduler_names", &dram_scheduler_names);
  m.def("permutation_names", &permutation_names);
  m.def(
      "statistics",
      [] {
        py::list out;
        for (const Statistic& s : statistics())
          out.append(py::make_tuple(s.name, s.unit, s.meaning, s.timing_only, s.breakdown));
        return out;
      },
      "(name, unit, meaning, timing_only, breakdown) of every statistic a run can report, in "
      "report order; '<N>' in a name stands for an SM, channel or slice index.");
  m.def("is_breakdown_stat", &is_breakdown_stat, py::arg("key"),
        "Whether a timing statistic is a per-SM, per-channel or per-port breakdown.");
}

}  // namespace warptlm::python
