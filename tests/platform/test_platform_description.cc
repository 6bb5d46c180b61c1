// Platform files: the built-in ones parse; every kind of mistake in a file is
// refused before elaboration with file:line:col and the item; settings by
// hierarchical name.
#include <gtest/gtest.h>

#include <string>

#include "platform/platform_description.h"

namespace warptlm {
namespace {

const char* const kSoc = R"(description: test soc
modules:
  host: {kind: host, memory: ram}
  bus:
    kind: router
    map:
      - {target: ram, base: 0x80000000, size: 0x100000}
      - {target: gpu0.control, base: 0x40000000, size: 0x1000}
  ram: {kind: memory, size: 0x100000}
  gpu0: {kind: gpu, preset: small}
bindings:
  - {from: host.bus, to: bus}
  - {from: gpu0.memory, to: bus}
interrupts:
  - {from: gpu0.irq, to: host.irq}
)";

// The message parse_platform throws for `text`, or "" when it parses.
std::string error_of(const std::string& text) {
  try {
    parse_platform(text, "p.yaml", "p");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(PlatformDescription, TheBuiltInPlatformsParse) {
  std::vector<std::string> names;
  for (const BuiltinPlatform& b : builtin_platforms()) names.push_back(b.name);
  EXPECT_EQ(names, (std::vector<std::string>{"multi_gpu", "soc", "standalone"}));
  const PlatformDescription soc = load_platform("soc");
  EXPECT_EQ(soc.module_names(), (std::vector<std::string>{"host", "bus", "ram", "gpu0"}));
  ASSERT_EQ(soc.maps.at("bus").size(), 2u);
  EXPECT_EQ(soc.maps.at("bus")[1].target.text(), "gpu0.control");
  EXPECT_EQ(soc.maps.at("bus")[1].base, 0x40000000u);
  const PlatformDescription multi = load_platform("multi_gpu");
  EXPECT_EQ(multi.jobs.at("gpu0"), "reduction");
  EXPECT_EQ(multi.jobs.at("gpu1"), "bfs");
  EXPECT_EQ(multi.interrupts.size(), 2u);
}

TEST(PlatformDescription, AGoodFileParsesWithDefaultPortsFilledIn) {
  const PlatformDescription d = parse_platform(kSoc, "p.yaml", "p");
  ASSERT_EQ(d.bindings.size(), 2u);
  EXPECT_EQ(d.bindings[0].to.text(), "bus.in");
  EXPECT_EQ(d.maps.at("bus")[0].target.text(), "ram.socket");
  EXPECT_EQ(d.bindings[1].where, "p.yaml:13:5");
}

TEST(PlatformDescription, MistakesAreRefusedWithTheirLocationAndItem) {
  struct Case {
    std::string from, to, message;
  };
  const Case cases[] = {
      {"kind: memory, size", "kind: memroy, size",
       "p.yaml:9:9: ram.kind: unknown module kind 'memroy' (did you mean 'memory'?)"},
      {"{kind: memory, size: 0x100000}", "{kind: memory}",
       "p.yaml:9:3: ram (memory): missing field 'size'"},
      {"{kind: memory, size: 0x100000}", "{kind: memory, size: 0x100000, colour: red}",
       "p.yaml:9:39: ram.colour: memory has no field 'colour'"},
      {"{target: gpu0.control, base: 0x40000000", "{target: gpu0.control, base: 0x80080000",
       "p.yaml:8:9: bus.map[1]: gpu0.control [0x80080000, 0x80081000) overlaps ram.socket "
       "[0x80000000, 0x80100000) (p.yaml:7:9)"},
      {"size: 0x1000}", "size: 0}", "p.yaml:8:50: bus.map[1]: an empty window"},
      {"  - {from: gpu0.memory, to: bus}",
       "  - {from: gpu0.memory, to: bus}\n  - {from: host.bus, to: ram}",
       "p.yaml:14:5: host.bus is bound twice (also at p.yaml:12:5)"},
      {"  - {from: gpu0.memory, to: bus}", "  - {from: gpu0.memory, to: gpu0.control}",
       "p.yaml:13:5: gpu0.control is bound twice (also at p.yaml:8:9)"},
      {"  - {from: host.bus, to: bus}\n", "",
       "p.yaml:3:3: host.bus: not bound (add a binding {from: host.bus, to: ...})"},
      {"{from: gpu0.memory, to: bus}", "{from: gpu0.control, to: bus}",
       "p.yaml:13:6: bindings[1].from: gpu0 (gpu) has no initiator 'control' (memory)"},
      {"{from: gpu0.memory, to: bus}", "{from: gpu1.memory, to: bus}",
       "p.yaml:13:6: bindings[1].from: no module 'gpu1' (did you mean 'gpu0'?)"},
      {"{from: gpu0.irq, to: host.irq}", "{from: gpu0.irq, to: gpu0.irq}",
       "p.yaml:15:5: an interrupt goes from a GPU's irq to the host (gpu0.irq -> gpu0.irq)"},
      {"gpu0: {kind: gpu, preset: small}", "gpu0: {kind: gpu, preset: small, num_sms: 0}",
       "p.yaml:10:36: gpu0: num_sms: must be an integer in [1, 1024], got 0"},
      {"description: test soc", "descripton: test soc",
       "p.yaml:1:1: unknown entry 'descripton' (did you mean 'description'?)"},
      {"host: {kind: host, memory: ram}", "host: {kind: host, memory: gpu0}",
       "p.yaml:3:22: host.memory: gpu0 has no memory of its own: its memory socket is bound "
       "(p.yaml:13:5)"},
      {"  ram: {kind: memory, size: 0x100000}\n",
       "  ram: {kind: memory, size: 0x100000}\n  rom: {kind: memory, size: 64}\n",
       "p.yaml:10:3: rom: nothing reaches this memory (bind it, or map it on a router)"},
      {"modules:", "modules: [", "p.yaml:"},
  };
  for (const Case& c : cases) {
    const std::string message = error_of(replaced(kSoc, c.from, c.to));
    EXPECT_EQ(message.rfind(c.message, 0), 0u) << "got:  " << message << "\nwant: " << c.message;
  }
}

TEST(PlatformDescription, AnUnknownPlatformNameListsTheBuiltInOnes) {
  try {
    load_platform("socc");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "unknown platform 'socc' (did you mean 'soc'?) (built in: multi_gpu, soc, "
              "standalone; or a .yaml/.json file)");
  }
}

TEST(PlatformDescription, SettingsByHierarchicalName) {
  PlatformDescription d = load_platform("multi_gpu");
  apply_platform_settings(d, {"gpu1.num_sms=2", "multi_gpu.ram.latency_ns=7", "coding_style=at"});
  EXPECT_EQ(d.find("gpu1")->fields["num_sms"], 2);
  EXPECT_EQ(d.find("gpu0")->fields.value("num_sms", 0), 0);  // gpu0 untouched
  EXPECT_EQ(d.find("ram")->fields["latency_ns"], 7);
  EXPECT_EQ(d.find("gpu0")->fields["coding_style"], "at");  // every GPU
  EXPECT_EQ(d.find("gpu1")->fields["coding_style"], "at");
  auto refused = [&](const std::string& setting) {
    PlatformDescription c = load_platform("multi_gpu");
    try {
      apply_platform_settings(c, {setting});
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(refused("gpu1.num_sms=0"),
            "--set gpu1.num_sms=0: gpu1: num_sms: must be an integer in "
            "[1, 1024], got 0");
  EXPECT_EQ(refused("ram.sise=3")
                .rfind("--set ram.sise=3: ram (memory) has no field 'sise' to "
                       "set (did you mean 'size'?)",
                       0),
            0u);
  EXPECT_EQ(refused("gpu9.num_sms=2")
                .rfind("--set gpu9.num_sms=2: 'gpu9' is no module (modules of platform multi_gpu: "
                       "host, bus, ram, gpu0, gpu1)",
                       0),
            0u);
  EXPECT_EQ(refused("ram.dmi=3"), "--set ram.dmi=3: ram.dmi must be true or false, got 3");
  EXPECT_EQ(refused("novalue"), "--set novalue: expected NAME=VALUE");
}

}  // namespace
}  // namespace warptlm
