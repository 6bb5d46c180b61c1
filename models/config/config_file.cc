#include "config/config_file.h"

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace warptlm {
namespace {

using json = nlohmann::json;

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A plain scalar as the YAML 1.2 core schema reads it.
json plain_scalar(const std::string& s) {
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  errno = 0;
  char* end = nullptr;
  const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  if (hex) {
    const unsigned long long v = std::strtoull(s.c_str() + 2, &end, 16);
    if (*end == '\0' && errno == 0) return static_cast<uint64_t>(v);
  } else if (s[0] == '-') {
    const long long v = std::strtoll(s.c_str(), &end, 10);
    if (*end == '\0' && errno == 0 && end != s.c_str() + 1) return static_cast<int64_t>(v);
  } else if (s[0] != '+' && s[0] != ' ') {
    const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
    if (*end == '\0' && errno == 0) return static_cast<uint64_t>(v);
  }
  errno = 0;
  const double d = std::strtod(s.c_str(), &end);
  if (*end == '\0' && errno == 0) return d;
  return s;
}

std::string place(const std::string& source, const YAML::Mark& m) {
  return source + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

// `locations` gets each node's place: a mapping's entry is placed at its key.
json convert(const YAML::Node& node, const std::string& source, const std::string& pointer,
             SourceLocations* locations) {
  if (locations && !locations->count(pointer)) (*locations)[pointer] = place(source, node.Mark());
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Scalar:
      // A quoted scalar's tag is "!": always a string.
      return node.Tag() == "!" ? json(node.Scalar()) : plain_scalar(node.Scalar());
    case YAML::NodeType::Sequence: {
      json a = json::array();
      for (const YAML::Node& item : node)
        a.push_back(convert(item, source, pointer + "/" + std::to_string(a.size()), locations));
      return a;
    }
    case YAML::NodeType::Map: {
      json o = json::object();
      for (const auto& kv : node) {
        if (!kv.first.IsScalar())
          throw std::invalid_argument(place(source, kv.first.Mark()) +
                                      ": a key must be a plain name");
        const std::string key = kv.first.Scalar();
        if (o.contains(key))
          throw std::invalid_argument(place(source, kv.first.Mark()) + ": '" + key +
                                      "' is given twice");
        const std::string member = (json::json_pointer(pointer) / key).to_string();
        if (locations) (*locations)[member] = place(source, kv.first.Mark());
        o[key] = convert(kv.second, source, member, locations);
      }
      return o;
    }
  }
  return nullptr;
}

}  // namespace

json yaml_to_json(const std::string& text, const std::string& source, SourceLocations* locations) {
  try {
    return convert(YAML::Load(text), source, "", locations);
  } catch (const YAML::Exception& e) {
    throw std::invalid_argument(source + ":" + std::to_string(e.mark.line + 1) + ":" +
                                std::to_string(e.mark.column + 1) + ": " + e.msg);
  }
}

ConfigDocument split_config_document(const json& document, const std::string& source,
                                     const std::string& default_preset) {
  if (!document.is_object())
    throw std::invalid_argument(source + ": a configuration must be an object of fields, got " +
                                std::string(document.type_name()));
  ConfigDocument d{default_preset, document};
  if (d.overrides.contains("preset")) {
    if (!d.overrides["preset"].is_string())
      throw std::invalid_argument(source + ": preset: must be a preset name, got " +
                                  d.overrides["preset"].dump());
    d.preset = d.overrides["preset"].get<std::string>();
    d.overrides.erase("preset");
  }
  return d;
}

PlatformConfig config_from_json(const json& document, const std::string& source,
                                const std::string& default_preset) {
  const ConfigDocument d = split_config_document(document, source, default_preset);
  try {
    return apply_overrides(preset(d.preset), d.overrides);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(source + ": " + e.what());
  }
}

json read_config_document(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument(path + ": cannot open the configuration file");
  std::ostringstream text;
  text << in.rdbuf();
  json document;
  if (ends_with(path, ".yaml") || ends_with(path, ".yml")) {
    document = yaml_to_json(text.str(), path);
  } else {
    try {
      document = json::parse(text.str());
    } catch (const json::parse_error& e) {
      throw std::invalid_argument(path + ": not valid JSON: " + e.what());
    }
  }
  return document;
}

PlatformConfig load_config_file(const std::string& path, const std::string& default_preset) {
  return config_from_json(read_config_document(path), path, default_preset);
}

}  // namespace warptlm
