// Compaction "capri" in the functional executor: CAPRI's table decides per
// divergent branch whether the CTA's warps compact, and learns from what
// compaction would have given (docs/compaction.md, "CAPRI").
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "exec_test_util.h"

namespace warptlm {
namespace {

using testing::i32_values;
using testing::one_buffer;
using testing::run;

// kCapriMixed (exec_test_util.h): 12 instructions up to the branch, 1 on the
// taken side (A), 2 on the other, 5 from J: 17 with all 32 threads.
using testing::kCapriMixed;

RunStats run_mixed(const std::string& compaction, unsigned history_bits = 2) {
  ExecConfig c;
  c.warp_size = 8;  // 4 warps per CTA
  c.compaction = compaction;
  c.permutation = "balanced";
  c.options["capri.history_bits"] = history_bits;
  auto r = run(kCapriMixed, "mixed", one_buffer(3, 32, std::vector<int32_t>(96, 0)), c);
  std::vector<int32_t> expected;
  for (int cta = 0; cta < 3; ++cta)
    for (int t = 0; t < 32; ++t) expected.push_back((cta == 0 ? t < 16 : t % 2 == 0) ? 2 : 1);
  EXPECT_EQ(i32_values(r.launch.buffers[0]), expected);
  return r.stats;
}

// Per CTA: 17 instructions x 4 warps = 68, plus the two sides.
// CTA 0 (low half): sides are warps 0-1 and 2-3, NW_NoTBC 2 + 2; balanced
//   leaves two threads per home lane on each side, NW_TBC 2 + 2: compaction
//   is not adequate. 68 + 1 x 2 + 2 x 2 = 74 compacted or not.
// CTAs 1, 2 (even threads): NW_NoTBC 4 + 4, NW_TBC 2 + 2 (balanced moves
//   warps 1 and 2 to the odd lanes): adequate. 68 + 2 + 4 = 74 compacted,
//   68 + 4 + 8 = 80 not.
TEST(CapriExec, TheTableLearnsPerBranchAcrossCtas) {
  // CTA 0: no entry, predicted adequate (compacts; wrong: allocated at
  // counter 1). CTA 1: 1 < 2, not compacted (wrong: adequate, counter 2).
  // CTA 2: compacted (right). 74 + 80 + 74.
  RunStats capri = run_mixed("capri");
  EXPECT_EQ(capri.warp_instructions, 228u);
  EXPECT_EQ(capri.thread_instructions, 3u * (17 * 32 + 3 * 16));
  EXPECT_EQ(capri.capri_predictions, 3u);
  EXPECT_EQ(capri.capri_compactions, 2u);
  EXPECT_EQ(capri.capri_mispredictions, 2u);
  // TBC compacts every divergent branch: 74 x 3; none: 74 + 80 + 80.
  EXPECT_EQ(run_mixed("tbc").warp_instructions, 222u);
  EXPECT_EQ(run_mixed("none").warp_instructions, 234u);
  EXPECT_EQ(run_mixed("tbc").capri_predictions, 0u);
  // One history bit follows the last outcome: the same decisions here.
  RunStats one_bit = run_mixed("capri", 1);
  EXPECT_EQ(one_bit.warp_instructions, 228u);
  EXPECT_EQ(one_bit.capri_mispredictions, 2u);
}

}  // namespace
}  // namespace warptlm
