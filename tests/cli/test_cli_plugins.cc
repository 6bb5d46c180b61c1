// Component plug-ins through the C++ CLI: the example plug-in
// (examples/components) registers a reconvergence scheme, a warp scheduler and
// a compaction unit that the configuration, `list schemes` and runs then
// accept by name.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "common/shell_command.h"
#include "common/temp_path.h"

namespace {

using Result = warptlm::testing::CommandResult;

Result cli_with_plugins(const std::string& plugins, const std::string& args) {
  return warptlm::testing::run_shell("WARPTLM_PLUGINS='" + plugins + "' " +
                                     std::string(WARPTLM_CLI) + " " + args);
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(CliPlugins, ExampleComponentsAreListedAndRunBitExactly) {
  const std::string plugin = WARPTLM_EXAMPLE_PLUGIN;
  const Result list = cli_with_plugins(plugin, "list schemes");
  ASSERT_EQ(list.status, 0) << list.output;
  EXPECT_TRUE(has(list.output, "not_taken_first")) << list.output;
  EXPECT_TRUE(has(list.output, "youngest_first")) << list.output;
  // Without the plug-in the names are unknown.
  const Result without = cli_with_plugins("", "run reduction --reconvergence not_taken_first");
  EXPECT_EQ(without.status, 2) << without.output;
  EXPECT_TRUE(has(without.output, "not_taken_first")) << without.output;
  // Both modes pass the host reference (the timing run is checked against it
  // too, and the tests of tests/timing compare every scheme's timing run with
  // its functional run).
  for (const char* mode : {"functional", "timing"}) {
    const Result run =
        cli_with_plugins(plugin, std::string("run bitonic --reconvergence not_taken_first --set "
                                             "scheduler=youngest_first --mode ") +
                                     mode);
    EXPECT_EQ(run.status, 0) << mode << ": " << run.output;
    EXPECT_TRUE(has(run.output, "PASS")) << run.output;
  }
}

// The statistics of `run SCENARIO ARGS` with the example plug-in loaded.
nlohmann::json run_stats(const std::string& scenario, const std::string& args) {
  const std::string stats = warptlm::testing::temp_path("plugin_stats.json");
  std::remove(stats.c_str());
  const Result run = cli_with_plugins(WARPTLM_EXAMPLE_PLUGIN,
                                      "run " + scenario + " " + args + " --stats " + stats);
  EXPECT_EQ(run.status, 0) << args << ": " << run.output;
  EXPECT_TRUE(has(run.output, "PASS")) << run.output;
  return nlohmann::json::parse(std::ifstream(stats)).at("stats");
}

TEST(CliPlugins, ExampleCompactionUnitRunsBitExactlyAndDecidesPerBranch) {
  const Result list = cli_with_plugins(WARPTLM_EXAMPLE_PLUGIN, "list schemes");
  EXPECT_TRUE(has(list.output, "adequate_tbc")) << list.output;
  // bfs: divergent branches, some worth compacting and some not.
  const nlohmann::json none = run_stats("bfs", "--set compaction=none");
  const nlohmann::json functional = run_stats("bfs", "--set compaction=adequate_tbc");
  const nlohmann::json timing = run_stats("bfs", "--set compaction=adequate_tbc --mode timing");
  for (const nlohmann::json* s : {&functional, &timing}) {
    const uint64_t decided = s->at("capri_predictions"), compacted = s->at("capri_compactions");
    EXPECT_GT(decided, compacted);                // it left some branches uncompacted...
    EXPECT_GT(compacted, 0u);                     // ... and compacted others
    EXPECT_EQ(s->at("capri_mispredictions"), 0);  // it knows each outcome
    // It compacts only where that takes fewer warps.
    EXPECT_LT(s->at("warp_instructions").get<uint64_t>(),
              none.at("warp_instructions").get<uint64_t>());
  }
  // The timing model forms the same warps as the functional executor.
  EXPECT_EQ(timing.at("warp_instructions"), functional.at("warp_instructions"));
  EXPECT_EQ(timing.at("capri_compactions"), functional.at("capri_compactions"));

  // Its option is a configuration field like the built-ins' options: listed,
  // range-checked, and read by the unit (no CTA of bfs saves 64 warps).
  const Result fields = cli_with_plugins(WARPTLM_EXAMPLE_PLUGIN, "list fields");
  EXPECT_TRUE(has(fields.output, "adequate_tbc.min_saving")) << fields.output;
  const Result bad =
      cli_with_plugins(WARPTLM_EXAMPLE_PLUGIN,
                       "run bfs --set compaction=adequate_tbc --set adequate_tbc.min_saving=0");
  EXPECT_EQ(bad.status, 2) << bad.output;
  EXPECT_TRUE(has(bad.output, "adequate_tbc.min_saving: must be an integer in [1, 64], got 0"))
      << bad.output;
  const nlohmann::json never =
      run_stats("bfs", "--set compaction=adequate_tbc --set adequate_tbc.min_saving=64");
  EXPECT_EQ(never.at("capri_predictions"), functional.at("capri_predictions"));
  EXPECT_EQ(never.at("capri_compactions"), 0);
}

TEST(CliPlugins, ExampleSchemeReportsItsOwnStatistic) {
  const Result list = cli_with_plugins(WARPTLM_EXAMPLE_PLUGIN, "list statistics");
  EXPECT_TRUE(has(list.output, "ntf_splits")) << list.output;
  // Counted under its scheme, in both modes alike; 0 under another.
  const nlohmann::json functional = run_stats("bitonic", "--reconvergence not_taken_first");
  const nlohmann::json timing =
      run_stats("bitonic", "--reconvergence not_taken_first --mode timing");
  EXPECT_GT(functional.at("ntf_splits").get<uint64_t>(), 0u);
  EXPECT_EQ(functional.at("ntf_splits"), timing.at("ntf_splits"));
  EXPECT_EQ(functional.at("ntf_splits"), functional.at("divergent_branches"));
  EXPECT_EQ(run_stats("bitonic", "").at("ntf_splits"), 0);
}

TEST(CliPlugins, ABadPluginIsAClearError) {
  const Result missing = cli_with_plugins("/nonexistent/plugin.so", "list schemes");
  EXPECT_EQ(missing.status, 2);
  EXPECT_TRUE(has(missing.output, "WARPTLM_PLUGINS: plugin '/nonexistent/plugin.so': no such file"))
      << missing.output;
  // A shared library that is not a plug-in (the loader finds no entry point):
  // the C library's libm, wherever this system keeps it.
  Dl_info info{};
  double (*cosine)(double) = &std::cos;
  ASSERT_NE(dladdr(reinterpret_cast<void*>(cosine), &info), 0);
  const Result not_plugin = cli_with_plugins(info.dli_fname, "list schemes");
  EXPECT_EQ(not_plugin.status, 2);
  EXPECT_TRUE(has(not_plugin.output, "warptlm_register_components")) << not_plugin.output;
  // Loading the same plug-in twice (two names for one file) registers once.
  const std::string plugin = WARPTLM_EXAMPLE_PLUGIN;
  const Result twice = cli_with_plugins(plugin + ":" + plugin, "list schemes");
  EXPECT_EQ(twice.status, 0) << twice.output;
}

}  // namespace
