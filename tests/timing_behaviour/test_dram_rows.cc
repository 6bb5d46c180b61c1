// DRAM row-buffer behaviour seen end to end. One channel, two banks, 1 KB
// rows of 64-byte lines (16 lines a row): line n is in bank (n / 16) % 2,
// row n / 32. The kernel rounds its buffer's address up to a multiple of
// 2 KB (row 0 of bank 0 of some row pair, wherever the buffer was allocated)
// and each lane of one warp loads one line from there, so each load is one
// DRAM read of its own line. Rows stay open: a line in an open row is a hit,
// the first access to a bank a miss (no row open), and a line in another row
// of a bank with an open row a conflict.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "behaviour_support.h"
#include "common/systemc_child.h"

namespace warptlm::behaviour {
namespace {

using testing::in_child_process;

// Lane l loads word l * stride from data rounded up to 2 KB.
const char* const kStrided = R"(
.visible .entry strided(.param .u64 data, .param .u32 stride)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd0, [data];
  add.s64 %rd0, %rd0, 2047;
  and.b64 %rd0, %rd0, -2048;
  ld.param.u32 %r0, [stride];
  mov.u32 %r1, %tid.x;
  mul.lo.u32 %r2, %r1, %r0;
  mul.wide.u32 %rd1, %r2, 4;
  add.s64 %rd2, %rd0, %rd1;
  ld.global.u32 %r3, [%rd2];
  exit;
}
)";

PlatformConfig dram_config(uint64_t l2_size) {
  PlatformConfig c = quiet_config();
  c.memory.l1.line = 64;
  c.memory.l2.line = 64;
  c.memory.l2.size = l2_size;  // 0: every L1 miss goes to DRAM as it is
  c.memory.dram.channels = 1;
  c.memory.dram.banks = 2;
  c.memory.dram.row_size = 1024;
  c.memory.dram.scheduler = "frfcfs";
  return c;
}

Result run_strided(uint32_t threads, uint32_t stride_words, const PlatformConfig& c) {
  LaunchSpec l = launch_of(1, threads);
  // 2 KB (512 words) of slack for the rounding.
  l.buffers = {u32_buffer("data", std::vector<uint32_t>(threads * stride_words + 512, 1))};
  l.args = {KernelArg::buffer_arg(0), KernelArg::scalar(Type::U32, stride_words)};
  return run(kStrided, "strided", l, c);
}

TEST(DramRows, SequentialLinesHitTheOpenRows) {
  for (uint64_t l2 : {uint64_t(0), uint64_t(2048)}) {
    SCOPED_TRACE(l2 ? "2 KB L2" : "no L2");
    in_child_process([&] {
      // 32 lanes, a line each (stride 16 words = 64 bytes): lines 0..31, rows
      // 0 of banks 0 (lines 0..15) and 1 (16..31). One miss per bank opens
      // the row; the other 30 are hits. A 2 KB L2 changes nothing: every
      // line is new to it, so each is one fill of one line.
      Result r = run_strided(32, 16, dram_config(l2));
      EXPECT_EQ(stat(r, "sm.memory_transactions"), 32u);
      EXPECT_EQ(stat(r, "dram.reads"), 32u);
      EXPECT_EQ(stat(r, "dram.writes"), 0u);
      EXPECT_EQ(stat(r, "dram.row_misses"), 2u);
      EXPECT_EQ(stat(r, "dram.row_hits"), 30u);
      EXPECT_EQ(stat(r, "dram.row_conflicts"), 0u);
    });
  }
}

TEST(DramRows, LinesInOtherRowsOfOneBankConflict) {
  for (uint64_t l2 : {uint64_t(0), uint64_t(2048)}) {
    SCOPED_TRACE(l2 ? "2 KB L2" : "no L2");
    in_child_process([&] {
      // 16 lanes at a stride of 2 KB (512 words) = 32 lines: line 32 l, bank
      // (32 l / 16) % 2 = 0, row l. Sixteen rows of bank 0: whatever order
      // the requests arrive in, the first finds the bank closed (a miss) and
      // each later one another row open (a conflict). No hits.
      Result r = run_strided(16, 512, dram_config(l2));
      EXPECT_EQ(stat(r, "dram.reads"), 16u);
      EXPECT_EQ(stat(r, "dram.row_misses"), 1u);
      EXPECT_EQ(stat(r, "dram.row_conflicts"), 15u);
      EXPECT_EQ(stat(r, "dram.row_hits"), 0u);
    });
  }
}

// Lane l loads line l / 2 of row 0 (even lanes) or of row 1 (odd lanes) of
// bank 0, from data rounded up to 2 KB: word (l & 1) * 512 + (l >> 1) * 16.
const char* const kPingPong = R"(
.visible .entry pingpong(.param .u64 data)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd0, [data];
  add.s64 %rd0, %rd0, 2047;
  and.b64 %rd0, %rd0, -2048;
  mov.u32 %r0, %tid.x;
  and.b32 %r1, %r0, 1;
  shr.u32 %r2, %r0, 1;
  shl.b32 %r3, %r2, 4;
  mad.lo.u32 %r4, %r1, 512, %r3;
  mul.wide.u32 %rd1, %r4, 4;
  add.s64 %rd2, %rd0, %rd1;
  ld.global.u32 %r5, [%rd2];
  exit;
}
)";

Result run_pingpong(const std::string& scheduler) {
  PlatformConfig c = dram_config(0);
  c.memory.l2.slices = 1;
  c.memory.dram.scheduler = scheduler;
  LaunchSpec l = launch_of(1, 8);
  l.buffers = {u32_buffer("data", std::vector<uint32_t>(2048, 1))};
  l.args = {KernelArg::buffer_arg(0)};
  return run(kPingPong, "pingpong", l, c);
}

// The 8 lines leave the SM in lane order, alternating rows 0 and 1 of bank
// 0, one per core cycle (about 1.3 memory cycles): all are queued within 11
// memory cycles, while the first (a miss: activate, then the column command
// t_rcd = 12 cycles later) holds the bank for 12 + 64 / 16 = 16 cycles.
TEST(DramRows, FrFcfsServesTheOpenRowFirst) {
  in_child_process([] {
    // FR-FCFS: the miss opens row 0, the three other row-0 lines hit; then
    // the first row-1 line conflicts and the other three hit.
    Result r = run_pingpong("frfcfs");
    EXPECT_EQ(stat(r, "dram.reads"), 8u);
    EXPECT_EQ(stat(r, "dram.row_misses"), 1u);
    EXPECT_EQ(stat(r, "dram.row_hits"), 6u);
    EXPECT_EQ(stat(r, "dram.row_conflicts"), 1u);
  });
}

TEST(DramRows, FcfsFollowsArrivalOrderAcrossRows) {
  in_child_process([] {
    // FCFS: arrival order alternates rows, so every access after the first
    // (a miss) finds the other row open.
    Result r = run_pingpong("fcfs");
    EXPECT_EQ(stat(r, "dram.reads"), 8u);
    EXPECT_EQ(stat(r, "dram.row_misses"), 1u);
    EXPECT_EQ(stat(r, "dram.row_hits"), 0u);
    EXPECT_EQ(stat(r, "dram.row_conflicts"), 7u);
  });
}

}  // namespace
}  // namespace warptlm::behaviour
