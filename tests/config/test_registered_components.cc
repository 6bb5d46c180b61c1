// A component registered by name is accepted by the configuration like a
// built-in: validation asks the registries, not a list of its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "compaction/balanced_permutation.h"
#include "compaction/compaction_unit.h"
#include "compaction/lane_permutation.h"
#include "config/platform_config.h"
#include "config/scheme_names.h"
#include "dram/scheduler/dram_scheduler.h"
#include "simt/ipdom_stack.h"
#include "simt/reconvergence_unit.h"
#include "sm/scheduler/gto_scheduler.h"
#include "sm/scheduler/warp_scheduler.h"

namespace warptlm {
namespace {

bool lists(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

template <typename F>
std::string error_of(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(RegisteredComponents, AreAcceptedByNameInTheConfiguration) {
  PlatformConfig c;
  EXPECT_THROW(set_field(c, "scheduler", "cfg_test_sched"), std::invalid_argument);
  EXPECT_THROW(set_field(c, "reconvergence", "cfg_test_scheme"), std::invalid_argument);
  EXPECT_THROW(set_field(c, "permutation", "cfg_test_perm"), std::invalid_argument);
  EXPECT_THROW(set_field(c, "compaction", "cfg_test_unit"), std::invalid_argument);
  EXPECT_THROW(set_field(c, "memory.dram.scheduler", "cfg_test_dram"), std::invalid_argument);

  register_warp_scheduler(
      "cfg_test_sched",
      [](unsigned slots, const SchedulerParams&) -> std::unique_ptr<WarpScheduler> {
        return std::make_unique<GtoScheduler>(slots);
      },
      "gto under another name");
  register_reconvergence(
      "cfg_test_scheme",
      [](unsigned, const ComponentOptions&) -> std::unique_ptr<ReconvergenceUnit> {
        return std::make_unique<IpdomStack>();
      },
      false, "ipdom under another name");
  register_lane_permutation(
      "cfg_test_perm",
      [](unsigned ws, uint64_t) -> std::unique_ptr<LanePermutation> {
        return std::make_unique<BalancedPermutation>(ws);
      },
      "balanced under another name");
  register_compaction_unit(
      "cfg_test_unit",
      [](const CompactionSetup& s) -> std::unique_ptr<CompactionUnit> {
        return make_compaction_unit("tbc", s);
      },
      "tbc under another name");
  register_dram_scheduler(
      "cfg_test_dram",
      [](unsigned banks) -> std::unique_ptr<DramScheduler> {
        return make_dram_scheduler("fcfs", banks);
      },
      "fcfs under another name");

  set_field(c, "scheduler", "cfg_test_sched");
  set_field(c, "reconvergence", "cfg_test_scheme");
  set_field(c, "permutation", "cfg_test_perm");
  validate(c);
  set_field(c, "reconvergence", "ipdom");  // compaction needs the IPDOM reconvergence point
  set_field(c, "compaction", "cfg_test_unit");
  set_field(c, "memory.dram.scheduler", "cfg_test_dram");
  validate(c);
  EXPECT_EQ(to_json(c).at("scheduler"), "cfg_test_sched");
  EXPECT_TRUE(lists(scheduler_names(), "cfg_test_sched"));
  EXPECT_TRUE(lists(reconvergence_names(), "cfg_test_scheme"));
  EXPECT_TRUE(lists(permutation_names(), "cfg_test_perm"));
  EXPECT_TRUE(lists(compaction_names(), "cfg_test_unit"));
  EXPECT_TRUE(lists(dram_scheduler_names(), "cfg_test_dram"));
  // The field's description lists it as allowed.
  EXPECT_NE(config_field("scheduler").describe_allowed().find("'cfg_test_sched'"),
            std::string::npos);
}

TEST(RegisteredComponents, UnknownNamesListTheRegisteredOnes) {
  PlatformConfig c;
  try {
    set_field(c, "scheduler", "fifo");
    FAIL();
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("scheduler"), std::string::npos) << what;
    EXPECT_NE(what.find("'srr'"), std::string::npos) << what;
  }
  EXPECT_THROW(make_warp_scheduler("fifo", 4), std::invalid_argument);
  EXPECT_THROW(make_reconvergence_unit("nope", 32), std::invalid_argument);
  EXPECT_THROW(make_lane_permutation("nope", 32, 1), std::invalid_argument);
  EXPECT_THROW(make_compaction_unit("nope", CompactionSetup{}), std::invalid_argument);
}

}  // namespace
}  // namespace warptlm

namespace warptlm {
namespace {

std::unique_ptr<ReconvergenceUnit> make_test_ipdom(unsigned, const ComponentOptions&) {
  return std::make_unique<IpdomStack>();
}

TEST(RegisteredComponents, SchemeStatisticsAreCheckedAndListed) {
  // More than a scheme may report, a statistic twice, one without a name, and
  // a name that means something else in another scheme: refused.
  std::vector<StatInfo> many(kMaxOwnStats + 1, StatInfo{"x", "paths", "x"});
  for (size_t i = 0; i < many.size(); ++i) many[i].name = "cfg_many_" + std::to_string(i);
  EXPECT_THROW(register_reconvergence("cfg_many", &make_test_ipdom, false, "", many),
               std::invalid_argument);
  EXPECT_THROW(register_reconvergence("cfg_twice", &make_test_ipdom, false, "",
                                      {{"cfg_a", "paths", "a"}, {"cfg_a", "paths", "a"}}),
               std::invalid_argument);
  EXPECT_THROW(
      register_reconvergence("cfg_unnamed", &make_test_ipdom, false, "", {{"", "paths", "a"}}),
      std::invalid_argument);
  EXPECT_THROW(register_reconvergence("cfg_clash", &make_test_ipdom, false, "",
                                      {{"rt_accesses", "paths", "not mp_ipdom's"}}),
               std::invalid_argument);
  for (const char* refused : {"cfg_many", "cfg_twice", "cfg_unnamed", "cfg_clash"})
    EXPECT_FALSE(lists(reconvergence_names(), refused)) << refused;
  // Accepted: listed among every scheme's statistics, after the built-ins'.
  register_reconvergence("cfg_counting", &make_test_ipdom, false, "ipdom with a statistic",
                         {{"cfg_counted", "paths", "a test statistic", true}});
  const std::vector<StatInfo> all = all_reconvergence_stats();
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all.front().name, "peak_st_entries");  // mp_ipdom's, registered before sorted_list's
  EXPECT_EQ(all.back().name, "cfg_counted");
  EXPECT_TRUE(all.back().peak);
  EXPECT_EQ(reconvergence_stats("cfg_counting")->size(), 1u);
  EXPECT_TRUE(reconvergence_stats("ipdom")->empty());
  // A unit made by name knows its statistics.
  EXPECT_EQ(make_reconvergence_unit("mp_ipdom", 32)->own_stats()->size(), 5u);
  EXPECT_EQ(make_reconvergence_unit("ipdom", 32)->own_stats(), nullptr);
}

// What a unit of the test saw of its option (the factory runs in this process).
int64_t g_ways_seen = 0;

std::unique_ptr<CompactionUnit> make_test_ways(const CompactionSetup& s) {
  g_ways_seen = s.options.get("ways");
  return make_compaction_unit("tbc", s);
}

TEST(RegisteredComponents, DeclaredOptionsBecomeConfigurationFields) {
  EXPECT_THROW(config_field("cfg_opts.ways"), std::invalid_argument);
  // Declarations are checked when the component is registered.
  EXPECT_THROW(register_compaction_unit("cfg_bad_default", &make_test_ways, "",
                                        {{"ways", 1, 8, 3, true, "not a power of two"}}),
               std::invalid_argument);
  EXPECT_THROW(register_compaction_unit("cfg_bad_name", &make_test_ways, "",
                                        {{"Ways", 1, 8, 2, true, "upper case"}}),
               std::invalid_argument);
  EXPECT_THROW(register_reconvergence("cfg_twice_opt", &make_test_ipdom, false, "", {},
                                      {{"a", 0, 1, 0, false, ""}, {"a", 0, 1, 0, false, ""}}),
               std::invalid_argument);
  EXPECT_FALSE(lists(compaction_names(), "cfg_bad_default"));
  register_compaction_unit("cfg_opts", &make_test_ways, "tbc with an option",
                           {{"ways", 1, 8, 2, true, "a test option"}});

  // A field like the built-ins' options, with its range and description.
  const FieldInfo& f = config_field("cfg_opts.ways");
  EXPECT_EQ(f.doc, "compaction cfg_opts: a test option");
  EXPECT_EQ(f.describe_allowed(), "an integer in [1, 8], a power of two");
  EXPECT_TRUE(f.functional);
  PlatformConfig c;
  EXPECT_EQ(get_field(c, "cfg_opts.ways"), 2);
  EXPECT_THROW(set_field(c, "cfg_opts.ways", 3), std::invalid_argument);
  set_field(c, "cfg_opts.ways", 4);
  EXPECT_EQ(to_json(c).at("cfg_opts.ways"), 4);
  // Only under its own unit.
  EXPECT_NE(error_of([&] { validate(c); }).find("cfg_opts.ways: an option of compaction=cfg_opts"),
            std::string::npos);
  set_field(c, "compaction", "cfg_opts");
  validate(c);
  // The unit's factory reads the configured value.
  const ExecConfig e = c.exec_config();
  make_compaction_unit(e.compaction, e.compaction_setup());
  EXPECT_EQ(g_ways_seen, 4);
  // Set back to its default, the option is not stored at all.
  set_field(c, "cfg_opts.ways", 2);
  EXPECT_TRUE(c.options.empty());
  // Reading an option it did not declare is the component's defect.
  EXPECT_THROW(e.compaction_setup().options.get("sets"), std::logic_error);
}

}  // namespace
}  // namespace warptlm
