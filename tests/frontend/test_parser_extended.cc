// Decoding of the constructs real compiler output needs beyond the basic
// ALU set: extended-precision carry arithmetic (add.cc, addc, sub.cc, subc,
// mad.cc, madc) with its hidden carry register, shf, bfind, lop3, bmsk,
// redux.sync, trap and the shared-memory size special registers; plus what
// the finalizer makes of them (trap ends a block, the carry chain carries
// taint).
#include <gtest/gtest.h>

#include "finalizer_test_util.h"
#include "frontend/finalizer.h"
#include "parser_test_util.h"

namespace warptlm {
namespace {

using test::expect_body_error;
using test::kStdRegs;

Instruction one(const std::string& inst) { return test::decode_one(kStdRegs, inst); }

void bad(const std::string& inst, uint32_t col, const std::string& what) {
  expect_body_error(std::string(kStdRegs) + "\n" + inst + ";", 2, col, what);
}

// The hidden carry register of function `f`: its index, or -1 if absent.
int carry_reg(const Module& m, size_t f = 0) {
  const auto& regs = m.functions.at(f).regs;
  for (size_t i = 0; i < regs.size(); ++i)
    if (regs[i].name == kCarryFlagReg) return static_cast<int>(i);
  return -1;
}

void expect_carry_operand(const Module& m, const Operand& op) {
  EXPECT_EQ(op.kind, Operand::Kind::Reg);
  EXPECT_EQ(op.reg_type, Type::Pred);
  EXPECT_EQ(static_cast<int>(op.reg), carry_reg(m));
}

TEST(PtxCarry, AddSubForms) {
  Module m = test::parse_kernel(std::string(kStdRegs) +
                                "\nadd.cc.u32 %r1, %r2, %r3;"
                                "\naddc.cc.s32 %r4, %r5, 7;"
                                "\naddc.u32 %r6, 0, 0;"
                                "\nsub.cc.u64 %rd1, %rd2, %rd3;"
                                "\nsubc.s64 %rd4, %rd5, %rd6;");
  ASSERT_EQ(m.code.size(), 5u);
  // One hidden .pred register, declared after the function's own.
  ASSERT_EQ(carry_reg(m), static_cast<int>(m.functions[0].regs.size()) - 1);
  EXPECT_EQ(m.functions[0].regs.back().type, Type::Pred);

  const Instruction& add = m.code[0];
  EXPECT_EQ(add.op, Opcode::Add);
  EXPECT_EQ(add.type, Type::U32);
  EXPECT_TRUE(add.carry_out);
  EXPECT_FALSE(add.carry_in);
  ASSERT_EQ(add.ops.size(), 5u);  // d, CF-out, a, b, CF-in
  expect_carry_operand(m, add.ops[1]);
  EXPECT_EQ(add.ops[2].kind, Operand::Kind::Reg);
  EXPECT_EQ(add.ops[4].kind, Operand::Kind::None);

  const Instruction& addc = m.code[1];
  EXPECT_EQ(addc.op, Opcode::Add);
  EXPECT_TRUE(addc.carry_in && addc.carry_out);
  expect_carry_operand(m, addc.ops[1]);
  expect_carry_operand(m, addc.ops[4]);
  EXPECT_EQ(addc.ops[3].kind, Operand::Kind::Imm);
  EXPECT_EQ(addc.ops[3].imm, 7u);

  const Instruction& addc_in = m.code[2];
  EXPECT_TRUE(addc_in.carry_in);
  EXPECT_FALSE(addc_in.carry_out);
  EXPECT_EQ(addc_in.ops[1].kind, Operand::Kind::None);
  expect_carry_operand(m, addc_in.ops[4]);

  EXPECT_EQ(m.code[3].op, Opcode::Sub);
  EXPECT_TRUE(m.code[3].carry_out);
  EXPECT_EQ(m.code[3].type, Type::U64);
  EXPECT_EQ(m.code[4].op, Opcode::Sub);
  EXPECT_TRUE(m.code[4].carry_in);
  EXPECT_FALSE(m.code[4].carry_out);
}

TEST(PtxCarry, MadForms) {
  Module m = test::parse_kernel(std::string(kStdRegs) +
                                "\nmad.lo.cc.u32 %r1, %r2, %r3, %r4;"
                                "\nmadc.hi.cc.u32 %r1, %r2, %r3, 0;"
                                "\nmadc.lo.s64 %rd1, %rd2, %rd3, %rd4;");
  const Instruction& mad = m.code[0];
  EXPECT_EQ(mad.op, Opcode::Mad);
  EXPECT_EQ(mad.mul, MulMode::Lo);
  EXPECT_TRUE(mad.carry_out);
  EXPECT_FALSE(mad.carry_in);
  ASSERT_EQ(mad.ops.size(), 6u);  // d, CF-out, a, b, c, CF-in
  expect_carry_operand(m, mad.ops[1]);
  EXPECT_EQ(mad.ops[5].kind, Operand::Kind::None);
  const Instruction& madc = m.code[1];
  EXPECT_EQ(madc.mul, MulMode::Hi);
  EXPECT_TRUE(madc.carry_in && madc.carry_out);
  expect_carry_operand(m, madc.ops[5]);
  EXPECT_EQ(m.code[2].type, Type::S64);
  EXPECT_EQ(m.code[2].mul, MulMode::Lo);
  EXPECT_EQ(m.code[2].ops[1].kind, Operand::Kind::None);
}

TEST(PtxCarry, OneRegisterPerFunctionAndNoneWithoutCarry) {
  Module m = parse_ptx(
      ".version 7.0\n.target sm_70\n.address_size 64\n"
      ".func f()\n{\n.reg .b32 %r<3>;\nadd.cc.u32 %r1, %r1, %r2;\naddc.u32 %r2, 0, 0;\nret;\n}\n"
      ".visible .entry k()\n{\n.reg .b32 %r<3>;\nadd.u32 %r1, %r1, %r2;\nret;\n}\n"
      ".visible .entry c()\n{\n.reg .b64 %rd<2>;\nsub.cc.u64 %rd1, %rd1, 1;\nret;\n}\n");
  ASSERT_EQ(m.functions.size(), 3u);
  EXPECT_EQ(carry_reg(m, 0), 3);  // %r0..%r2, then the carry flag
  EXPECT_EQ(m.code[0].ops[1].reg, m.code[1].ops[4].reg);
  EXPECT_EQ(carry_reg(m, 1), -1);
  EXPECT_EQ(carry_reg(m, 2), 2);
}

TEST(PtxCarry, Errors) {
  bad("addc.f32 %f1, %f2, %f3", 1, "'addc' (carry flag) takes .u32, .s32, .u64 or .s64, not .f32");
  bad("subc.cc.u16 %rs1, %rs2, %rs3", 5, "'subc.cc' (carry flag) takes .u32");
  bad("mad.lo.cc.s16 %rs1, %rs2, %rs3, %rs1", 7, "'mad.cc' (carry flag) takes .u32");
  bad("madc.u32 %r1, %r2, %r3, %r4", 1, "'madc' needs .hi or .lo");
  bad("madc.wide.u32 %rd1, %r2, %r3, %rd4", 1, "'madc' needs .hi or .lo");
  bad("mad.wide.cc.u32 %rd1, %r2, %r3, %rd4", 1, "'mad.wide' has no .cc form");
  bad("add.cc.sat.s32 %r1, %r2, %r3", 7, "modifier '.sat' is not supported on 'add'");
  bad("addc.u32 %r1, %r2", 1, "'addc' needs 3 operands, got 2");
  bad("add.cc.u32 %r1|%p1, %r2, %r3", 16, "'add' has no second destination");
  // The carry register has no name a program can write.
  bad("add.u32 %r1, %cc.cf, 1", 14, "undeclared");
}

TEST(PtxBits, ShfBfindBmskLop3) {
  Instruction l = one("shf.l.wrap.b32 %r1, %r2, %r3, %r4");
  EXPECT_EQ(l.op, Opcode::Shf);
  EXPECT_FALSE(l.shift_right);
  EXPECT_FALSE(l.shift_clamp);
  EXPECT_EQ(l.ops.size(), 4u);
  Instruction r = one("shf.r.clamp.b32 %r1, %r2, %r3, 40");
  EXPECT_TRUE(r.shift_right && r.shift_clamp);
  EXPECT_EQ(r.ops[3].imm, 40u);

  Instruction b = one("bfind.u32 %r1, %r2");
  EXPECT_EQ(b.op, Opcode::Bfind);
  EXPECT_EQ(b.type, Type::U32);
  EXPECT_FALSE(b.shiftamt);
  Instruction bs = one("bfind.shiftamt.s64 %r1, %rd2");
  EXPECT_TRUE(bs.shiftamt);
  EXPECT_EQ(bs.type, Type::S64);

  Instruction m = one("bmsk.clamp.b32 %r1, %r2, 8");
  EXPECT_EQ(m.op, Opcode::Bmsk);
  EXPECT_TRUE(m.shift_clamp);
  EXPECT_FALSE(one("bmsk.wrap.b32 %r1, 1, 2").shift_clamp);

  Instruction t = one("lop3.b32 %r1, %r2, %r3, %r4, 0x96");
  EXPECT_EQ(t.op, Opcode::Lop3);
  ASSERT_EQ(t.ops.size(), 5u);
  EXPECT_EQ(t.ops[4].kind, Operand::Kind::Imm);
  EXPECT_EQ(t.ops[4].imm, 0x96u);

  bad("shf.l.b32 %r1, %r2, %r3, %r4", 1, "'shf' needs .clamp or .wrap");
  bad("shf.wrap.b32 %r1, %r2, %r3, %r4", 1, "'shf' needs a direction (.l or .r)");
  bad("shf.l.wrap.b64 %rd1, %rd2, %rd3, %r4", 11, "'shf' does not accept type '.b64'");
  bad("bfind.b32 %r1, %r2", 6, "'bfind' does not accept type '.b32'");
  bad("bmsk.b32 %r1, %r2, %r3", 1, "'bmsk' needs .clamp or .wrap");
  bad("lop3.b32 %r1, %r2, %r3, %r4, %r5", 30, "immLut) must be an integer literal 0..255");
  bad("lop3.b32 %r1, %r2, %r3, %r4, 256", 30, "immLut) must be an integer literal 0..255");
  bad("lop3.or.b32 %r1|%p1, %r2, %r3, %r4, 0x80, %p2", 5,
      "'lop3.or' (predicate output) is not supported");
}

TEST(PtxControl, TrapReduxSpecials) {
  Instruction t = one("trap");
  EXPECT_EQ(t.op, Opcode::Trap);
  EXPECT_TRUE(t.ops.empty());
  Instruction gt = one("@%p1 trap");
  EXPECT_TRUE(gt.has_guard);

  Instruction r = one("redux.sync.add.s32 %r1, %r2, -1");
  EXPECT_EQ(r.op, Opcode::Redux);
  EXPECT_EQ(r.atom, AtomOp::Add);
  EXPECT_EQ(r.type, Type::S32);
  ASSERT_EQ(r.ops.size(), 3u);
  EXPECT_EQ(one("redux.sync.max.u32 %r1, %r2, %r3").atom, AtomOp::Max);
  EXPECT_EQ(one("redux.sync.xor.b32 %r1, %r2, %r3").atom, AtomOp::Xor);

  Instruction dyn = one("mov.u32 %r1, %dynamic_smem_size");
  EXPECT_EQ(dyn.ops[1].kind, Operand::Kind::Special);
  EXPECT_EQ(dyn.ops[1].sreg, SpecialReg::DynamicSmemSize);
  EXPECT_EQ(one("mov.u32 %r1, %total_smem_size").ops[1].sreg, SpecialReg::TotalSmemSize);

  bad("trap %r1", 6, "too many operands for 'trap'");
  bad("redux.add.s32 %r1, %r2, -1", 1, "'redux' needs .sync");
  bad("redux.sync.s32 %r1, %r2, -1", 1, "'redux' needs an operation");
  bad("redux.sync.add.b32 %r1, %r2, -1", 1, "'redux.add' takes .u32 or .s32, not .b32");
  bad("redux.sync.or.u32 %r1, %r2, -1", 1, "'redux.or' takes .b32, not .u32");
  Instruction rf = one("redux.sync.max.abs.NaN.f32 %f1, %f2, -1");
  EXPECT_EQ(rf.type, Type::F32);
  EXPECT_TRUE(rf.abs);
  EXPECT_TRUE(rf.nan);
  EXPECT_FALSE(one("redux.sync.min.f32 %f1, %f2, -1").abs);
  bad("redux.sync.add.f32 %f1, %f2, -1", 1, "'redux.add' has no .f32 form");
  bad("redux.sync.min.abs.u32 %r1, %r2, -1", 15, "'.abs' belongs to redux's .f32 .min and .max");
  bad("redux.sync.add.s32 %r1, %r2", 1, "'redux' needs 3 operands, got 2");
}

TEST(PtxFinalize, TrapEndsItsBlockLikeExit) {
  // Without trap ending its block, the trap path would fall into L and the
  // branch would reconverge there; with it both paths leave the kernel.
  Program p = testing::finalize_ptx(testing::ptx_kernel(R"(
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra L;
  trap;
L:
  exit;
)"));
  EXPECT_EQ(testing::cond_branch(p, 0).reconv, kExitPc);
}

TEST(PtxFinalize, CarryChainCarriesTaint) {
  // The upper word depends on loaded data only through the carry flag.
  Program p = testing::finalize_ptx(testing::ptx_kernel(R"(
  ld.param.u64 %rd1, [k_ptr];
  ld.global.u32 %r1, [%rd1];
  mov.u32 %r2, %tid.x;
  add.cc.u32 %r3, %r1, 1;
  addc.u32 %r4, %r2, 0;
  setp.eq.u32 %p1, %r4, 0;
  @%p1 bra L;
  add.u32 %r5, %r2, 1;
L:
  add.cc.u32 %r6, %r2, 1;
  addc.u32 %r7, 0, 0;
  setp.eq.u32 %p2, %r7, 0;
  @%p2 bra M;
  add.u32 %r5, %r2, 2;
M:
  ret;
)"));
  EXPECT_EQ(testing::cond_branch(p, 0).taint, Taint::DataDependent);
  EXPECT_EQ(testing::cond_branch(p, 1).taint, Taint::Programmatic);
}

}  // namespace
}  // namespace warptlm
