// Configuration files (config/config_file.h): JSON and YAML objects of
// fields over a preset, and the errors a user sees for a bad one.
#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>
#include <string>

#include "common/temp_path.h"
#include "config/config_file.h"

namespace warptlm {
namespace {

std::string write(const std::string& name, const std::string& text) {
  const std::string path = testing::temp_path(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string error_of(const std::string& path) {
  try {
    load_config_file(path);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(ConfigFile, YamlSetsFieldsOverAPresetFlatOrNested) {
  const std::string path = write("gpu.yaml",
                                 "# a comment\n"
                                 "preset: small\n"
                                 "num_sms: 3\n"
                                 "reconvergence: mp_ipdom\n"
                                 "mp_ipdom.st_entries: 0x8\n"
                                 "memory:\n"
                                 "  l1: {size: 16384}\n"
                                 "  dram:\n"
                                 "    clock_mhz: 1000.5\n");
  const PlatformConfig c = load_config_file(path);
  PlatformConfig expected = preset("small");
  expected.num_sms = 3;
  expected.reconvergence = "mp_ipdom";
  expected.options["mp_ipdom.st_entries"] = 8;
  expected.memory.l1.size = 16384;
  expected.memory.dram.clock_mhz = 1000.5;
  EXPECT_EQ(to_json(c), to_json(expected));
}

TEST(ConfigFile, JsonWithoutPresetStartsFromFermi) {
  const PlatformConfig c = load_config_file(write("gpu.json", R"({"warp_size": 16})"));
  PlatformConfig expected = preset("fermi");
  expected.warp_size = 16;
  EXPECT_EQ(to_json(c), to_json(expected));
}

TEST(ConfigFile, YamlScalarsKeepTheirTypes) {
  const nlohmann::json j = yaml_to_json(
      "a: 10\nb: -3\nc: 2.5\nd: true\ne: '12'\nf: ipdom\ng: ~\nh: [1, two]\ni: 010\n", "t.yaml");
  EXPECT_EQ(
      j, nlohmann::json::parse(R"({"a":10,"b":-3,"c":2.5,"d":true,"e":"12","f":"ipdom","g":null,)"
                               R"("h":[1,"two"],"i":10})"));
}

TEST(ConfigFile, ErrorsNameTheFileAndTheField) {
  const std::string bad_field = write("bad_field.yaml", "memory:\n  l1:\n    assoc: 0\n");
  EXPECT_EQ(error_of(bad_field).rfind(bad_field + ": memory.l1.assoc: must be ", 0), 0u)
      << error_of(bad_field);
  const std::string unknown = write("unknown.yaml", "num_sm: 4\n");
  EXPECT_NE(error_of(unknown).find(unknown + ": unknown configuration field 'num_sm'"),
            std::string::npos)
      << error_of(unknown);
  const std::string typed = write("typed.yaml", "num_sms: '4'\n");  // quoted: a string
  EXPECT_NE(error_of(typed).find("num_sms: must be an integer"), std::string::npos)
      << error_of(typed);
  const std::string bad_preset = write("preset.json", R"({"preset": "kepler"})");
  EXPECT_NE(error_of(bad_preset).find(bad_preset + ": unknown preset 'kepler'"), std::string::npos)
      << error_of(bad_preset);
  const std::string not_object = write("list.yaml", "- 1\n- 2\n");
  EXPECT_EQ(error_of(not_object),
            not_object + ": a configuration must be an object of fields, got array");
  const std::string broken = write("broken.yaml", "memory:\n  l1: {size: 1\n");
  EXPECT_EQ(error_of(broken).rfind(broken + ":3:", 0), 0u) << error_of(broken);
  const std::string broken_json = write("broken.json", "{\"warp_size\": }");
  EXPECT_EQ(error_of(broken_json).rfind(broken_json + ": not valid JSON: ", 0), 0u)
      << error_of(broken_json);
  EXPECT_EQ(error_of("/nonexistent/gpu.yaml"),
            "/nonexistent/gpu.yaml: cannot open the configuration file");
}

}  // namespace
}  // namespace warptlm
