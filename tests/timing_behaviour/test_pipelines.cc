// Execution units and instruction fetch seen end to end, one warp on one
// scheduler: a SIMD narrower than the warp takes several passes, the SFU
// accepts a warp every `interval` cycles, and a kernel longer than an
// instruction-cache line misses again where it crosses into the next line.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "behaviour_support.h"
#include "common/systemc_child.h"

namespace warptlm::behaviour {
namespace {

using testing::in_child_process;

// mov r0; add r1 = r0 + 1; two independent moves; exit.
const char* const kPasses = R"(
.visible .entry passes()
{
  .reg .b32 %r<4>;
  mov.u32 %r0, 1;
  add.u32 %r1, %r0, 1;
  mov.u32 %r2, 2;
  mov.u32 %r3, 3;
  exit;
}
)";

TEST(Pipelines, ANarrowSimdTakesSeveralPassesPerWarp) {
  in_child_process([] {
    PlatformConfig c = quiet_config();
    c.simd_width = 16;                  // warp 32: 2 passes
    c.sm.sp = PipelineConfig{1, 4, 1};  // one SP unit
    Result r = run(kPasses, "passes", launch_of(1, 32), c);
    // The unit is busy max(interval, passes) = 2 cycles per warp, and a
    // result is written latency + passes - 1 = 5 cycles after issue. mov at
    // 0 (r0 at 5); add at 5 (r1 at 10); movs at 7, 9; exit (SP) at 11.
    EXPECT_EQ(relative_issue_cycles(r, 0), (std::vector<uint64_t>{0, 5, 7, 9, 11}));
    // Cycles 1..4 wait for r0; 6, 8, 10 for the unit.
    EXPECT_EQ(stat(r, "sm.slot_scoreboard"), 4u);
    EXPECT_EQ(stat(r, "sm.slot_pipeline"), 3u);
  });
}

// mov f0; three SFU operations reading f0; exit.
const char* const kSfu = R"(
.visible .entry sfu()
{
  .reg .f32 %f<4>;
  mov.f32 %f0, 0f3F800000;
  sin.approx.f32 %f1, %f0;
  cos.approx.f32 %f2, %f0;
  ex2.approx.f32 %f3, %f0;
  exit;
}
)";

TEST(Pipelines, TheSfuAcceptsAWarpEveryInterval) {
  in_child_process([] {
    PlatformConfig c = quiet_config();
    c.sm.sfu = PipelineConfig{1, 20, 8};
    Result r = run(kSfu, "sfu", launch_of(1, 32), c);
    // mov at 0 (f0 at 4); sin at 4, cos at 12, ex2 at 20 (one unit, a warp
    // every 8 cycles); exit (SP) at 21. The last result is written at
    // 20 + 20 = 40.
    EXPECT_EQ(relative_issue_cycles(r, 0), (std::vector<uint64_t>{0, 4, 12, 20, 21}));
    EXPECT_EQ(stat(r, "sm.slot_scoreboard"), 3u);       // cycles 1..3
    EXPECT_EQ(stat(r, "sm.slot_pipeline"), 14u);        // 5..11 and 13..19
    EXPECT_EQ(stat(r, "sm.cycles"), kFetchMiss + 41u);  // through cycle 40
  });
  in_child_process([] {
    PlatformConfig c = quiet_config();
    c.sm.sfu = PipelineConfig{2, 20, 8};
    Result r = run(kSfu, "sfu", launch_of(1, 32), c);
    // Two SFUs: sin at 4, cos at 5 (the second unit), ex2 at 12 (the first
    // unit again), exit at 13.
    EXPECT_EQ(relative_issue_cycles(r, 0), (std::vector<uint64_t>{0, 4, 5, 12, 13}));
  });
}

// 20 independent moves and an exit: 21 instructions, 168 bytes of code.
std::string long_kernel() {
  std::string body = "\n.visible .entry longer()\n{\n  .reg .b32 %r<20>;\n";
  for (int i = 0; i < 20; ++i)
    body += "  mov.u32 %r" + std::to_string(i) + ", " + std::to_string(i) + ";\n";
  return body + "  exit;\n}\n";
}

TEST(Pipelines, CrossingAnInstructionCacheLineMissesAgain) {
  in_child_process([] {
    PlatformConfig c = quiet_config();
    c.sm.icache_size = 1024;
    c.sm.icache_assoc = 2;
    c.sm.icache_line = 128;  // 16 instructions a line
    Result r = run(long_kernel(), "longer", launch_of(1, 32), c);
    // Instructions 0..15 issue at 0..15 after the first miss; instruction
    // 16 (pc 128) misses at 16 and issues kFetchMiss later; the rest follow.
    std::vector<uint64_t> expected;
    for (uint64_t i = 0; i < 16; ++i) expected.push_back(i);
    for (uint64_t i = 0; i < 5; ++i) expected.push_back(16 + kFetchMiss + i);
    EXPECT_EQ(relative_issue_cycles(r, 0), expected);
    // One fetch per instruction: 2 misses, 19 hits.
    EXPECT_EQ(stat(r, "sm.icache_misses"), 2u);
    EXPECT_EQ(stat(r, "sm.icache_hits"), 19u);
  });
}

}  // namespace
}  // namespace warptlm::behaviour
