// The compaction units behind compaction=tbc|capri|ideal: each forms the warps
// the SLP paper's NW functions count, CAPRI decides per branch from its table
// and learns bypassed branches, and the registry lists, makes and refuses by
// name.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>

#include "compaction/compaction_unit.h"
#include "compaction/lane_permutation.h"
#include "compaction/warp_formation.h"
#include "permutation_test_util.h"

namespace warptlm {
namespace {

using testing::mask_of;

CompactionSetup setup(const std::string& permutation = "none", unsigned warp_size = 4) {
  CompactionSetup s;
  s.warp_size = warp_size;
  s.permutation = permutation;
  return s;
}

// Every active thread in exactly one formed warp, at a lane nobody else there holds.
void expect_partition(const CtaMask& mask, unsigned warp_size, const std::vector<FormedWarp>& out) {
  std::vector<int> seen(mask.size() * warp_size, 0);
  for (const FormedWarp& fw : out) {
    ASSERT_EQ(fw.lane_thread.size(), warp_size);
    unsigned threads = 0;
    for (int32_t t : fw.lane_thread) {
      if (t < 0) continue;
      ++seen[static_cast<size_t>(t)];
      ++threads;
    }
    EXPECT_EQ(threads, fw.threads);
  }
  for (size_t t = 0; t < seen.size(); ++t)
    EXPECT_EQ(seen[t], (mask[t / warp_size] >> (t % warp_size)) & 1) << "thread " << t;
}

TEST(CompactionUnits, BuiltInsAreRegisteredInOrderWithDescriptions) {
  const std::vector<std::string> names = compaction_unit_names();
  ASSERT_GE(names.size(), 3u);
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 3),
            (std::vector<std::string>{"tbc", "capri", "ideal"}));
  for (const auto& [name, description] : compaction_unit_descriptions())
    EXPECT_FALSE(description.empty()) << name;
  EXPECT_EQ(make_compaction_unit("none", setup()), nullptr);
}

TEST(CompactionUnits, TbcAndIdealFormWhatTheNwFunctionsCount) {
  std::mt19937 rng(7);
  for (const char* permutation : {"none", "balanced", "random"}) {
    const auto perm = make_lane_permutation(permutation, 8, 1);
    const auto tbc = make_compaction_unit("tbc", setup(permutation, 8));
    const auto ideal = make_compaction_unit("ideal", setup(permutation, 8));
    ASSERT_TRUE(tbc && ideal);
    EXPECT_FALSE(tbc->selective());
    EXPECT_FALSE(ideal->selective());
    for (int trial = 0; trial < 200; ++trial) {
      CtaMask mask(1 + rng() % 8);
      for (LaneMask& m : mask) m = rng() & 0xFF;
      std::vector<FormedWarp> out, expected;
      EXPECT_EQ(tbc->count_warps(mask), nw_tbc(mask, *perm));
      tbc->form_warps(mask, out);
      form_warps_tbc(mask, *perm, expected);
      ASSERT_EQ(out.size(), expected.size());
      for (size_t k = 0; k < out.size(); ++k)
        EXPECT_EQ(out[k].lane_thread, expected[k].lane_thread);
      expect_partition(mask, 8, out);
      EXPECT_EQ(ideal->count_warps(mask), nw_ideal(mask, 8));
      ideal->form_warps(mask, out);
      EXPECT_EQ(out.size(), nw_ideal(mask, 8));
      expect_partition(mask, 8, out);
    }
  }
}

TEST(CompactionUnits, CapriCompactsWhatItsTableLearntWorthIt) {
  CompactionSetup s = setup();
  s.options =
      compaction_unit_options("capri", {{"capri.history_bits", 1}});  // the last outcome decides
  const auto capri = make_compaction_unit("capri", s);
  ASSERT_TRUE(capri && capri->selective());
  // Compactable: each side's two warps fit one (SLP Figure 5 (c)).
  const CtaMask fits_a = mask_of({"01--", "--67"}), fits_b = mask_of({"--23", "45--"});
  // Not compactable: each side's threads share home lanes.
  const CtaMask clash_a = mask_of({"01--", "01--"}), clash_b = mask_of({"--23", "--23"});
  CompactionDecisions d;
  const Pc pc = 0x40;
  // An unknown branch is predicted adequate (compacts), and its outcome learnt.
  EXPECT_TRUE(capri->may_compact(pc));
  EXPECT_TRUE(capri->compact_paths(pc, clash_a, clash_b, d));
  EXPECT_EQ(d.predictions, 1u);
  EXPECT_EQ(d.compactions, 1u);
  EXPECT_EQ(d.mispredictions, 1u);
  // Learnt inadequate: it neither compacts nor lets the set wait for it.
  EXPECT_FALSE(capri->may_compact(pc));
  EXPECT_FALSE(capri->may_compact(pc));  // asking changes nothing
  EXPECT_FALSE(capri->compact_paths(pc, fits_a, fits_b, d));
  EXPECT_EQ(d.mispredictions, 2u);
  // A bypassed instance is learnt as an inadequate prediction.
  capri->learn_bypassed(pc, fits_a, fits_b, d);
  EXPECT_EQ(d.predictions, 3u);
  EXPECT_EQ(d.compactions, 1u);
  EXPECT_EQ(d.mispredictions, 3u);
  EXPECT_TRUE(capri->may_compact(pc));
  EXPECT_TRUE(capri->compact_paths(pc, fits_a, fits_b, d));
  EXPECT_EQ(d.mispredictions, 3u);
  // Formation is TBC's.
  EXPECT_EQ(capri->count_warps(mask_of({"01--", "--67"})), 1u);
}

TEST(CompactionUnits, BadNamesAndSetupsAreErrorsNamingTheField) {
  try {
    make_compaction_unit("warp_split", setup());
    FAIL();
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("compaction: unknown compaction unit 'warp_split'"), std::string::npos)
        << what;
    EXPECT_NE(what.find("capri"), std::string::npos) << what;
  }
  EXPECT_THROW(make_compaction_unit("tbc", setup("nope")), std::invalid_argument);
  try {
    compaction_unit_options("capri", {{"capri.entries", 3}});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("capri.entries"), std::string::npos) << e.what();
  }
}

std::unique_ptr<CompactionUnit> make_test_ideal(const CompactionSetup& s) {
  return make_compaction_unit("ideal", s);
}

TEST(CompactionUnits, RegistrationRefusesNoneDuplicatesAndNull) {
  EXPECT_THROW(register_compaction_unit("none", &make_test_ideal), std::invalid_argument);
  EXPECT_THROW(register_compaction_unit("tbc", &make_test_ideal), std::invalid_argument);
  EXPECT_THROW(register_compaction_unit("", &make_test_ideal), std::invalid_argument);
  EXPECT_THROW(register_compaction_unit("null_unit", nullptr), std::invalid_argument);
  register_compaction_unit("ideal_again", &make_test_ideal, "ideal under another name");
  const std::vector<std::string> names = compaction_unit_names();
  EXPECT_EQ(names.back(), "ideal_again");
  EXPECT_THROW(register_compaction_unit("ideal_again", &make_test_ideal), std::invalid_argument);
  EXPECT_EQ(make_compaction_unit("ideal_again", setup())->count_warps(mask_of({"0---", "-5--"})),
            1u);
}

}  // namespace
}  // namespace warptlm
