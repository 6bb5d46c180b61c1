// The scenario catalogue: metadata, size handling, bad input, determinism of
// the input generators and the embedded PTX (parsed, holding its kernel).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>

#include "frontend/ptx_parser.h"
#include "scenario.h"

namespace warptlm::scenarios {
namespace {

bool has_size(const Scenario& s, const std::string& name) {
  for (const Size& z : s.sizes)
    if (z.name == name) return true;
  return false;
}

// The message of the std::invalid_argument that `f` throws ("" if none).
template <class F>
std::string invalid_argument_message(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(ScenarioCatalogue, EveryScenarioIsDescribed) {
  ASSERT_GE(all().size(), 4u);
  std::set<std::string> names;
  for (const Scenario& s : all()) {
    SCOPED_TRACE(s.name);
    EXPECT_TRUE(names.insert(s.name).second) << "duplicate name";
    EXPECT_FALSE(s.title.empty());
    EXPECT_FALSE(s.mirrors.empty());
    EXPECT_FALSE(s.divergence.empty());
    for (Divergence d : s.divergence) EXPECT_STRNE(divergence_name(d), "?");
    EXPECT_FALSE(s.entry.empty());
    EXPECT_TRUE(has_size(s, "test"));
    EXPECT_TRUE(has_size(s, "study"));
    EXPECT_LE(s.min_n, s.max_n);
    ASSERT_GE(s.n_multiple, 1u);
    for (const Size& z : s.sizes) {
      EXPECT_GE(z.n, s.min_n) << z.name;
      EXPECT_LE(z.n, s.max_n) << z.name;
      EXPECT_EQ(z.n % s.n_multiple, 0u) << z.name;
    }
    EXPECT_TRUE(s.make_launch && s.check && s.expected);
    namespace fs = std::filesystem;
    fs::path dir = fs::path(WARPTLM_SOURCE_DIR) / "scenarios" / s.source_dir;
    EXPECT_TRUE(fs::exists(dir / "kernel.cu")) << dir;
    EXPECT_TRUE(fs::exists(dir / "kernel.ptx")) << dir;
  }
}

TEST(ScenarioCatalogue, FindReturnsEachByName) {
  for (const Scenario& s : all()) EXPECT_EQ(&find(s.name), &s);
}

TEST(ScenarioCatalogue, EmbeddedPtxParsesAndHoldsTheKernel) {
  for (const Scenario& s : all()) {
    SCOPED_TRACE(s.name);
    const std::string& text = scenario_ptx(s);
    ASSERT_NE(text.find(".entry " + s.entry), std::string::npos);
    Module m = parse_ptx(text, s.source_dir + "/kernel.ptx");
    const Function* f = m.find_function(s.entry);
    ASSERT_NE(f, nullptr);
    EXPECT_TRUE(f->is_entry);
    // The launch passes exactly one argument per kernel parameter.
    LaunchSpec l = s.make_launch(resolve_size(s, "test"), 1);
    EXPECT_EQ(l.args.size(), f->params.size());
  }
}

TEST(ScenarioCatalogue, CommittedPtxMatchesKernelSources) {
  std::string script = std::string(WARPTLM_SOURCE_DIR) + "/scenarios/regen_ptx.sh --check";
  int status = std::system(script.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 2) GTEST_SKIP() << "clang 14 not available";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "run scenarios/regen_ptx.sh";
}

TEST(ScenarioBadInput, UnknownScenarioListsAllNames) {
  std::string msg = invalid_argument_message([] { find("no_such_scenario"); });
  ASSERT_FALSE(msg.empty());
  EXPECT_NE(msg.find("no_such_scenario"), std::string::npos) << msg;
  for (const Scenario& s : all()) EXPECT_NE(msg.find(s.name), std::string::npos) << msg;
}

TEST(ScenarioBadInput, ResolveSizeAcceptsNamesAndNumbersInRange) {
  for (const Scenario& s : all()) {
    SCOPED_TRACE(s.name);
    for (const Size& z : s.sizes) EXPECT_EQ(resolve_size(s, z.name), z.n);
    EXPECT_EQ(resolve_size(s, std::to_string(s.min_n)), s.min_n);
    EXPECT_EQ(resolve_size(s, std::to_string(s.max_n)), s.max_n);
  }
}

TEST(ScenarioBadInput, ResolveSizeRejectsUnknownAndOutOfRange) {
  for (const Scenario& s : all()) {
    SCOPED_TRACE(s.name);
    std::vector<std::string> bad = {
        "huge", "", "-1", "12abc", std::to_string(s.max_n + 1), "123456789012345678901234567890"};
    if (s.min_n > 0) bad.push_back(std::to_string(s.min_n - 1));
    if (s.n_multiple > 1) bad.push_back(std::to_string(s.min_n + 1));
    for (const std::string& size : bad) {
      std::string msg = invalid_argument_message([&] { resolve_size(s, size); });
      ASSERT_FALSE(msg.empty()) << "accepted '" << size << "'";
      EXPECT_NE(msg.find(s.name), std::string::npos) << msg;
      EXPECT_NE(msg.find("test"), std::string::npos) << msg;
      EXPECT_NE(msg.find("study"), std::string::npos) << msg;
      EXPECT_NE(msg.find(std::to_string(s.max_n)), std::string::npos) << msg;
    }
  }
}

TEST(ScenarioBadInput, MakeLaunchRejectsSizesOutsideTheRange) {
  for (const Scenario& s : all()) {
    SCOPED_TRACE(s.name);
    std::vector<uint64_t> bad = {s.max_n + 1};
    if (s.min_n > 0) bad.push_back(s.min_n - 1);
    if (s.n_multiple > 1) bad.push_back(s.min_n + 1);
    for (uint64_t n : bad) {
      std::string msg = invalid_argument_message([&] { s.make_launch(n, 1); });
      ASSERT_FALSE(msg.empty()) << "accepted " << n;
      EXPECT_NE(msg.find(s.name), std::string::npos) << msg;
      EXPECT_NE(msg.find(std::to_string(n)), std::string::npos) << msg;
      EXPECT_NE(msg.find(std::to_string(s.max_n)), std::string::npos) << msg;
    }
  }
}

bool same_launch(const LaunchSpec& a, const LaunchSpec& b) {
  if (a.grid.count() != b.grid.count() || a.block.count() != b.block.count()) return false;
  if (a.buffers.size() != b.buffers.size() || a.args.size() != b.args.size()) return false;
  for (size_t i = 0; i < a.buffers.size(); ++i)
    if (a.buffers[i].bytes != b.buffers[i].bytes) return false;
  for (size_t i = 0; i < a.args.size(); ++i)
    if (a.args[i].bits != b.args[i].bits || a.args[i].buffer != b.args[i].buffer) return false;
  return true;
}

TEST(ScenarioInputs, SameSeedSameInputsOtherSeedOtherInputs) {
  for (const Scenario& s : all()) {
    SCOPED_TRACE(s.name);
    uint64_t n = resolve_size(s, "test");
    EXPECT_TRUE(same_launch(s.make_launch(n, 7), s.make_launch(n, 7)));
    EXPECT_FALSE(same_launch(s.make_launch(n, 7), s.make_launch(n, 8)));
  }
}

}  // namespace
}  // namespace warptlm::scenarios
