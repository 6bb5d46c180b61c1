// Layout ranks (frontend/layout_rank.h) on the block layouts that make raw
// PCs a wrong order: a rotated loop whose latch (with its bar.sync) is laid
// out before the body, and a loop exit laid out before the loop. Expected
// block orders and ranks are derived by hand in each test.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "finalizer_test_util.h"
#include "frontend/layout_rank.h"

namespace warptlm {
namespace {

using testing::finalize_ptx;
using testing::label_pc;
using testing::ptx_kernel;

uint32_t rank_at(const Program& p, Pc pc) { return p.layout_rank.at(pc / kInstrBytes); }

TEST(LayoutRank, RotatedLoopRanksBodyBeforeLatchAndLoopBeforeExit) {
  Program p = finalize_ptx(ptx_kernel(R"(
  mov.u32 %r1, 0;
  bra.uni HEAD;
LATCH:
  bar.sync 0;
  add.u32 %r1, %r1, 1;
HEAD:
  setp.lt.u32 %p1, %r1, 10;
  @%p1 bra BODY;
  bra.uni EXIT;
BODY:
  add.u32 %r2, %r2, 1;
  bra.uni LATCH;
EXIT:
  ret;
)"));
  // Blocks: B0 [0,16) -> HEAD; B1 LATCH [16,32) -> HEAD; B2 HEAD [32,48)
  // -> BODY, B3; B3 [48,56) -> EXIT; B4 BODY [56,72) -> LATCH; B5 EXIT.
  // The loop {B1, B2, B4} is entered at B2 from B0: head B2; without the
  // edge B1 -> B2 its body orders B2, B4, B1. Then B3 and B5 after it.
  ASSERT_EQ(p.cfgs[0].blocks.size(), 6u);
  EXPECT_EQ(layout_block_order(p.cfgs[0]), (std::vector<uint32_t>{0, 2, 4, 1, 3, 5}));
  // Ranks by pc / 8: B0 0 1, B2 2 3, B4 4 5, B1 6 7, B3 8, B5 9.
  EXPECT_EQ(p.layout_rank, (std::vector<uint32_t>{0, 1, 6, 7, 2, 3, 8, 4, 5, 9}));
  // The head's branch reconverges at EXIT, after every block of the loop.
  EXPECT_GT(rank_at(p, label_pc(p, "EXIT")), rank_at(p, label_pc(p, "LATCH") + 8));
}

TEST(LayoutRank, ExitLaidOutBeforeTheLoopRanksAfterIt) {
  Program p = finalize_ptx(ptx_kernel(R"(
  mov.u32 %r1, %tid.x;
  bra.uni HEAD;
OUT:
  ret;
HEAD:
  add.u32 %r1, %r1, 32;
  setp.lt.u32 %p1, %r1, 64;
  @%p1 bra HEAD;
  bra.uni OUT;
)"));
  // Blocks: B0 [0,16) -> B2; B1 OUT [16,24); B2 HEAD [24,48) -> B2, B3;
  // B3 [48,56) -> B1. The self-loop B2 is one block: B0, B2, B3, B1.
  EXPECT_EQ(layout_block_order(p.cfgs[0]), (std::vector<uint32_t>{0, 2, 3, 1}));
  EXPECT_EQ(p.layout_rank, (std::vector<uint32_t>{0, 1, 6, 2, 3, 4, 5}));
}

TEST(LayoutRank, NestedLoopsStayContiguousAndTiesKeepTheLayout) {
  Program p = finalize_ptx(ptx_kernel(R"(
  mov.u32 %r1, 0;
OUTER:
  mov.u32 %r2, 0;
INNER:
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, 4;
  @%p1 bra INNER;
  setp.lt.u32 %p2, %r1, 2;
  @%p2 bra ELSE;
  add.u32 %r3, %r3, 1;
  bra.uni NEXT;
ELSE:
  add.u32 %r3, %r3, 2;
NEXT:
  add.u32 %r1, %r1, 1;
  setp.lt.u32 %p3, %r1, 8;
  @%p3 bra OUTER;
  ret;
)"));
  // Blocks: B0 [0,8); B1 OUTER [8,16); B2 INNER [16,40) -> B2, B3; B3
  // [40,56) -> ELSE B5, B4; B4 [56,72) -> NEXT B6; B5 ELSE [72,80); B6 NEXT
  // [80,104) -> B1, B7; B7 [104,112). The outer loop {B1..B6} has head B1,
  // the inner one is B2 alone; the diamond's sides B4 and B5 tie and keep
  // their layout order: the order is the layout, ranks are the identity.
  EXPECT_EQ(layout_block_order(p.cfgs[0]), (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  std::vector<uint32_t> identity(p.module.code.size());
  for (uint32_t i = 0; i < identity.size(); ++i) identity[i] = i;
  EXPECT_EQ(p.layout_rank, identity);
}

TEST(LayoutRank, RanksEveryFunctionInModuleOrder) {
  // Two functions: the callee's ranks follow the kernel's, each a permutation
  // of its own instructions' positions.
  Program p = finalize_ptx(R"(.version 7.0
.target sm_70
.address_size 64
.func f()
{
  ret;
}
.visible .entry k()
{
  call.uni f, ();
  ret;
}
)");
  EXPECT_EQ(p.layout_rank, (std::vector<uint32_t>{0, 1, 2}));
}

}  // namespace
}  // namespace warptlm
