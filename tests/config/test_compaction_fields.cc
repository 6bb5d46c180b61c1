// The platform configuration's compaction fields: their allowed values are
// the executor's compaction schemes and the registered lane permutations,
// they reach the functional executor's configuration with the seed, and a
// compaction that cannot work with the reconvergence scheme is rejected.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compaction/lane_permutation.h"
#include "config/platform_config.h"
#include "config/scheme_names.h"

namespace warptlm {
namespace {

TEST(CompactionFields, AllowedValuesAreTheSchemesAndPermutations) {
  EXPECT_EQ(config_field("compaction").allowed(),
            (std::vector<std::string>{"none", "tbc", "capri", "ideal"}));
  EXPECT_EQ(config_field("permutation").allowed(), lane_permutation_names());
  EXPECT_EQ(compaction_names(), compaction_scheme_names());
}

TEST(CompactionFields, ReachTheExecutorConfiguration) {
  PlatformConfig c = preset("small");
  set_field(c, "compaction", "tbc");
  set_field(c, "permutation", "balanced");
  set_field(c, "seed", 7);
  ExecConfig e = c.exec_config();
  EXPECT_EQ(e.compaction, "tbc");
  EXPECT_EQ(e.permutation, "balanced");
  EXPECT_EQ(e.seed, 7u);
  EXPECT_NO_THROW(validate(c));
}

TEST(CompactionFields, CompactionNeedsTheIpdomStack) {
  PlatformConfig c = preset("fermi");
  set_field(c, "compaction", "ideal");
  set_field(c, "reconvergence", "mp_ipdom");
  try {
    validate(c);
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "compaction 'ideal' uses the IPDOM reconvergence point: it works with "
              "reconvergence=ipdom only, got 'mp_ipdom'");
  }
  // A permutation alone is no error.
  PlatformConfig p = preset("fermi");
  set_field(p, "permutation", "rev_wid");
  set_field(p, "reconvergence", "dual_path");
  EXPECT_NO_THROW(validate(p));
}

}  // namespace
}  // namespace warptlm
