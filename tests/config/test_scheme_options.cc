// The options of individual schemes as configuration fields: mp_ipdom's table
// capacities (mp_ipdom.st_entries / rt_entries) reach the executor's
// configuration, and every option of a scheme set away from its default
// while another scheme is selected is rejected, naming the field and the
// scheme it belongs to.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/platform_config.h"
#include "config/scheme_names.h"
#include "simt/reconvergence_unit.h"

namespace warptlm {
namespace {

// What validate() or apply_overrides() threw ("" when accepted).
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

std::string validation_error(const PlatformConfig& c) {
  return error_of([&] { validate(c); });
}

TEST(SchemeOptions, MpIpdomCapacitiesAreFunctionalFieldsFrom0To64) {
  for (const char* name : {"mp_ipdom.st_entries", "mp_ipdom.rt_entries"}) {
    SCOPED_TRACE(name);
    const FieldInfo& f = config_field(name);
    EXPECT_EQ(f.type, FieldType::Int);
    EXPECT_EQ(f.min, 0);
    EXPECT_EQ(f.max, 64);
    EXPECT_TRUE(f.functional);
    EXPECT_EQ(get_field(PlatformConfig{}, name), 0);
    PlatformConfig c;
    EXPECT_EQ(error_of([&] { set_field(c, name, 65); }),
              std::string(name) + ": must be an integer in [0, 64], got 65");
  }
  PlatformConfig c;
  c.reconvergence = "mp_ipdom";
  set_field(c, "mp_ipdom.st_entries", 3);
  set_field(c, "mp_ipdom.rt_entries", 1);
  EXPECT_EQ(validation_error(c), "");
  const ExecConfig e = c.exec_config();
  EXPECT_EQ(e.options, (OptionValues{{"mp_ipdom.rt_entries", 1}, {"mp_ipdom.st_entries", 3}}));
  // JSON (what Python and sweep rows show) carries them.
  EXPECT_EQ(to_json(c)["mp_ipdom.rt_entries"], 1);
}

TEST(SchemeOptions, ExecutorConfigurationChecksTheCapacityRange) {
  ExecConfig e;
  e.reconvergence = "mp_ipdom";
  e.options["mp_ipdom.st_entries"] = 65;
  EXPECT_EQ(error_of([&] { e.validate(); }),
            "mp_ipdom.st_entries: must be an integer in [0, 64], got 65");
  e.options["mp_ipdom.st_entries"] = 64;
  e.options["mp_ipdom.rt_entries"] = 100;
  EXPECT_EQ(error_of([&] { e.validate(); }),
            "mp_ipdom.rt_entries: must be an integer in [0, 64], got 100");
  e.options["mp_ipdom.rt_entries"] = 64;
  EXPECT_EQ(error_of([&] { e.validate(); }), "");
  // An option no registered component declared.
  ExecConfig unknown;
  unknown.options["mp_ipdom.entries"] = 4;
  EXPECT_EQ(error_of([&] { unknown.validate(); }),
            "options: 'mp_ipdom.entries' is no option of a registered scheme (options: "
            "mp_ipdom.st_entries, mp_ipdom.rt_entries, capri.entries, capri.history_bits)");
  // Directly: the executor's configuration alone (the CLI's `exec`).
  e.reconvergence = "dual_path";
  EXPECT_EQ(error_of([&] { e.validate(); }),
            "mp_ipdom.st_entries: an option of reconvergence=mp_ipdom, but reconvergence is "
            "'dual_path' (leave it at its default 0)");
}

struct Combination {
  const char* field;
  int value;
  const char* selector;  // the field that selects the scheme
  const char* selected;  // another scheme
  const char* owner;     // the option's scheme
  const char* message;
};

// Each option of a scheme, set away from its default under another scheme
// (rejected), then under its own scheme (accepted).
const Combination kCombinations[] = {
    {"mp_ipdom.st_entries", 4, "reconvergence", "ipdom", "mp_ipdom",
     "mp_ipdom.st_entries: an option of reconvergence=mp_ipdom, but reconvergence is 'ipdom' "
     "(leave it at its default 0)"},
    {"mp_ipdom.rt_entries", 1, "reconvergence", "sorted_list", "mp_ipdom",
     "mp_ipdom.rt_entries: an option of reconvergence=mp_ipdom, but reconvergence is "
     "'sorted_list' (leave it at its default 0)"},
    {"sm.rt_access_cycles", 3, "reconvergence", "ipdom", "mp_ipdom",
     "sm.rt_access_cycles: an option of reconvergence=mp_ipdom, but reconvergence is 'ipdom' "
     "(leave it at its default 1)"},
    {"sm.cct_access_cycles", 0, "reconvergence", "mp_ipdom", "sorted_list",
     "sm.cct_access_cycles: an option of reconvergence=sorted_list, but reconvergence is "
     "'mp_ipdom' (leave it at its default 1)"},
    {"capri.entries", 64, "compaction", "tbc", "capri",
     "capri.entries: an option of compaction=capri, but compaction is 'tbc' (leave it at its "
     "default 32)"},
    {"capri.history_bits", 3, "compaction", "none", "capri",
     "capri.history_bits: an option of compaction=capri, but compaction is 'none' (leave it at "
     "its default 2)"},
};

TEST(SchemeOptions, AnOptionOfAnotherSchemeIsRejectedNamingFieldAndScheme) {
  for (const Combination& x : kCombinations) {
    SCOPED_TRACE(x.field);
    PlatformConfig c = preset("small");
    set_field(c, x.selector, x.selected);
    set_field(c, x.field, x.value);
    EXPECT_EQ(validation_error(c), x.message);
    set_field(c, x.selector, x.owner);
    EXPECT_EQ(validation_error(c), "");
    // The same through overrides (Python's Platform, the CLI's --set).
    const nlohmann::json overrides = {{x.selector, x.selected}, {x.field, x.value}};
    EXPECT_EQ(error_of([&] { apply_overrides(preset("small"), overrides); }), x.message);
  }
}

TEST(SchemeOptions, DefaultsAreAllowedWithEveryScheme) {
  // Setting an option to its default value is no error, whatever is selected.
  PlatformConfig c = preset("fermi");
  set_field(c, "reconvergence", "min_pc");
  set_field(c, "mp_ipdom.rt_entries", 0);
  set_field(c, "sm.rt_access_cycles", 1);
  set_field(c, "sm.cct_access_cycles", 1);
  set_field(c, "capri.entries", 32);
  EXPECT_EQ(validation_error(c), "");
  // A permutation is a property of the SIMD lanes, not of compaction.
  set_field(c, "permutation", "xor_half");
  EXPECT_EQ(validation_error(c), "");
}

TEST(SchemeOptions, EveryPresetAcceptsEveryScheme) {
  // No preset sets an option away from its default, so switching the scheme
  // of any preset is valid.
  for (const PresetInfo& p : preset_infos()) {
    for (const std::string& scheme : reconvergence_names()) {
      PlatformConfig c = preset(p.name);
      c.reconvergence = scheme;
      EXPECT_EQ(validation_error(c), "") << p.name << " " << scheme;
    }
    for (const std::string& compaction : compaction_names()) {
      PlatformConfig c = preset(p.name);
      c.compaction = compaction;
      EXPECT_EQ(validation_error(c), "") << p.name << " " << compaction;
    }
  }
}

}  // namespace
}  // namespace warptlm
