// The installed C++ package as a user outside this repository meets it:
// `cmake --install` into a fresh prefix, then platforms/drop_in (two GPUs in a
// SystemC top of its own) configured and built against that prefix through
// find_package and through pkg-config, run, and its results checked.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <string>

#include "common/shell_command.h"

namespace {

using warptlm::testing::run_shell;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

bool exists(const std::string& path) { return std::ifstream(path).good(); }

class InstalledPackage : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
#ifdef WARPTLM_SANITIZED
    return;
#else
    char pattern[] = "/tmp/warptlm_package_XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    prefix_ = pattern;
    const std::string install = std::string(WARPTLM_CMAKE) + " --install " + WARPTLM_BUILD_DIR +
                                " --prefix " + prefix_ + " --component ";
    install_ = run_shell(install + "development && " + install + "runtime");
#endif
  }
  static void TearDownTestSuite() {
    if (!prefix_.empty()) run_shell("rm -rf " + prefix_);
  }
  void SetUp() override {
#ifdef WARPTLM_SANITIZED
    GTEST_SKIP() << "a sanitizer build's library needs a sanitizer build of its users";
#endif
    ASSERT_EQ(install_.status, 0) << install_.output;
  }
  static std::string example() { return std::string(WARPTLM_SOURCE_DIR) + "/platforms/drop_in"; }

  static std::string prefix_;
  static warptlm::testing::CommandResult install_;
};
std::string InstalledPackage::prefix_;
warptlm::testing::CommandResult InstalledPackage::install_;

TEST_F(InstalledPackage, PutsLibraryHeadersAndBothPackageFilesInPlace) {
  for (const char* file :
       {"/include/warptlm/warptlm.h", "/include/warptlm/gpu_regs.h", "/include/warptlm/gpu/gpu.h",
        "/include/warptlm/warptlm_version.h", "/lib/libwarptlm.a",
        "/lib/cmake/warptlm/warptlmConfig.cmake", "/lib/cmake/warptlm/warptlmConfigVersion.cmake",
        "/lib/pkgconfig/warptlm.pc"})
    EXPECT_TRUE(exists(prefix_ + file)) << file;
  // No test or tool code: a platform brings its own sc_main.
  const auto symbols = run_shell("nm -C " + prefix_ + "/lib/libwarptlm.a | grep -c ' T sc_main'");
  EXPECT_EQ(symbols.output, "0\n");
}

TEST_F(InstalledPackage, TheInstalledCliRunsOutsideTheBuildTree) {
  const auto run = run_shell("cd / && " + prefix_ + "/bin/warptlm run reduction --mode timing");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_TRUE(has(run.output, "host reference: PASS")) << run.output;
}

TEST_F(InstalledPackage, BuildsAndRunsTheDropInPlatformThroughFindPackage) {
  const std::string build = prefix_ + "/build_cmake";
  const auto configure =
      run_shell(std::string(WARPTLM_CMAKE) + " -S " + example() + " -B " + build +
                " -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=" + prefix_);
  ASSERT_EQ(configure.status, 0) << configure.output;
  const auto compile = run_shell(std::string(WARPTLM_CMAKE) + " --build " + build);
  ASSERT_EQ(compile.status, 0) << compile.output;
  const auto run = run_shell(build + "/drop_in " + example() + "/second_gpu.yaml");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_TRUE(has(run.output, "small_gpu (preset small, 2 SMs): 1000 values scaled by 3 in "))
      << run.output;
  EXPECT_TRUE(has(run.output, "second_gpu (" + example() +
                                  "/second_gpu.yaml, 4 SMs): 1000 values "
                                  "scaled by 5 in "))
      << run.output;
  EXPECT_EQ(run.output.find("FAIL"), std::string::npos) << run.output;

  // A bad configuration file: the error names the file and the field.
  const std::string bad = prefix_ + "/bad.yaml";
  std::ofstream(bad) << "preset: small\nmemory:\n  l1:\n    assoc: 0\n";
  const auto refused = run_shell(build + "/drop_in " + bad);
  EXPECT_EQ(refused.status, 2) << refused.output;
  EXPECT_TRUE(has(refused.output, bad + ": memory.l1.assoc: must be")) << refused.output;
}

TEST_F(InstalledPackage, BuildsAndRunsTheDropInPlatformThroughPkgConfig) {
  const std::string out = prefix_ + "/drop_in_pkg_config";
  const auto compile = run_shell("PKG_CONFIG_PATH=" + prefix_ + "/lib/pkgconfig make -s -C " +
                                 example() + " OUT=" + out);
  ASSERT_EQ(compile.status, 0) << compile.output;
  const auto run = run_shell(out);
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_TRUE(has(run.output, "second_gpu (preset fermi, 30 SMs)")) << run.output;
  EXPECT_EQ(run.output.find("FAIL"), std::string::npos) << run.output;
}

}  // namespace
