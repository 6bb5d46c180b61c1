// The write-back L1 (memory.l1.write_policy = write_back) seen end to end: a
// store hit only dirties the line, a store miss allocates (whole lines
// without a read, partial ones after fetching the line), a dirty victim is
// written to the L2, an atomic writes a dirty line back and invalidates it,
// and the launch ends only after every dirty line is flushed and answered.
#include <gtest/gtest.h>

#include <vector>

#include "behaviour_support.h"
#include "common/systemc_child.h"

namespace warptlm::behaviour {
namespace {

using testing::in_child_process;

// quiet_config() (one SM; L1 16 KB, 4 ways, 64-byte lines: 64 sets, so lines
// 4096 bytes apart share a set) with a write-back L1.
PlatformConfig write_back_config() {
  PlatformConfig c = quiet_config();
  c.memory.l1.write_policy = "write_back";
  return c;
}

LaunchSpec data_launch(uint32_t threads, size_t words) {
  LaunchSpec l = launch_of(1, threads);
  l.buffers = {u32_buffer("data", std::vector<uint32_t>(words, 3))};
  l.args = {KernelArg::buffer_arg(0)};
  return l;
}

// Load, store, load of data[tid]; each add waits for the load before it.
const char* const kStoreHit = R"(
.visible .entry store_hit(.param .u64 data)
{
  .reg .b32 %r<5>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd0, [data];
  mov.u32 %r0, %tid.x;
  mul.wide.u32 %rd1, %r0, 4;
  add.s64 %rd2, %rd0, %rd1;
  ld.global.u32 %r1, [%rd2];
  add.u32 %r2, %r1, 1;
  st.global.u32 [%rd2], %r2;
  ld.global.u32 %r3, [%rd2];
  add.u32 %r4, %r3, 1;
  exit;
}
)";

TEST(L1WriteBack, AStoreHitAndTheLoadAfterItSendNothing) {
  in_child_process([] {
    Result r = run(kStoreHit, "store_hit", data_launch(32, 32), write_back_config());
    // 32 lanes x 4 bytes = 2 lines. The first load misses both; the store
    // hits both (dirtying them) and the second load hits both.
    EXPECT_EQ(stat(r, "sm.l1_misses"), 2u);
    EXPECT_EQ(stat(r, "sm.l1_hits"), 4u);
    // What leaves the SM: the 2 fills, then at the end the flush of the 2
    // dirty lines; the store and the second load send nothing.
    EXPECT_EQ(stat(r, "interconnect.requests"), 4u);
    EXPECT_EQ(stat(r, "l2.reads"), 2u);
    EXPECT_EQ(stat(r, "l2.writes"), 2u);
    EXPECT_EQ(stat(r, "sm.l1_writebacks"), 2u);
    EXPECT_EQ(stat(r, "sm.l1_flush_writebacks"), 2u);
    // Issue order: ld.param, mov, mul, add, ld, add, st, ld, add, exit. The
    // second load issues the cycle after the store (LD/ST interval 1) and its
    // value is ready one L1 hit (20 cycles) later.
    const std::vector<uint64_t> t = issue_cycles(r, 0);
    ASSERT_EQ(t.size(), 10u);
    EXPECT_EQ(t[7] - t[6], 1u);
    EXPECT_EQ(t[8] - t[7], 20u);
  });
}

TEST(L1WriteBack, WriteThroughSendsTheStoreInstead) {
  in_child_process([] {
    Result r = run(kStoreHit, "store_hit", data_launch(32, 32), quiet_config());
    // The same kernel under write_through: the store hits without counting
    // and sends its 2 lines at once; nothing is flushed.
    EXPECT_EQ(stat(r, "sm.l1_misses"), 2u);
    EXPECT_EQ(stat(r, "sm.l1_hits"), 2u);
    EXPECT_EQ(stat(r, "interconnect.requests"), 4u);
    EXPECT_EQ(stat(r, "l2.writes"), 2u);
    EXPECT_EQ(stat(r, "sm.l1_writebacks"), 0u);
    EXPECT_EQ(stat(r, "sm.l1_flush_cycles"), 0u);
  });
}

// One warp stores data[tid + 1024 k] for k = 0..4: each store covers two
// whole lines (128 aligned bytes), 4096 bytes apart per k, so the k-th
// store's lines go to sets 0 and 1 of every k: five lines per set, one more
// than the ways.
const char* const kConflict = R"(
.visible .entry conflict(.param .u64 data)
{
  .reg .b32 %r<1>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd0, [data];
  mov.u32 %r0, %tid.x;
  mul.wide.u32 %rd1, %r0, 4;
  add.s64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r0;
  st.global.u32 [%rd2+4096], %r0;
  st.global.u32 [%rd2+8192], %r0;
  st.global.u32 [%rd2+12288], %r0;
  st.global.u32 [%rd2+16384], %r0;
  exit;
}
)";

TEST(L1WriteBack, FullLineStoresAllocateWithoutReadsAndEvictDirtyLines) {
  in_child_process([] {
    Result r = run(kConflict, "conflict", data_launch(32, 5 * 1024), write_back_config());
    // 10 line misses, none read: each store writes every byte of its lines.
    EXPECT_EQ(stat(r, "sm.l1_misses"), 10u);
    EXPECT_EQ(stat(r, "sm.l1_hits"), 0u);
    EXPECT_EQ(stat(r, "l2.reads"), 0u);
    // The fifth store evicts the LRU way of sets 0 and 1 (k = 0's lines,
    // dirty): 2 eviction writes. The flush writes the other 8 dirty lines.
    EXPECT_EQ(stat(r, "sm.l1_writebacks"), 10u);
    EXPECT_EQ(stat(r, "sm.l1_flush_writebacks"), 8u);
    EXPECT_EQ(stat(r, "l2.writes"), 10u);
    EXPECT_EQ(stat(r, "interconnect.requests"), 10u);
  });
}

TEST(L1WriteBack, PartialStoreMissesFetchTheLineFirst) {
  in_child_process([] {
    // One thread: each store writes 4 bytes of a line, so each of the 5
    // misses reads its line through an MSHR (all five in set 0), and the
    // fill of the fifth evicts the LRU one, dirty: 1 eviction write.
    Result r = run(kConflict, "conflict", data_launch(1, 5 * 1024), write_back_config());
    EXPECT_EQ(stat(r, "sm.l1_misses"), 5u);
    EXPECT_EQ(stat(r, "l2.reads"), 5u);
    EXPECT_EQ(stat(r, "sm.l1_writebacks"), 5u);
    EXPECT_EQ(stat(r, "sm.l1_flush_writebacks"), 4u);
    EXPECT_EQ(stat(r, "l2.writes"), 5u);
    EXPECT_EQ(stat(r, "interconnect.requests"), 10u);
  });
}

// A whole-line store (2 lines, dirty without a read), an atomic on the same
// words, then a load of them.
const char* const kAtomicOnDirty = R"(
.visible .entry atomic_dirty(.param .u64 data)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd0, [data];
  mov.u32 %r0, %tid.x;
  mul.wide.u32 %rd1, %r0, 4;
  add.s64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r0;
  atom.global.add.u32 %r1, [%rd2], 1;
  add.u32 %r2, %r1, 1;
  ld.global.u32 %r3, [%rd2];
  exit;
}
)";

TEST(L1WriteBack, AnAtomicWritesTheDirtyLineBackAndInvalidatesIt) {
  in_child_process([] {
    Result r = run(kAtomicOnDirty, "atomic_dirty", data_launch(32, 32), write_back_config());
    // The store allocates both lines dirty (2 misses, no read). The atomic
    // writes each back before it goes to the L2 and invalidates it, so the
    // load misses both again and the flush finds nothing dirty.
    EXPECT_EQ(stat(r, "sm.l1_misses"), 4u);
    EXPECT_EQ(stat(r, "sm.l1_writebacks"), 2u);
    EXPECT_EQ(stat(r, "sm.l1_flush_writebacks"), 0u);
    EXPECT_EQ(stat(r, "sm.l1_flush_cycles"), 0u);
    EXPECT_EQ(stat(r, "l2.writes"), 2u);
    EXPECT_EQ(stat(r, "l2.atomics"), 2u);
    EXPECT_EQ(stat(r, "l2.reads"), 2u);
    // 2 write-backs + 2 atomics + 2 load misses.
    EXPECT_EQ(stat(r, "interconnect.requests"), 6u);
  });
}

// One thread stores one word: one dirty line when the CTA retires.
const char* const kOneStore = R"(
.visible .entry one_store(.param .u64 data)
{
  .reg .b32 %r<1>;
  .reg .b64 %rd<1>;
  ld.param.u64 %rd0, [data];
  mov.u32 %r0, %tid.x;
  st.global.u32 [%rd0], %r0;
  exit;
}
)";

// The launch ends in the cycle its last CTA retires: the SM counts that
// cycle (sm.cycles runs from the CTA's first cycle through its last), the
// launch does not, so cycles = sm.cycles - 1 when nothing is flushed.
TEST(L1WriteBack, WithoutAFlushTheLaunchEndsAsItsLastCtaRetires) {
  in_child_process([] {
    Result r = run(kOneStore, "one_store", data_launch(1, 16), quiet_config());
    EXPECT_EQ(stat(r, "sm.l1_flush_cycles"), 0u);
    EXPECT_EQ(stat(r, "cycles"), stat(r, "sm.cycles") - 1);
  });
}

TEST(L1WriteBack, TheLaunchEndsWhenTheFlushIsAnswered) {
  in_child_process([] {
    Result r = run(kOneStore, "one_store", data_launch(1, 16), write_back_config());
    // The 4-byte store fetches its line (an L2 miss, so the L2 holds it
    // afterwards) and dirties it. The flush write leaves when the CTA
    // retires: 8 cycles through the interconnect, an L2 write hit answered
    // after the L2 latency (100), 8 cycles back: 116 cycles, which the
    // launch takes on top of the SM's last cycle.
    EXPECT_EQ(stat(r, "sm.l1_flush_writebacks"), 1u);
    EXPECT_EQ(stat(r, "l2.hits"), 1u);
    EXPECT_EQ(stat(r, "sm.l1_flush_cycles"), 116u);
    EXPECT_EQ(stat(r, "cycles"), stat(r, "sm.cycles") - 1 + 116);
  });
}

// Two CTAs, one per SM (small preset: 2 SMs), each storing a whole line of
// its own: each SM flushes its line, and the launch waits for both.
const char* const kLinePerCta = R"(
.visible .entry line_per_cta(.param .u64 data)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd0, [data];
  mov.u32 %r0, %tid.x;
  mov.u32 %r1, %ctaid.x;
  mad.lo.s32 %r2, %r1, 16, %r0;
  mul.wide.u32 %rd1, %r2, 4;
  add.s64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r2;
  exit;
}
)";

TEST(L1WriteBack, EverySmFlushesItsOwnLines) {
  in_child_process([] {
    PlatformConfig c = write_back_config();
    c.num_sms = 2;
    LaunchSpec l = launch_of(2, 16);  // 16 threads x 4 bytes = one 64-byte line per CTA
    l.buffers = {u32_buffer("data", std::vector<uint32_t>(32, 0))};
    l.args = {KernelArg::buffer_arg(0)};
    Result r = run(kLinePerCta, "line_per_cta", l, c);
    EXPECT_EQ(stat(r, "sm0.l1_flush_writebacks"), 1u);
    EXPECT_EQ(stat(r, "sm1.l1_flush_writebacks"), 1u);
    EXPECT_EQ(stat(r, "sm.l1_writebacks"), 2u);
    // Whole-line stores: no reads anywhere; the L2 sees the 2 flush writes.
    EXPECT_EQ(stat(r, "l2.reads"), 0u);
    EXPECT_EQ(stat(r, "l2.writes"), 2u);
  });
}

}  // namespace
}  // namespace warptlm::behaviour
