// The fuzzer's seeds (every .ptx file of the tests and scenarios) and every
// input that ever broke the harness (tests/fuzz/crashes, kept as regression
// tests) run through it in the ordinary build: a located error or a clean
// end, nothing else.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ptx_fuzz.h"

namespace warptlm {
namespace {

namespace fs = std::filesystem;

// The files under `dir` (recursively) whose name ends in `suffix` ("" for all).
std::vector<fs::path> files_in(const std::string& dir, const std::string& suffix) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(WARPTLM_SOURCE_DIR) / dir)) {
    const std::string name = e.path().filename().string();
    if (!e.is_regular_file() || name[0] == '.' || name == "README.md") continue;
    if (name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void replay(const std::string& dir, const std::string& suffix, size_t at_least) {
  const std::vector<fs::path> files = files_in(dir, suffix);
  EXPECT_GE(files.size(), at_least) << dir;
  for (const fs::path& p : files) {
    std::ifstream in(p, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    SCOPED_TRACE(p.string());
    EXPECT_NO_THROW(fuzz::fuzz_ptx(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
  }
}

TEST(FuzzCorpus, TestKernelsEndCleanly) { replay("tests/data/ptx", ".ptx", 40); }

TEST(FuzzCorpus, ScenarioKernelsEndCleanly) { replay("scenarios", ".ptx", 20); }

TEST(FuzzCorpus, EveryInputThatEverBrokeItStaysFixed) { replay("tests/fuzz/crashes", "", 6); }

}  // namespace
}  // namespace warptlm
