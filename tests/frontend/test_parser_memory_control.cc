// Decoding of memory, synchronisation, control-flow and warp instructions.
#include <gtest/gtest.h>

#include "parser_test_util.h"

namespace warptlm {
namespace {

Instruction one(const std::string& inst) { return test::decode_mem(inst); }
void bad(const std::string& inst, uint32_t col, const std::string& what) {
  test::expect_mem_error(inst, col, what);
}

TEST(PtxMemory, LoadsAndStores) {
  Instruction ld = one("ld.global.f32 %f1, [%rd1+4]");
  EXPECT_EQ(ld.op, Opcode::Ld);
  EXPECT_EQ(ld.space, Space::Global);
  EXPECT_EQ(ld.type, Type::F32);
  EXPECT_EQ(ld.vec, 1);
  ASSERT_EQ(ld.ops.size(), 2u);
  EXPECT_EQ(ld.ops[0].kind, Operand::Kind::Reg);
  EXPECT_EQ(ld.ops[1].kind, Operand::Kind::Address);
  const struct {
    const char* text;
    Space space;
  } spaces[] = {
      {"ld.u32 %r1, [%rd1]", Space::Generic},          {"ld.shared.u32 %r1, [sh]", Space::Shared},
      {"ld.shared::cta.u32 %r1, [sh]", Space::Shared}, {"ld.local.u32 %r1, [%rd1]", Space::Local},
      {"ld.const.u32 %r1, [%rd1]", Space::Const},      {"ld.param.u32 %r1, [%rd1]", Space::Param}};
  for (const auto& s : spaces) EXPECT_EQ(one(s.text).space, s.space) << s.text;
  EXPECT_TRUE(one("ld.volatile.global.u32 %r1, [%rd1]").is_volatile);
  // Cache operators, .nc and memory-order qualifiers are accepted.
  for (const char* text : {"ld.global.nc.f32 %f1, [%rd1]", "ld.global.ca.u32 %r1, [%rd1]",
                           "ld.global.cg.u32 %r1, [%rd1]", "ld.global.cs.u32 %r1, [%rd1]",
                           "ld.global.lu.u32 %r1, [%rd1]", "ld.global.cv.u32 %r1, [%rd1]",
                           "ld.relaxed.gpu.global.u32 %r1, [%rd1]",
                           "ld.acquire.sys.u32 %r1, [%rd1]", "ld.weak.global.u32 %r1, [%rd1]",
                           "st.global.wb.u32 [%rd1], %r1", "st.global.wt.u32 [%rd1], %r1",
                           "st.release.cta.shared.u32 [sh], %r1", "st.relaxed.sys.u32 [%rd1], %r1"})
    EXPECT_NO_THROW(one(text)) << text;
  Instruction v = one("ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1]");
  EXPECT_EQ(v.vec, 4);
  EXPECT_EQ(v.ops[0].elems.size(), 4u);
  Instruction st = one("st.local.v2.u64 [%rd1+8], {%rd2, %rd3}");
  EXPECT_EQ(st.op, Opcode::St);
  EXPECT_EQ(st.vec, 2);
  EXPECT_EQ(st.ops[0].kind, Operand::Kind::Address);
  EXPECT_EQ(st.ops[1].kind, Operand::Kind::Vector);
  Instruction imm = one("st.param.b32 [%rd1], -1");
  EXPECT_EQ(imm.ops[1].kind, Operand::Kind::Imm);
  EXPECT_EQ(one("ld.s8 %rs1, [%rd1]").type, Type::S8);
  EXPECT_EQ(one("ld.u8 %r1, [%rd1]").type, Type::U8);  // wider destination registers are fine

  bad("ld.global.pred %p1, [%rd1]", 10, "'ld' does not accept type '.pred'");
  bad("ld.global.v4.f64 {%fd1, %fd2, %fd3, %fd4}, [%rd1]", 10,
      "'ld.v4' does not take 64-bit types");
  bad("ld.shared.nc.u32 %r1, [sh]", 10, "'ld.nc' requires .global");
  bad("ld.volatile.relaxed.gpu.u32 %r1, [%rd1]", 12, "cannot be combined with .volatile");
  bad("ld.acquire.u32 %r1, [%rd1]", 3, "'.acquire' needs a scope");
  bad("ld.global.L1::evict_last.u32 %r1, [%rd1]", 10,
      "modifier '.L1::evict_last' is not supported");
  bad("st.const.u32 [%rd1], %r1", 3, "cannot store to the .const space");
  bad("st.global.wb.ca.u32 [%rd1], %r1", 13, "modifier '.ca' is not supported on 'st'");
  bad("ld.global.u32 %r1, %rd1", 20, "operand 2 of 'ld' must be an address");
  bad("st.global.u32 %r1, [%rd1]", 15, "operand 1 of 'st' must be an address");
  bad("ld.global.u32 5, [%rd1]", 15, "operand 1 of 'ld' must be a register");
  bad("ld.global.v2.u32 %r1, [%rd1]", 18, "must be a vector {...} of 2 elements");
}

TEST(PtxMemory, AtomicsAndReductions) {
  Instruction a = one("atom.global.add.u32 %r1, [%rd1], 1");
  EXPECT_EQ(a.op, Opcode::Atom);
  EXPECT_EQ(a.space, Space::Global);
  EXPECT_EQ(a.atom, AtomOp::Add);
  EXPECT_EQ(a.type, Type::U32);
  ASSERT_EQ(a.ops.size(), 3u);
  EXPECT_EQ(a.ops[1].kind, Operand::Kind::Address);
  const struct {
    const char* text;
    AtomOp op;
  } ops[] = {{"atom.shared.min.s32 %r1, [sh], %r2", AtomOp::Min},
             {"atom.max.u64 %rd1, [%rd2], %rd3", AtomOp::Max},
             {"atom.global.inc.u32 %r1, [%rd1], 100", AtomOp::Inc},
             {"atom.dec.u32 %r1, [%rd1], 100", AtomOp::Dec},
             {"atom.and.b32 %r1, [%rd1], %r2", AtomOp::And},
             {"atom.or.b64 %rd1, [%rd1], %rd2", AtomOp::Or},
             {"atom.xor.b32 %r1, [%rd1], %r2", AtomOp::Xor},
             {"atom.exch.b32 %r1, [%rd1], %r2", AtomOp::Exch},
             {"atom.global.add.f32 %f1, [%rd1], 0f3F800000", AtomOp::Add},
             {"atom.add.f64 %fd1, [%rd1], %fd2", AtomOp::Add},
             {"atom.relaxed.gpu.global.add.u32 %r1, [%rd1], 1", AtomOp::Add},
             {"atom.acq_rel.sys.add.u32 %r1, [%rd1], 1", AtomOp::Add},
             {"atom.cta.shared.add.u32 %r1, [sh], 1", AtomOp::Add}};
  for (const auto& o : ops) EXPECT_EQ(one(o.text).atom, o.op) << o.text;
  Instruction cas = one("atom.global.cas.b32 %r1, [%rd1], 1, %r2");
  EXPECT_EQ(cas.atom, AtomOp::Cas);
  ASSERT_EQ(cas.ops.size(), 4u);
  EXPECT_EQ(cas.ops[2].kind, Operand::Kind::Imm);
  Instruction red = one("red.global.add.u32 [%rd1], %r1");
  EXPECT_EQ(red.op, Opcode::Red);
  ASSERT_EQ(red.ops.size(), 2u);
  EXPECT_EQ(red.ops[0].kind, Operand::Kind::Address);

  bad("atom.global.u32 %r1, [%rd1], 1", 1, "'atom' needs an operation");
  bad("atom.global.add.s64 %rd1, [%rd1], 1", 16, "'atom.add' does not accept type '.s64'");
  bad("atom.global.inc.s32 %r1, [%rd1], 1", 16, "'atom.inc' does not accept type '.s32'");
  bad("atom.global.and.u32 %r1, [%rd1], 1", 16, "'atom.and' does not accept type '.u32'");
  bad("atom.local.add.u32 %r1, [%rd1], 1", 5, "works on .global, .shared or generic addresses");
  bad("atom.global.cas.b32 %r1, [%rd1], 1", 1, "'atom' needs 4 operands, got 3");
  bad("atom.global.add.noftz.f32 %f1, [%rd1], %f2", 16,
      "'.noftz' belongs to the .f16, .bf16, .f16x2 and .bf16x2 adds");
  bad("atom.cluster.add.u32 %r1, [%rd1], 1", 5, "the .cluster scope is not supported");
  bad("red.global.cas.b32 [%rd1], %r1", 11, "'red' has no .cas operation");
  bad("red.global.add.u32 %r1, [%rd1], %r2", 33, "too many operands");
}

TEST(PtxControl, BarriersAndFences) {
  Instruction b = one("bar.sync 0");
  EXPECT_EQ(b.op, Opcode::Bar);
  EXPECT_TRUE(b.sync);
  EXPECT_TRUE(b.aligned);
  ASSERT_EQ(b.ops.size(), 1u);
  EXPECT_EQ(b.ops[0].imm, 0u);
  Instruction bc = one("bar.sync 1, %r1");
  ASSERT_EQ(bc.ops.size(), 2u);
  EXPECT_EQ(bc.ops[1].kind, Operand::Kind::Reg);
  Instruction ba = one("barrier.sync.aligned 2, 64");
  EXPECT_EQ(ba.op, Opcode::Bar);
  EXPECT_TRUE(ba.aligned);
  EXPECT_EQ(ba.ops[1].imm, 64u);
  EXPECT_FALSE(one("barrier.sync %r1").aligned);
  EXPECT_EQ(one("bar.cta.sync 0").op, Opcode::Bar);
  Instruction w = one("bar.warp.sync -1");
  EXPECT_EQ(w.op, Opcode::Membar);
  EXPECT_TRUE(w.ops.empty());
  EXPECT_EQ(w.text, "bar.warp.sync -1");
  for (const char* text : {"membar.cta", "membar.gl", "membar.sys", "fence.sc.cta",
                           "fence.acq_rel.gpu", "fence.sys"}) {
    Instruction m = one(text);
    EXPECT_EQ(m.op, Opcode::Membar) << text;
    EXPECT_TRUE(m.ops.empty());
  }
  Instruction arrive = one("bar.arrive 0, 64");
  EXPECT_EQ(arrive.op, Opcode::Bar);
  EXPECT_FALSE(arrive.sync);
  EXPECT_EQ(arrive.ops.size(), 2u);
  EXPECT_FALSE(one("barrier.arrive.aligned 1, 32").sync);
  bad("bar.arrive 0", 1, "'bar.arrive' needs a thread count");
  Instruction red = one("bar.red.popc.u32 %r1, 0, 64, !%p1");
  EXPECT_EQ(red.op, Opcode::Bar);
  EXPECT_EQ(red.barrier_red, BarrierRed::Popc);
  ASSERT_EQ(red.ops.size(), 4u);
  EXPECT_EQ(red.ops[2].imm, 64u);
  EXPECT_TRUE(red.ops[3].negated);
  Instruction red_or = one("barrier.red.or.aligned.pred %p2, 1, %p1");
  EXPECT_EQ(red_or.barrier_red, BarrierRed::Or);
  EXPECT_TRUE(red_or.aligned);
  EXPECT_EQ(red_or.ops[2].kind, Operand::Kind::None);  // no thread count
  bad("bar.red.and.u32 %r1, 0, %p1", 1, "'bar.red.and' takes .pred, not .u32");
  bad("bar 0", 1, "'bar' needs .sync");
  bad("bar.sync %p1", 10, "cannot be a .pred register");
  bad("bar.warp.sync", 1, "needs 1 operand");
  bad("membar 0", 1, "'membar' needs a level");
  EXPECT_EQ(one("fence.proxy.alias").op, Opcode::Membar);
  EXPECT_EQ(one("fence.proxy.async.shared::cta").op, Opcode::Membar);
  bad("fence.proxy", 1, "'fence.proxy' needs .alias or .async");
  bad("fence.proxy.tensormap::generic.release.gpu", 12, "(sm_90, tensor maps) is not supported");
  bad("fence.mbarrier_init.release.cluster", 6, "clusters are not supported");
  bad("fence.sc", 1, "'fence' needs a scope");
}

TEST(PtxControl, BranchesCallsAndExits) {
  EXPECT_EQ(one("ret").op, Opcode::Ret);
  EXPECT_TRUE(one("ret.uni").uni);
  EXPECT_EQ(one("exit").op, Opcode::Exit);
  bad("exit.uni", 5, "modifier '.uni' is not supported on 'exit'");
  bad("ret %r1", 5, "too many operands for 'ret'");
  bad("bra.uni", 1, "'bra' needs 1 operand, got 0");
  bad("bra %r1", 5, "undefined label '%r1'");
  bad("call.uni (%r1), f", 11, "call return value '%r1' must be a .param variable");
  bad("call.uni f, (%r1)", 14, "call argument '%r1' must be a .param variable");
  bad("call.uni f, (1)", 14, "call arguments must be .param variables");
  bad("call.uni sh, ()", 10, "'sh' is a variable, not a function");
  bad("call.uni f, (), p", 15, "a direct call ends with its argument list");
  bad("call.uni f, x", 13, "expected the argument list '(...)' of a direct call");
  bad("brx.idx %r1, tbl", 1, "instruction 'brx' (sm_30) is not supported");
  Instruction sleep = one("nanosleep.u32 10");
  EXPECT_EQ(sleep.op, Opcode::Nanosleep);
  EXPECT_EQ(sleep.ops.at(0).imm, 10u);
  bad("nanosleep.u64 %rd1", 10, "'nanosleep' does not accept type '.u64'");
}

TEST(PtxControl, VoteShflActivemask) {
  Instruction v = one("vote.all.pred %p1, %p2");
  EXPECT_EQ(v.op, Opcode::Vote);
  EXPECT_EQ(v.vote, VoteMode::All);
  EXPECT_FALSE(v.sync);
  EXPECT_EQ(v.ops.size(), 2u);
  Instruction vs = one("vote.sync.ballot.b32 %r1, %p1, -1");
  EXPECT_TRUE(vs.sync);
  EXPECT_EQ(vs.vote, VoteMode::Ballot);
  EXPECT_EQ(vs.type, Type::B32);
  ASSERT_EQ(vs.ops.size(), 3u);
  EXPECT_EQ(static_cast<int64_t>(vs.ops[2].imm), -1);
  EXPECT_EQ(one("vote.sync.any.pred %p1, !%p2, %r1").vote, VoteMode::Any);
  EXPECT_EQ(one("vote.uni.pred %p1, %p2").vote, VoteMode::Uni);

  Instruction s = one("shfl.sync.down.b32 %r1|%p1, %r2, 1, 31, -1");
  EXPECT_EQ(s.op, Opcode::Shfl);
  EXPECT_EQ(s.shfl, ShflMode::Down);
  EXPECT_TRUE(s.sync);
  ASSERT_EQ(s.ops.size(), 6u);
  EXPECT_EQ(s.ops[1].kind, Operand::Kind::Reg);
  EXPECT_EQ(s.ops[1].reg_type, Type::Pred);
  EXPECT_EQ(s.ops[5].kind, Operand::Kind::Imm);
  Instruction s2 = one("shfl.idx.b32 %r1, %r2, %r3, 31");
  EXPECT_EQ(s2.shfl, ShflMode::Idx);
  ASSERT_EQ(s2.ops.size(), 6u);
  EXPECT_EQ(s2.ops[1].kind, Operand::Kind::None);
  EXPECT_EQ(s2.ops[5].kind, Operand::Kind::None);
  EXPECT_EQ(one("shfl.sync.up.b32 %r1, %r2, 1, 0, %r3").shfl, ShflMode::Up);
  EXPECT_EQ(one("shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1").shfl, ShflMode::Bfly);
  Instruction am = one("activemask.b32 %r1");
  EXPECT_EQ(am.op, Opcode::Activemask);
  EXPECT_EQ(am.ops.size(), 1u);

  bad("vote.ballot.pred %p1, %p2", 1, "'vote.ballot' takes .b32, not .pred");
  bad("vote.sync.all.pred %p1, %p2", 1, "'vote' needs 3 operands, got 2");
  bad("vote.pred %p1, %p2", 1, "'vote' needs a mode");
  bad("shfl.sync.down.b32 %r1, %r2, 1, 31", 1, "'shfl' needs 5 operands, got 4");
  bad("shfl.down.f32 %f1, %f2, 1, 31", 10, "'shfl' does not accept type '.f32'");
  bad("shfl.sync.down.b32 %r1|%r2, %r3, 1, 31, -1", 24, "must be a .pred register");
  bad("activemask.b32 _", 16, "must be a register, not '_'");
}

}  // namespace
}  // namespace warptlm
