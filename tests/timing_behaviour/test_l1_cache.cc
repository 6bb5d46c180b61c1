// The L1 data cache seen end to end: a load of lines already filled hits and
// completes after memory.l1.latency; two warps missing on the same lines
// share the MSHR entries, so only one request per line leaves the SM.
#include <gtest/gtest.h>

#include <vector>

#include "behaviour_support.h"
#include "common/systemc_child.h"

namespace warptlm::behaviour {
namespace {

using testing::in_child_process;

// Loads data[tid % 32] twice; the add between waits for the first load, so
// the second load issues after the lines are filled.
const char* const kReload = R"(
.visible .entry reload(.param .u64 data)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd0, [data];
  mov.u32 %r0, %tid.x;
  and.b32 %r5, %r0, 31;
  mul.wide.u32 %rd1, %r5, 4;
  add.s64 %rd2, %rd0, %rd1;
  ld.global.u32 %r1, [%rd2];
  add.u32 %r2, %r1, 1;
  ld.global.u32 %r3, [%rd2];
  add.u32 %r4, %r3, 1;
  exit;
}
)";

LaunchSpec reload_launch(uint32_t threads) {
  LaunchSpec l = launch_of(1, threads);
  l.buffers = {u32_buffer("data", std::vector<uint32_t>(32, 3))};
  l.args = {KernelArg::buffer_arg(0)};
  return l;
}

TEST(L1Cache, ASecondLoadOfTheSameLinesHits) {
  in_child_process([] {
    PlatformConfig c = quiet_config();
    c.memory.l1.latency = 20;
    Result r = run(kReload, "reload", reload_launch(32), c);
    // 128 bytes = 2 lines: the first load misses both, the second hits both.
    EXPECT_EQ(stat(r, "sm.l1_misses"), 2u);
    EXPECT_EQ(stat(r, "sm.l1_hits"), 2u);
    EXPECT_EQ(stat(r, "sm.l1_mshr_merges"), 0u);
    EXPECT_EQ(stat(r, "sm.memory_transactions"), 4u);
    // Only the misses leave the SM.
    EXPECT_EQ(stat(r, "interconnect.requests"), 2u);
    EXPECT_EQ(stat(r, "l2.reads"), 2u);
    // Issue order: ld.param, mov, and, mul, add, ld, add, ld, add, exit. The
    // hitting load (index 7) issues the cycle after the add that waited for
    // the first load (index 6), and its value is ready after the L1 latency
    // (20 > the LD/ST unit's 2): the next add issues exactly 20 cycles later.
    const std::vector<uint64_t> t = issue_cycles(r, 0);
    ASSERT_EQ(t.size(), 10u);
    EXPECT_EQ(t[7] - t[6], 1u);
    EXPECT_EQ(t[8] - t[7], 20u);
    // The miss costs more than a hit: the round trip through the
    // interconnect (8 cycles each way) and the L2 comes on top of the
    // L1 latency the writeback adds after the fill.
    EXPECT_GT(t[6] - t[5], 20u + 16u);
  });
}

TEST(L1Cache, TwoWarpsMissingOnTheSameLinesMerge) {
  in_child_process([] {
    PlatformConfig c = quiet_config();
    Result r = run(kReload, "reload", reload_launch(64), c);
    // Both warps read data[0..31]. LRR alternates them, so warp 1's first
    // load issues one cycle after warp 0's, while warp 0's two misses are
    // outstanding: 4 misses, 2 of them merged. The second loads all hit.
    EXPECT_EQ(warp_sequence(r).size(), 20u);
    EXPECT_EQ(stat(r, "sm.l1_misses"), 4u);
    EXPECT_EQ(stat(r, "sm.l1_mshr_merges"), 2u);
    EXPECT_EQ(stat(r, "sm.l1_hits"), 4u);
    EXPECT_EQ(stat(r, "sm.memory_transactions"), 8u);
    EXPECT_EQ(stat(r, "interconnect.requests"), 2u);
    EXPECT_EQ(stat(r, "l2.reads"), 2u);
    const std::vector<uint64_t> w0 = issue_cycles(r, 0), w1 = issue_cycles(r, 1);
    EXPECT_EQ(w1[5] - w0[5], 1u);
    // The merged load completes with the fill: both adds that wait for the
    // first loads issue on consecutive cycles.
    EXPECT_EQ(w1[6] - w0[6], 1u);
  });
}

TEST(L1Cache, WithoutAnL1EveryLoadGoesOut) {
  in_child_process([] {
    PlatformConfig c = quiet_config();
    c.memory.l1.size = 0;
    Result r = run(kReload, "reload", reload_launch(32), c);
    // No tags: 4 transactions, 4 requests; misses still share MSHRs, but the
    // second load issues after the first completed, so nothing merges.
    EXPECT_EQ(stat(r, "sm.l1_hits"), 0u);
    EXPECT_EQ(stat(r, "sm.l1_misses"), 4u);
    EXPECT_EQ(stat(r, "sm.l1_mshr_merges"), 0u);
    EXPECT_EQ(stat(r, "interconnect.requests"), 4u);
  });
}

// Store (miss), load, store (hit), load, atomic, load, each on the same two
// lines; every instruction that needs the one before waits for it.
const char* const kWriteThrough = R"(
.visible .entry wt(.param .u64 data)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd0, [data];
  mov.u32 %r0, %tid.x;
  mul.wide.u32 %rd1, %r0, 4;
  add.s64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r0;
  ld.global.u32 %r1, [%rd2];
  add.u32 %r2, %r1, 1;
  st.global.u32 [%rd2], %r2;
  ld.global.u32 %r3, [%rd2];
  add.u32 %r4, %r3, 1;
  atom.global.add.u32 %r5, [%rd2], 1;
  add.u32 %r6, %r5, 1;
  ld.global.u32 %r7, [%rd2];
  exit;
}
)";

TEST(L1Cache, StoresDoNotAllocateAndAtomicsInvalidate) {
  in_child_process([] {
    Result r = run(kWriteThrough, "wt", reload_launch(32), quiet_config());
    // The first store misses without allocating, so the first load misses
    // (2 lines); the second store hits and keeps the lines, so the second
    // load hits; the atomic invalidates them, so the third load misses.
    EXPECT_EQ(stat(r, "sm.l1_misses"), 4u);
    EXPECT_EQ(stat(r, "sm.l1_hits"), 2u);
    // Six global instructions of 2 lines each.
    EXPECT_EQ(stat(r, "sm.memory_instructions"), 6u);
    EXPECT_EQ(stat(r, "sm.memory_transactions"), 12u);
    // Everything but the hitting load leaves the SM: 2 x (2 stores + 2
    // missing loads + 1 atomic). The L2 sees them by kind.
    EXPECT_EQ(stat(r, "interconnect.requests"), 10u);
    EXPECT_EQ(stat(r, "l2.reads"), 4u);
    EXPECT_EQ(stat(r, "l2.writes"), 4u);
    EXPECT_EQ(stat(r, "l2.atomics"), 2u);
  });
}

// Two loads of 4 lines each (8-byte stride over 32 lanes: 256 bytes) from
// buffers a and b, an add that needs both, and a third load of a's lines.
const char* const kFourLines = R"(
.visible .entry four(.param .u64 a, .param .u64 b)
{
  .reg .b32 %r<5>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd0, [a];
  ld.param.u64 %rd1, [b];
  mov.u32 %r0, %tid.x;
  mul.wide.u32 %rd2, %r0, 8;
  add.s64 %rd3, %rd0, %rd2;
  add.s64 %rd4, %rd1, %rd2;
  ld.global.u32 %r1, [%rd3];
  ld.global.u32 %r2, [%rd4];
  add.u32 %r3, %r1, %r2;
  ld.global.u32 %r4, [%rd3];
  exit;
}
)";

TEST(L1Cache, FullMshrsStallTheNextLoadAndSendMissesUncached) {
  in_child_process([] {
    PlatformConfig c = quiet_config();
    c.memory.l1.mshrs = 2;
    LaunchSpec l = launch_of(1, 32);
    l.buffers = {u32_buffer("a", std::vector<uint32_t>(64, 1)),
                 u32_buffer("b", std::vector<uint32_t>(64, 2))};
    l.args = {KernelArg::buffer_arg(0), KernelArg::buffer_arg(1)};
    Result r = run(kFourLines, "four", l, c);
    // a's load takes both MSHRs for its first two lines and sends the other
    // two uncached. b's load then waits, with every MSHR busy, until a fill
    // frees one: each cycle between the two loads is a memory stall (one
    // warp, nothing else to issue).
    const std::vector<uint64_t> t = issue_cycles(r, 0);
    ASSERT_EQ(t.size(), 11u);  // a's load is instruction 6, b's 7
    EXPECT_GT(t[7] - t[6], 1u);
    EXPECT_EQ(stat(r, "sm.slot_memory"), t[7] - t[6] - 1);
    // The third load finds a's two MSHR lines filled (hits) and the two
    // uncached ones absent (misses): misses 4 (a) + 4 (b) + 2, hits 2.
    EXPECT_EQ(stat(r, "sm.l1_misses"), 10u);
    EXPECT_EQ(stat(r, "sm.l1_hits"), 2u);
    EXPECT_EQ(stat(r, "interconnect.requests"), 10u);
  });
}

}  // namespace
}  // namespace warptlm::behaviour
