// Finalizer tests on PTX text: reconvergence PCs (IPDOMs), reducible and
// structured flags on the usual CFG shapes, and marker insertion.
#include <gtest/gtest.h>

#include "finalizer_test_util.h"

namespace warptlm {
namespace {

using testing::cond_branch;
using testing::finalize_ptx;
using testing::label_pc;
using testing::ptx_kernel;

TEST(FinalizerPtx, IfThen) {
  Program p = finalize_ptx(ptx_kernel(R"(
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 8;
  @%p1 bra END;
  add.u32 %r2, %r1, 1;
END:
  ret;
)"));
  const BranchInfo& b = cond_branch(p, 0);
  EXPECT_EQ(b.pc, 16u);
  EXPECT_EQ(b.target, label_pc(p, "END"));
  EXPECT_EQ(b.fallthrough, 24u);
  EXPECT_EQ(b.reconv, label_pc(p, "END"));
  EXPECT_TRUE(b.structured);
  EXPECT_EQ(p.cfgs[0].blocks.size(), 3u);
  EXPECT_TRUE(p.cfgs[0].reducible);
  EXPECT_TRUE(p.cfgs[0].structured);
}

TEST(FinalizerPtx, IfThenElseDiamond) {
  Program p = finalize_ptx(ptx_kernel(R"(
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 8;
  @%p1 bra ELSE;
  add.u32 %r2, %r1, 1;
  bra.uni JOIN;
ELSE:
  add.u32 %r2, %r1, 2;
JOIN:
  st.global.u32 [%rd1], %r2;
  ret;
)"));
  ASSERT_EQ(p.branches.size(), 2u);
  EXPECT_EQ(cond_branch(p, 0).reconv, label_pc(p, "JOIN"));
  EXPECT_TRUE(cond_branch(p, 0).structured);
  const BranchInfo& jump = p.branches[1];
  EXPECT_FALSE(jump.conditional);
  EXPECT_TRUE(jump.uniform_hint);
  EXPECT_EQ(jump.target, label_pc(p, "JOIN"));
  EXPECT_EQ(p.cfgs[0].ipdom, (std::vector<int32_t>{3, 3, 3, -1}));
}

TEST(FinalizerPtx, NestedIfs) {
  Program p = finalize_ptx(ptx_kernel(R"(
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  @!%p1 bra OUTER_END;
  setp.lt.u32 %p2, %r1, 8;
  @!%p2 bra INNER_ELSE;
  add.u32 %r2, %r1, 1;
  bra.uni INNER_END;
INNER_ELSE:
  add.u32 %r2, %r1, 2;
INNER_END:
  add.u32 %r3, %r2, 1;
OUTER_END:
  ret;
)"));
  EXPECT_EQ(cond_branch(p, 0).reconv, label_pc(p, "OUTER_END"));
  EXPECT_EQ(cond_branch(p, 1).reconv, label_pc(p, "INNER_END"));
  EXPECT_TRUE(cond_branch(p, 0).structured);
  EXPECT_TRUE(cond_branch(p, 1).structured);
  EXPECT_TRUE(p.cfgs[0].structured);
}

// for (i = 0; i < 10; ++i) { if (i > tid) break; if (i & 1) continue; s += i; }
TEST(FinalizerPtx, LoopWithBreakAndContinue) {
  Program p = finalize_ptx(ptx_kernel(R"(
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
HEAD:
  setp.ge.s32 %p1, %r2, 10;
  @%p1 bra EXIT;
  setp.gt.s32 %p2, %r2, %r1;
  @%p2 bra EXIT;
  and.b32 %r3, %r2, 1;
  setp.ne.s32 %p3, %r3, 0;
  @%p3 bra LATCH;
  add.s32 %r4, %r4, %r2;
LATCH:
  add.s32 %r2, %r2, 1;
  bra.uni HEAD;
EXIT:
  ret;
)"));
  const BranchInfo &head = cond_branch(p, 0), &brk = cond_branch(p, 1), &cont = cond_branch(p, 2);
  EXPECT_EQ(head.reconv, label_pc(p, "EXIT"));
  EXPECT_EQ(brk.reconv, label_pc(p, "EXIT"));
  EXPECT_EQ(cont.reconv, label_pc(p, "LATCH"));
  EXPECT_TRUE(head.structured);
  EXPECT_FALSE(brk.structured);  // a second loop exit: the region re-enters HEAD
  EXPECT_TRUE(cont.structured);
  EXPECT_TRUE(p.cfgs[0].reducible);
  EXPECT_FALSE(p.cfgs[0].structured);
}

TEST(FinalizerPtx, LoopWithSeveralExits) {
  Program p = finalize_ptx(ptx_kernel(R"(
  ld.param.u64 %rd1, [k_ptr];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
HEAD:
  setp.ge.s32 %p1, %r2, %r1;
  @%p1 bra EXIT_A;
  ld.global.u32 %r3, [%rd1];
  setp.eq.s32 %p2, %r3, 0;
  @%p2 bra EXIT_B;
  add.s32 %r2, %r2, 1;
  bra.uni HEAD;
EXIT_A:
  mov.u32 %r4, 1;
  bra.uni DONE;
EXIT_B:
  mov.u32 %r4, 2;
DONE:
  st.global.u32 [%rd1], %r4;
  ret;
)"));
  EXPECT_EQ(cond_branch(p, 0).reconv, label_pc(p, "DONE"));
  EXPECT_EQ(cond_branch(p, 1).reconv, label_pc(p, "DONE"));
  EXPECT_TRUE(cond_branch(p, 0).structured);
  EXPECT_FALSE(cond_branch(p, 1).structured);
  EXPECT_TRUE(p.cfgs[0].reducible);
}

// if (a && b) C else D; E — D is shared by both tests.
TEST(FinalizerPtx, ShortCircuitWithSharedTail) {
  Program p = finalize_ptx(ptx_kernel(R"(
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  @!%p1 bra D;
  setp.lt.u32 %p2, %r1, 8;
  @!%p2 bra D;
  add.u32 %r2, %r1, 1;
  bra.uni E;
D:
  add.u32 %r2, %r1, 2;
E:
  ret;
)"));
  EXPECT_EQ(cond_branch(p, 0).reconv, label_pc(p, "E"));
  EXPECT_EQ(cond_branch(p, 1).reconv, label_pc(p, "E"));
  EXPECT_TRUE(cond_branch(p, 0).structured);
  EXPECT_FALSE(cond_branch(p, 1).structured);  // D is entered from outside its region
  EXPECT_TRUE(p.cfgs[0].reducible);
  EXPECT_FALSE(p.cfgs[0].structured);
}

TEST(FinalizerPtx, EarlyReturnsReconvergeAtExit) {
  Program p = finalize_ptx(ptx_kernel(R"(
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra OUT;
  setp.lt.u32 %p2, %r1, 24;
  @%p2 exit;
  add.u32 %r2, %r1, 1;
  ret;
OUT:
  add.u32 %r2, %r1, 2;
  ret;
)"));
  EXPECT_EQ(cond_branch(p, 0).reconv, kExitPc);
  EXPECT_TRUE(cond_branch(p, 0).structured);
  const FunctionCfg& cfg = p.cfgs[0];
  EXPECT_TRUE(cfg.blocks[1].exits);  // @%p2 exit
  EXPECT_EQ(cfg.blocks[1].succs.size(), 1u);
}

TEST(FinalizerPtx, GotoIntoLoopIsIrreducible) {
  Program p = finalize_ptx(ptx_kernel(R"(
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra MID;
TOP:
  add.u32 %r2, %r2, 1;
MID:
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p2, %r3, 10;
  @%p2 bra TOP;
  ret;
)"));
  EXPECT_FALSE(p.cfgs[0].reducible);
  EXPECT_FALSE(p.cfgs[0].structured);
  EXPECT_EQ(cond_branch(p, 0).reconv, label_pc(p, "MID"));
  EXPECT_FALSE(cond_branch(p, 0).structured);
  EXPECT_FALSE(cond_branch(p, 1).structured);
}

TEST(FinalizerPtx, InfiniteLoopDoesNotCrash) {
  Program p = finalize_ptx(ptx_kernel(R"(
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 4;
  @%p1 bra SPIN;
  ret;
SPIN:
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p2, %r2, 4;
  @%p2 bra SKIP;
  add.u32 %r3, %r3, 1;
SKIP:
  bra.uni SPIN;
)"));
  EXPECT_EQ(cond_branch(p, 0).reconv, kExitPc);
  EXPECT_EQ(cond_branch(p, 1).reconv, label_pc(p, "SKIP"));
  EXPECT_TRUE(cond_branch(p, 1).structured);
  EXPECT_TRUE(p.cfgs[0].reducible);
}

TEST(FinalizerPtx, MarkersRenumberTargetsAndLabels) {
  const std::string text = ptx_kernel(R"(
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  @!%p1 bra OUTER_END;
  setp.lt.u32 %p2, %r1, 8;
  @!%p2 bra INNER_ELSE;
  add.u32 %r2, %r1, 1;
  bra.uni INNER_END;
INNER_ELSE:
  add.u32 %r2, %r1, 2;
INNER_END:
  add.u32 %r3, %r2, 1;
OUTER_END:
  ret;
)");
  Program plain = finalize_ptx(text);
  Program marked = finalize_ptx(text, /*markers=*/true);
  const Module& m = marked.module;
  ASSERT_EQ(m.code.size(), plain.module.code.size() + 2);
  for (const char* label : {"INNER_END", "OUTER_END"}) {
    Pc pc = label_pc(marked, label);
    EXPECT_EQ(m.at(pc).op, Opcode::Reconverge) << label;
    EXPECT_EQ(m.at(pc + kInstrBytes).text, plain.module.at(label_pc(plain, label)).text);
  }
  EXPECT_EQ(label_pc(marked, "INNER_ELSE"), label_pc(plain, "INNER_ELSE"));
  EXPECT_EQ(label_pc(marked, "OUTER_END"), label_pc(plain, "OUTER_END") + kInstrBytes);
  EXPECT_EQ(m.functions[0].end, plain.module.functions[0].end + 2 * kInstrBytes);
  for (size_t i = 0; i < m.code.size(); ++i) EXPECT_EQ(m.code[i].pc, i * kInstrBytes);
  ASSERT_EQ(marked.branches.size(), 3u);
  EXPECT_EQ(cond_branch(marked, 0).target, label_pc(marked, "OUTER_END"));
  EXPECT_EQ(cond_branch(marked, 0).reconv, label_pc(marked, "OUTER_END"));
  EXPECT_EQ(cond_branch(marked, 1).reconv, label_pc(marked, "INNER_END"));
  EXPECT_EQ(marked.branches[2].target, label_pc(marked, "INNER_END"));
  EXPECT_EQ(marked.branch_index.size(), m.code.size());
  // Markers change no other fact.
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(cond_branch(marked, i).structured, cond_branch(plain, i).structured);
    EXPECT_EQ(cond_branch(marked, i).taint, cond_branch(plain, i).taint);
  }
}

}  // namespace
}  // namespace warptlm
