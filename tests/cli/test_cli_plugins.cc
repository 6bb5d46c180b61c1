// Component plug-ins through the C++ CLI: the example plug-in
// (examples/components) registers a reconvergence scheme and a warp scheduler
// that the configuration, `list schemes` and runs then accept by name.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "common/shell_command.h"

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
