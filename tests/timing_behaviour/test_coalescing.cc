// Coalescing seen end to end: one warp of 32 threads loads index[tid] (unit
// stride) and then data[index[tid]]; each global load costs one memory
// transaction per distinct 64-byte L1 line its lanes touch.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "behaviour_support.h"
#include "common/systemc_child.h"

namespace warptlm::behaviour {
namespace {

using testing::in_child_process;

const char* const kGather = R"(
.visible .entry gather(.param .u64 data, .param .u64 index)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd0, [data];
  ld.param.u64 %rd1, [index];
  mov.u32 %r0, %tid.x;
  mul.wide.u32 %rd2, %r0, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r1, [%rd3];
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd0, %rd4;
  ld.global.u32 %r2, [%rd5];
  exit;
}
)";

// Runs the gather with index[l] = f(l) over a 1024-word data array and
// returns the memory transactions of the data load alone. Allocations are
// 256-byte aligned, so both arrays start on a line boundary and the index
// load always costs 2 transactions (128 bytes = 2 lines).
void expect_transactions(const std::function<uint32_t(uint32_t)>& f, uint64_t expected) {
  in_child_process([&] {
    PlatformConfig c = quiet_config();
    c.memory.l1.line = 64;
    std::vector<uint32_t> index(32);
    for (uint32_t l = 0; l < 32; ++l) index[l] = f(l);
    LaunchSpec launch = launch_of(1, 32);
    launch.buffers = {u32_buffer("data", std::vector<uint32_t>(1024, 0)),
                      u32_buffer("index", index)};
    launch.args = {KernelArg::buffer_arg(0), KernelArg::buffer_arg(1)};
    Result r = run(kGather, "gather", launch, c);
    EXPECT_EQ(stat(r, "sm.memory_instructions"), 2u);
    EXPECT_EQ(stat(r, "sm.memory_transactions"), 2u + expected);
    // Every transaction is a line read that missed the empty L1 or merged.
    EXPECT_EQ(stat(r, "sm.l1_hits") + stat(r, "sm.l1_misses"), 2u + expected);
  });
}

TEST(Coalescing, UnitStrideIsTwoLines) {
  // Words 0..31 = bytes 0..127: lines 0 and 1.
  expect_transactions([](uint32_t l) { return l; }, 2);
}

TEST(Coalescing, AMisalignedUnitStrideTouchesThreeLines) {
  // Words 1..32 = bytes 4..131: lines 0, 1 and 2.
  expect_transactions([](uint32_t l) { return l + 1; }, 3);
}

TEST(Coalescing, StrideTwoWordsIsFourLines) {
  // Words 0, 2, ..., 62 = bytes 0..251: lines 0..3.
  expect_transactions([](uint32_t l) { return 2 * l; }, 4);
}

TEST(Coalescing, StrideOfALineIsOneTransactionPerLane) {
  // Word 16 l = byte 64 l: every lane its own line.
  expect_transactions([](uint32_t l) { return 16 * l; }, 32);
}

TEST(Coalescing, APermutationInsideTwoLinesIsStillTwo) {
  // (7 l) % 32 permutes words 0..31: the same two lines as unit stride.
  expect_transactions([](uint32_t l) { return (7 * l) % 32; }, 2);
}

TEST(Coalescing, ScatteredLanesCostTheirDistinctLines) {
  // Line (5 l) % 8, word l % 16 inside it: 5 is odd, so (5 l) % 8 takes all
  // 8 values over the 32 lanes: 8 distinct lines.
  expect_transactions([](uint32_t l) { return ((5 * l) % 8) * 16 + l % 16; }, 8);
}

TEST(Coalescing, OneAddressForAllLanesIsOneTransaction) {
  expect_transactions([](uint32_t) { return 7; }, 1);
}

TEST(Coalescing, WiderLinesCoalesceMore) {
  in_child_process([] {
    PlatformConfig c = quiet_config();
    c.memory.l1.line = 128;
    c.memory.l2.line = 128;
    std::vector<uint32_t> index(32);
    for (uint32_t l = 0; l < 32; ++l) index[l] = 2 * l;  // bytes 0..251
    LaunchSpec launch = launch_of(1, 32);
    launch.buffers = {u32_buffer("data", std::vector<uint32_t>(1024, 0)),
                      u32_buffer("index", index)};
    launch.args = {KernelArg::buffer_arg(0), KernelArg::buffer_arg(1)};
    Result r = run(kGather, "gather", launch, c);
    // 128-byte lines: the index load is 1 line, the stride-2 load 2 lines.
    EXPECT_EQ(stat(r, "sm.memory_transactions"), 3u);
  });
}

}  // namespace
}  // namespace warptlm::behaviour
