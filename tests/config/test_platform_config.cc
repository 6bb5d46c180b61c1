// The platform configuration: field table, validation messages, presets,
// JSON round trip.
#include <gtest/gtest.h>

#include <set>

#include "config/platform_config.h"
#include "simt/reconvergence_unit.h"

namespace warptlm {
namespace {

std::string error_of(PlatformConfig& c, const std::string& name, const nlohmann::json& v) {
  try {
    set_field(c, name, v);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(PlatformConfig, FieldNamesAreUniqueAndEveryPresetValidates) {
  std::set<std::string> names;
  for (const FieldInfo& f : config_fields()) EXPECT_TRUE(names.insert(f.name).second) << f.name;
  for (const char* top : {"warp_size", "simd_width", "num_sms", "scheduler", "reconvergence",
                          "compaction", "permutation", "seed"})
    EXPECT_TRUE(names.count(top)) << top;
  for (const PresetInfo& p : preset_infos()) EXPECT_NO_THROW(validate(preset(p.name))) << p.name;
  EXPECT_EQ(preset("fermi").num_sms, 30u);
  EXPECT_EQ(preset("small").num_sms, 2u);
  EXPECT_THROW(preset("gtx9000"), std::invalid_argument);
}

TEST(PlatformConfig, SetFieldChecksTypeRangeAndAllowedValues) {
  PlatformConfig c;
  set_field(c, "memory.l1.size", 16384);
  EXPECT_EQ(c.memory.l1.size, 16384u);
  set_field(c, "sm.clock_mhz", 1400);  // an integer is a valid float
  EXPECT_DOUBLE_EQ(c.sm.clock_mhz, 1400.0);
  EXPECT_NE(error_of(c, "warp_size", 24)
                .find("warp_size: must be an integer in [4, 64], a power of two, got 24"),
            std::string::npos);
  EXPECT_NE(error_of(c, "warp_size", "32").find("warp_size"), std::string::npos);
  EXPECT_NE(error_of(c, "memory.l1.cache_global", 1).find("true or false"), std::string::npos);
  std::string e = error_of(c, "reconvergence", "magic");
  for (const auto& n : reconvergence_names())
    EXPECT_NE(e.find("'" + n + "'"), std::string::npos) << e;
  e = error_of(c, "memory.l1.sise", 1);
  EXPECT_NE(e.find("unknown configuration field 'memory.l1.sise'"), std::string::npos) << e;
  EXPECT_NE(e.find("memory.l1.size"), std::string::npos) << e;  // suggested and listed
  for (const FieldInfo& f : config_fields()) EXPECT_NE(e.find(f.name), std::string::npos) << f.name;
  EXPECT_EQ(c.warp_size, 32u);  // failed sets change nothing
  set_field(c, "sm.scoreboard", "registers");
  EXPECT_EQ(c.sm.scoreboard, "registers");
  e = error_of(c, "sm.scoreboard", "warp");
  EXPECT_NE(e.find("sm.scoreboard"), std::string::npos) << e;
  EXPECT_NE(e.find("'lane_masks'"), std::string::npos) << e;
  EXPECT_EQ(c.sm.scoreboard, "registers");
}

TEST(PlatformConfig, CacheGeometryIsChecked) {
  PlatformConfig c;
  c.memory.l1.size = 48 * 1024;  // 96 sets of 8 x 64 B: not a power of two
  try {
    validate(c);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("memory.l1.size:", 0), 0u) << e.what();
  }
}

TEST(PlatformConfig, JsonRoundTripAndNestedOverrides) {
  PlatformConfig v = preset("volta");
  PlatformConfig back = apply_overrides(PlatformConfig{}, to_json(v));
  EXPECT_EQ(to_json(back), to_json(v));
  PlatformConfig n =
      apply_overrides(preset("small"), {{"memory", {{"l2", {{"assoc", 16}}}}}, {"seed", 9}});
  EXPECT_EQ(n.memory.l2.assoc, 16u);
  EXPECT_EQ(n.seed, 9u);
  ExecConfig e = n.exec_config();
  EXPECT_EQ(e.warp_size, n.warp_size);
  EXPECT_EQ(e.reconvergence, "ipdom");
}

TEST(PlatformConfig, ExecConfigLimitsAreThePlatformDefaults) {
  // A functional run built from ExecConfig{} refuses what the default
  // platform's GPU refuses.
  const SmLimits a = ExecConfig{}.sm, b = PlatformConfig{}.exec_config().sm;
  EXPECT_EQ(a.threads, b.threads);
  EXPECT_EQ(a.warps, b.warps);
  EXPECT_EQ(a.registers, b.registers);
  EXPECT_EQ(a.max_registers_per_thread, b.max_registers_per_thread);
  EXPECT_EQ(a.shared_memory, b.shared_memory);
  EXPECT_EQ(ExecConfig{}.watchdog, PlatformConfig{}.watchdog);
  EXPECT_EQ(ExecConfig{}.instruction_budget, PlatformConfig{}.instruction_budget);
}

}  // namespace
}  // namespace warptlm

namespace warptlm {
namespace {

// The GPGPU-Sim presets carry their configuration files' figures
// (docs/gpgpusim-presets.md): machine shape, caches as sets x line x ways x
// sub-partitions, and DRAM bandwidth as channels x clock x bytes per clock.
TEST(PlatformConfig, GpgpuSimPresetsFollowTheirConfigurationFiles) {
  PlatformConfig g = preset("gtx480");
  EXPECT_EQ(g.num_sms, 15u);
  EXPECT_EQ(g.sm.threads, 1536u);
  EXPECT_EQ(g.sm.registers, 32768u);
  EXPECT_EQ(g.sm.shared_memory, 49152u);
  EXPECT_EQ(g.memory.l1.size, 16u * 1024);
  EXPECT_EQ(g.memory.l1.line, 128u);
  EXPECT_EQ(g.memory.l2.size, 768u * 1024);  // 64 sets x 128 B x 8 ways x 12 sub-partitions
  EXPECT_EQ(g.memory.l2.slices, 12u);
  EXPECT_EQ(g.scheduler, "gto");
  // 177.4 GB/s, the GTX480's published bandwidth
  EXPECT_NEAR(g.memory.dram.channels * g.memory.dram.clock_mhz * g.memory.dram.bus_width / 1e3,
              177.4, 0.1);
  PlatformConfig q = preset("qv100");
  EXPECT_EQ(q.num_sms, 80u);
  EXPECT_EQ(q.sm.threads, 2048u);
  EXPECT_EQ(q.sm.schedulers, 4u);
  EXPECT_EQ(q.memory.l1.size, 32u * 1024);
  EXPECT_EQ(q.memory.l2.size, 6u * 1024 * 1024);  // 32 sets x 128 B x 24 ways x 64 sub-partitions
  EXPECT_EQ(q.memory.l2.slices, 64u);
  EXPECT_NEAR(q.memory.dram.channels * q.memory.dram.clock_mhz * q.memory.dram.bus_width / 1e3,
              870.4, 0.1);
  EXPECT_NO_THROW(validate(g));
  EXPECT_NO_THROW(validate(q));
}

}  // namespace
}  // namespace warptlm
