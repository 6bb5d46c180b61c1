// A platform configuration read from a file: a JSON or YAML object whose
// optional `preset` names the starting point (default `default_preset`:
// "fermi", the defaults of PlatformConfig, or the CLIs' --preset) and whose
// other entries override fields, flat
// ("memory.l1.size": 65536) or nested (memory: {l1: {size: 65536}}), as
// apply_overrides() takes them:
//
//   preset: small
//   num_sms: 4
//   memory: {l1: {size: 65536}}
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "config/platform_config.h"

namespace warptlm {

// Reads `path` (.yaml/.yml as YAML, anything else as JSON). Throws
// std::invalid_argument naming the file for one that cannot be read or
// parsed (with line and column), and naming the file and the field for a bad
// value or an unknown field.
PlatformConfig load_config_file(const std::string& path,
                                const std::string& default_preset = "fermi");

// The parsed document of `path` (JSON, or YAML as yaml_to_json() reads it),
// not yet checked as a configuration; throws as load_config_file().
nlohmann::json read_config_document(const std::string& path);

// A configuration document split into the preset it starts from and the
// fields it sets. Throws std::invalid_argument naming `source` for a document
// that is not an object or a preset that is not a name.
struct ConfigDocument {
  std::string preset;
  nlohmann::json overrides;  // flat or nested, as apply_overrides() takes them
};
ConfigDocument split_config_document(const nlohmann::json& document, const std::string& source,
                                     const std::string& default_preset = "fermi");

// The configuration `document` describes; `source` names it in errors.
PlatformConfig config_from_json(const nlohmann::json& document, const std::string& source,
                                const std::string& default_preset = "fermi");

// A YAML document as JSON: mappings as objects, sequences as arrays, plain
// scalars as integers, floats, booleans or null where they read as one,
// quoted scalars as strings. Throws std::invalid_argument with `source`, line
// and column for bad YAML or a key given twice. `locations`, when given,
// receives "source:line:col" of every node by its JSON pointer ("" is the
// document, "/modules/gpu0/kind" an entry), for errors found later.
using SourceLocations = std::map<std::string, std::string>;
nlohmann::json yaml_to_json(const std::string& text, const std::string& source,
                            SourceLocations* locations = nullptr);

}  // namespace warptlm
