// Finalizer tests on hand-built modules: exact CFG shapes, post-dominators,
// reconvergence PCs, reducible / structured flags and marker renumbering.
#include <gtest/gtest.h>

#include "finalizer_test_util.h"
#include "frontend/cfg.h"
#include "frontend/finalizer.h"
#include "frontend/markers.h"
#include "frontend/postdom.h"
#include "frontend/program.h"

namespace warptlm {
namespace {

using testing::ModuleBuilder;

const BranchInfo& branch(const Program& p, Pc pc) {
  const BranchInfo* b = p.branch_at(pc);
  EXPECT_NE(b, nullptr) << "no branch at pc " << pc;
  static BranchInfo none;
  return b ? *b : none;
}

// 0 setp; 8 @p bra END; 16 work; END: 24 work; 32 ret
Module if_then() {
  ModuleBuilder b;
  b.func("k");
  b.setp("%p", b.special(SpecialReg::Tid), b.imm(8));
  b.bra("END", "%p");
  b.work();
  b.label("END").work();
  b.ret();
  return b.build();
}

TEST(FinalizerCfg, AnUnreachablePredecessorLeavesTheDominatorsAlone) {
  // 0 -> 1 -> 2 -> 3, and 4 (reached by nothing) -> 2: 2's dominator is 1,
  // as if 4 were not there (Boost's Lengauer-Tarjan alone left 2 without
  // one, and the structure analysis then indexed the tree at -1).
  const std::vector<std::vector<uint32_t>> succs{{1}, {2}, {3}, {}, {2}};
  EXPECT_EQ(immediate_dominators(succs, 0), (std::vector<int32_t>{-1, 0, 1, 2, -1}));
}

TEST(FinalizerCfg, IfThenBlocksEdgesAndIpdom) {
  Program p = finalize(if_then());
  ASSERT_EQ(p.cfgs.size(), 1u);
  const FunctionCfg& cfg = p.cfgs[0];
  ASSERT_EQ(cfg.blocks.size(), 3u);
  EXPECT_EQ(cfg.blocks[0].begin, 0u);
  EXPECT_EQ(cfg.blocks[0].end, 16u);
  EXPECT_EQ(cfg.blocks[0].succs, (std::vector<uint32_t>{2, 1}));
  EXPECT_EQ(cfg.blocks[2].preds, (std::vector<uint32_t>{0, 1}));
  EXPECT_TRUE(cfg.blocks[2].exits);
  EXPECT_EQ(cfg.ipdom, (std::vector<int32_t>{2, 2, -1}));
  EXPECT_EQ(cfg.idom, (std::vector<int32_t>{-1, 0, 0}));
  EXPECT_TRUE(cfg.reducible);
  EXPECT_TRUE(cfg.structured);

  ASSERT_EQ(p.branches.size(), 1u);
  const BranchInfo& br = branch(p, 8);
  EXPECT_EQ(br.target, 24u);
  EXPECT_EQ(br.fallthrough, 16u);
  EXPECT_EQ(br.reconv, 24u);
  EXPECT_TRUE(br.conditional);
  EXPECT_TRUE(br.structured);
  EXPECT_EQ(p.branch_index, (std::vector<int32_t>{-1, 0, -1, -1, -1}));
  EXPECT_EQ(p.branch_at(0), nullptr);
}

TEST(FinalizerCfg, UnconditionalAndUniformBranches) {
  ModuleBuilder b;
  b.func("k");
  b.setp("%p", b.special(SpecialReg::Ctaid), b.imm(2));
  b.bra("ELSE", "%p", /*uni=*/true);  // 8: still conditional, .uni is a hint
  b.work();
  b.bra("END", "", /*uni=*/true);  // 24: unconditional
  b.label("ELSE").work();
  b.label("END").ret();
  Program p = finalize(b.build());
  const BranchInfo& cond = branch(p, 8);
  EXPECT_TRUE(cond.conditional);
  EXPECT_TRUE(cond.uniform_hint);
  EXPECT_EQ(cond.reconv, 40u);
  const BranchInfo& jump = branch(p, 24);
  EXPECT_FALSE(jump.conditional);
  EXPECT_EQ(jump.target, 40u);
  EXPECT_EQ(jump.reconv, 40u);  // the IPDOM of its block, the target itself
  EXPECT_EQ(p.cfgs[0].blocks[1].succs, (std::vector<uint32_t>{3}));  // no fall-through edge
}

TEST(FinalizerCfg, EarlyReturnReconvergesAtExit) {
  ModuleBuilder b;
  b.func("k");
  b.setp("%p", b.special(SpecialReg::Tid), b.imm(4));
  b.bra("OUT", "%p");  // 8
  b.work();
  b.ret();  // 24
  b.label("OUT").work();
  b.ret();
  Program p = finalize(b.build());
  EXPECT_EQ(branch(p, 8).reconv, kExitPc);
  EXPECT_TRUE(branch(p, 8).structured);
  EXPECT_EQ(p.cfgs[0].ipdom, (std::vector<int32_t>{-1, -1, -1}));
}

TEST(FinalizerCfg, GuardedRetAndCallAreHandled) {
  ModuleBuilder b;
  b.func("f", false);
  b.ret();
  b.func("k");
  b.setp("%p", b.special(SpecialReg::Tid), b.imm(4));                   // 8
  b.ret("%p");                                                          // 16: @p ret ends a block
  b.op(Opcode::Call, {b.vec({}), b.callee(0), b.vec({})}, Type::None);  // 24: not a terminator
  b.work();
  b.ret();
  Program p = finalize(b.build());
  const FunctionCfg& cfg = p.cfgs[1];
  ASSERT_EQ(cfg.blocks.size(), 2u);
  EXPECT_EQ(cfg.blocks[0].end, 24u);
  EXPECT_TRUE(cfg.blocks[0].exits);
  EXPECT_EQ(cfg.blocks[0].succs, (std::vector<uint32_t>{1}));
  EXPECT_EQ(cfg.blocks[1].end, 48u);
  EXPECT_EQ(cfg.ipdom, (std::vector<int32_t>{-1, -1}));
}

TEST(FinalizerCfg, BranchToNextInstructionHasOneEdge) {
  ModuleBuilder b;
  b.func("k");
  b.setp("%p", b.special(SpecialReg::Tid), b.imm(4));
  b.bra("NEXT", "%p");
  b.label("NEXT").ret();
  Program p = finalize(b.build());
  EXPECT_EQ(p.cfgs[0].blocks[0].succs, (std::vector<uint32_t>{1}));
  EXPECT_EQ(branch(p, 8).reconv, 16u);
}

TEST(FinalizerCfg, InfiniteLoopDoesNotCrash) {
  // 0 setp; 8 @p bra SPIN; 16 ret; SPIN: 24 work; 32 bra SPIN
  ModuleBuilder b;
  b.func("k");
  b.setp("%p", b.special(SpecialReg::Tid), b.imm(4));
  b.bra("SPIN", "%p");
  b.ret();
  b.label("SPIN").work();
  b.bra("SPIN");
  Module m = b.build();
  FunctionCfg cfg = build_cfg(m, 0);
  // The block holding the backward bra gets the extra edge to the exit.
  EXPECT_EQ(infinite_loop_exits(cfg), (std::vector<uint32_t>{2}));
  Program p = finalize(m);
  EXPECT_EQ(p.cfgs[0].ipdom, (std::vector<int32_t>{-1, -1, -1}));
  EXPECT_EQ(branch(p, 8).reconv, kExitPc);
  EXPECT_EQ(branch(p, 32).reconv, kExitPc);
}

TEST(FinalizerCfg, FallingOffTheEndIsAnExit) {
  ModuleBuilder b;
  b.func("f", false);
  b.setp("%p", b.special(SpecialReg::Tid), b.imm(4));
  b.bra("L", "%p");
  b.work();
  b.label("L").work();  // no ret
  b.func("k");
  b.ret();
  Program p = finalize(b.build());
  EXPECT_TRUE(p.cfgs[0].blocks.back().exits);
  EXPECT_EQ(branch(p, 8).reconv, 24u);
}

TEST(FinalizerCfg, BranchOutsideTheFunctionThrows) {
  ModuleBuilder b;
  b.func("k");
  b.bra("L");
  b.label("L").ret();
  Module m = b.build();
  m.code[0].ops[0].target = 800;
  EXPECT_THROW(finalize(m), std::invalid_argument);
}

// `for (i..) { if (c) break; work; }` in clang -O0 layout, entered at H:
// 0 setp c; H: 8 setp; 16 @q bra EXIT; BODY: 24 @p bra EXIT; 32 work; 40 bra H; EXIT: 48 ret
TEST(FinalizerCfg, BreakFromLoopIsUnstructuredButReducible) {
  ModuleBuilder b;
  b.func("k");
  b.setp("%p", b.special(SpecialReg::Tid), b.imm(4));
  b.label("H").setp("%q", b.r("%x"), b.imm(10));
  b.bra("EXIT", "%q");
  b.label("BODY").bra("EXIT", "%p");
  b.work();
  b.bra("H");
  b.label("EXIT").ret();
  Program p = finalize(b.build());
  EXPECT_TRUE(p.cfgs[0].reducible);
  EXPECT_FALSE(p.cfgs[0].structured);
  EXPECT_TRUE(branch(p, 16).structured);  // the loop's own exit test at its header
  EXPECT_EQ(branch(p, 16).reconv, 48u);
  EXPECT_FALSE(branch(p, 24).structured);  // the break: H is a side entrance
  EXPECT_EQ(branch(p, 24).reconv, 48u);
}

// Bottom-tested loop with an if inside: the latch branch is structured.
// 0 work; TOP: 8 setp; 16 @p bra SKIP; 24 work; SKIP: 32 setp; 40 @q bra TOP; 48 ret
TEST(FinalizerCfg, RotatedLoopLatchIsStructured) {
  ModuleBuilder b;
  b.func("k");
  b.work();
  b.label("TOP").setp("%p", b.special(SpecialReg::Tid), b.r("%x"));
  b.bra("SKIP", "%p");
  b.work();
  b.label("SKIP").setp("%q", b.r("%x"), b.imm(10));
  b.bra("TOP", "%q");
  b.ret();
  Program p = finalize(b.build());
  EXPECT_TRUE(p.cfgs[0].structured);
  EXPECT_EQ(branch(p, 16).reconv, 32u);
  EXPECT_EQ(branch(p, 40).reconv, 48u);
  EXPECT_TRUE(branch(p, 40).structured);
}

// goto into the middle of a loop: 0 @p bra MID; TOP: 8 work; MID: 16 work; 24 @q bra TOP; 32 ret
TEST(FinalizerCfg, GotoIntoLoopIsIrreducible) {
  ModuleBuilder b;
  b.func("k");
  b.bra("MID", "%p");
  b.label("TOP").work();
  b.label("MID").work();
  b.bra("TOP", "%q");
  b.ret();
  Program p = finalize(b.build());
  EXPECT_FALSE(p.cfgs[0].reducible);
  EXPECT_FALSE(p.cfgs[0].structured);
  // The goto reconverges at MID (TOP falls into it); its region {entry, TOP}
  // is re-entered from MID by the back edge. The latch's region {MID, TOP}
  // has no entry block of its own (both are entered from the top block).
  EXPECT_EQ(branch(p, 0).reconv, 16u);
  EXPECT_FALSE(branch(p, 0).structured);
  EXPECT_FALSE(branch(p, 24).structured);
  EXPECT_EQ(branch(p, 24).reconv, 32u);
}

TEST(FinalizerMarkers, InsertionRenumbersEverything) {
  // 0 @p bra ELSE; 8 work; 16 bra END; ELSE: 24 work; END: 32 ret | f: 40 ret
  ModuleBuilder b;
  b.func("k");
  b.bra("ELSE", "%p");
  b.work();
  b.bra("END");
  b.label("ELSE").work();
  b.label("END").ret();
  b.func("f", false);
  b.ret();
  Program p = finalize(b.build(), {/*insert_reconvergence_markers=*/true});
  const Module& m = p.module;
  ASSERT_EQ(m.code.size(), 7u);  // one marker, at END
  EXPECT_EQ(m.code[4].op, Opcode::Reconverge);
  EXPECT_EQ(m.code[4].pc, 32u);
  EXPECT_EQ(m.code[5].op, Opcode::Ret);
  EXPECT_EQ(m.code[5].pc, 40u);
  for (size_t i = 0; i < m.code.size(); ++i) EXPECT_EQ(m.code[i].pc, i * kInstrBytes);
  EXPECT_EQ(m.functions[0].labels.at("END"), 32u);
  EXPECT_EQ(m.functions[0].labels.at("ELSE"), 24u);
  EXPECT_EQ(m.functions[0].end, 48u);
  EXPECT_EQ(m.functions[1].begin, 48u);
  EXPECT_EQ(m.functions[1].end, 56u);
  EXPECT_EQ(m.code[2].ops[0].target, 32u);  // bra END now jumps to the marker
  EXPECT_EQ(branch(p, 0).reconv, 32u);
  EXPECT_EQ(branch(p, 0).target, 24u);
  EXPECT_EQ(p.branch_index.size(), 7u);
}

TEST(FinalizerMarkers, MarkerAtFunctionBeginMovesBegin) {
  // f at [0,8); k: LOOP 8 work; 16 @p bra LOOP; 24 ret. Marker at 8 belongs to k.
  ModuleBuilder b;
  b.func("f", false);
  b.ret();
  b.func("k");
  b.label("LOOP").work();
  b.bra("LOOP", "%p");
  b.ret();
  Module m = insert_markers(b.build(), {8, 24, 8});
  ASSERT_EQ(m.code.size(), 6u);
  EXPECT_EQ(m.functions[0].end, 8u);
  EXPECT_EQ(m.functions[1].begin, 8u);
  EXPECT_EQ(m.code[1].op, Opcode::Reconverge);
  EXPECT_EQ(m.code[1].function, 1u);
  EXPECT_EQ(m.functions[1].labels.at("LOOP"), 8u);
  EXPECT_EQ(m.code[3].ops[0].target, 8u);
  EXPECT_EQ(m.code[4].op, Opcode::Reconverge);
  EXPECT_EQ(m.functions[1].end, 48u);
  EXPECT_THROW(insert_markers(m, {4}), std::invalid_argument);
}

}  // namespace
}  // namespace warptlm
