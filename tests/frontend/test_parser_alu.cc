// Decoding of arithmetic, logic, float-function, conversion and comparison
// instructions: opcode, types and every modifier field, plus the modifier
// and type combinations each opcode rejects.
#include <gtest/gtest.h>

#include "parser_test_util.h"

namespace warptlm {
namespace {

using test::expect_body_error;
using test::kStdRegs;

Instruction one(const std::string& inst) { return test::decode_one(kStdRegs, inst); }

void bad(const std::string& inst, uint32_t col, const std::string& what) {
  expect_body_error(std::string(kStdRegs) + "\n" + inst + ";", 2, col, what);
}

TEST(PtxAlu, AddSubMul) {
  Instruction a = one("add.s32 %r1, %r2, %r3");
  EXPECT_EQ(a.op, Opcode::Add);
  EXPECT_EQ(a.type, Type::S32);
  EXPECT_EQ(a.src_type, Type::None);
  EXPECT_TRUE(one("add.sat.s32 %r1, %r2, %r3").sat);
  Instruction f = one("add.rz.ftz.sat.f32 %f1, %f2, %f3");
  EXPECT_EQ(f.rnd, Rounding::Rz);
  EXPECT_TRUE(f.ftz);
  EXPECT_TRUE(f.sat);
  EXPECT_EQ(one("sub.u64 %rd1, %rd2, 4").op, Opcode::Sub);
  EXPECT_EQ(one("sub.rn.f64 %fd1, %fd2, %fd3").rnd, Rounding::Rn);
  EXPECT_EQ(one("mul.lo.s32 %r1, %r2, %r3").mul, MulMode::Lo);
  EXPECT_EQ(one("mul.hi.u32 %r1, %r2, %r3").mul, MulMode::Hi);
  Instruction w = one("mul.wide.s32 %rd1, %r2, 4");
  EXPECT_EQ(w.mul, MulMode::Wide);
  EXPECT_EQ(w.type, Type::S32);
  EXPECT_EQ(one("mul.wide.u16 %r1, %rs2, %rs3").type, Type::U16);
  EXPECT_EQ(one("mul.rn.f32 %f1, %f2, %f3").mul, MulMode::None);

  bad("add.pred %p1, %p2, %p3", 4, "'add' does not accept type '.pred'");
  bad("add.b32 %r1, %r2, %r3", 4, "'add' does not accept type '.b32'");
  bad("add.cc.u16 %rs1, %rs2, %rs3", 4, "'add.cc' (carry flag) takes .u32, .s32, .u64 or .s64");
  bad("add.sat.u32 %r1, %r2, %r3", 4, "'add.sat' requires .s32");
  bad("add.ftz.f64 %fd1, %fd2, %fd3", 4, "'.ftz' on 'add' requires .f32");
  bad("add.rn.s32 %r1, %r2, %r3", 4, "modifier '.rn' is not supported on 'add'");
  bad("add.s32.s32 %r1, %r2, %r3", 8, "'add' takes one type suffix");
  bad("add %r1, %r2, %r3", 1, "'add' needs a type suffix");
  bad("add.s32 %r1, %r2", 1, "'add' needs 3 operands, got 2");
  bad("add.s32 %r1, %r2, %r3, %r4", 24, "too many operands for 'add'");
  bad("mul.s32 %r1, %r2, %r3", 1, "integer 'mul' needs .lo, .hi or .wide");
  bad("mul.wide.s64 %rd1, %rd2, %rd3", 4, "'mul.wide' takes a 16- or 32-bit type");
  bad("mul.lo.hi.s32 %r1, %r2, %r3", 7, "modifier '.hi' is not supported on 'mul'");
}

TEST(PtxAlu, MadFmaAnd24BitForms) {
  Instruction m = one("mad.lo.s32 %r1, %r2, %r3, %r4");
  EXPECT_EQ(m.op, Opcode::Mad);
  EXPECT_EQ(m.ops.size(), 4u);
  EXPECT_EQ(one("mad.wide.u32 %rd1, %r2, %r3, %rd4").mul, MulMode::Wide);
  EXPECT_TRUE(one("mad.hi.sat.s32 %r1, %r2, %r3, %r4").sat);
  EXPECT_EQ(one("mad.rn.f32 %f1, %f2, %f3, %f4").rnd, Rounding::Rn);
  Instruction f = one("fma.rn.ftz.sat.f32 %f1, %f2, %f3, %f4");
  EXPECT_EQ(f.op, Opcode::Fma);
  EXPECT_TRUE(f.ftz && f.sat);
  EXPECT_EQ(one("fma.rm.f64 %fd1, %fd2, %fd3, %fd4").rnd, Rounding::Rm);
  Instruction m24 = one("mul24.hi.u32 %r1, %r2, %r3");
  EXPECT_EQ(m24.op, Opcode::Mul24);
  EXPECT_EQ(m24.mul, MulMode::Hi);
  Instruction a24 = one("mad24.hi.sat.s32 %r1, %r2, %r3, %r4");
  EXPECT_EQ(a24.op, Opcode::Mad24);
  EXPECT_TRUE(a24.sat);

  bad("mad.lo.sat.s32 %r1, %r2, %r3, %r4", 7, "'mad.sat' requires .hi and .s32");
  bad("mad.f32 %f1, %f2, %f3, %f4", 1, "needs a rounding modifier");
  bad("fma.f32 %f1, %f2, %f3, %f4", 1, "needs a rounding modifier");
  bad("fma.rn.s32 %r1, %r2, %r3, %r4", 7, "'fma' does not accept type '.s32'");
  bad("mul24.wide.s32 %rd1, %r2, %r3", 6, "'mul24' has no .wide form");
  bad("mul24.lo.s64 %rd1, %rd2, %rd3", 9, "'mul24' does not accept type '.s64'");
}

TEST(PtxAlu, DivRemAbsNegMinMax) {
  Instruction d = one("div.s32 %r1, %r2, %r3");
  EXPECT_EQ(d.op, Opcode::Div);
  EXPECT_TRUE(one("div.approx.ftz.f32 %f1, %f2, %f3").approx);
  EXPECT_TRUE(one("div.full.f32 %f1, %f2, %f3").full);
  EXPECT_EQ(one("div.rn.f32 %f1, %f2, %f3").rnd, Rounding::Rn);
  EXPECT_EQ(one("div.rp.f64 %fd1, %fd2, %fd3").rnd, Rounding::Rp);
  EXPECT_EQ(one("rem.u64 %rd1, %rd2, %rd3").op, Opcode::Rem);
  EXPECT_EQ(one("abs.s16 %rs1, %rs2").op, Opcode::Abs);
  EXPECT_TRUE(one("abs.ftz.f32 %f1, %f2").ftz);
  EXPECT_EQ(one("neg.f64 %fd1, %fd2").op, Opcode::Neg);
  EXPECT_EQ(one("min.u32 %r1, %r2, %r3").op, Opcode::Min);
  Instruction mx = one("max.ftz.NaN.f32 %f1, %f2, %f3");
  EXPECT_EQ(mx.op, Opcode::Max);
  EXPECT_TRUE(mx.ftz);
  EXPECT_TRUE(mx.nan);
  EXPECT_EQ(one("copysign.f32 %f1, %f2, %f3").op, Opcode::Copysign);

  bad("div.f32 %f1, %f2, %f3", 1, "'div.f32' needs exactly one of .approx, .full");
  bad("div.approx.full.f32 %f1, %f2, %f3", 1, "needs exactly one of");
  bad("div.f64 %fd1, %fd2, %fd3", 1, "'div.f64' needs a rounding modifier");
  bad("rem.f32 %f1, %f2, %f3", 4, "'rem' does not accept type '.f32'");
  bad("abs.u32 %r1, %r2", 4, "'abs' does not accept type '.u32'");
  bad("max.NaN.f64 %fd1, %fd2, %fd3", 4, "'.NaN' on 'max' requires .f32");
  bad("neg.s32 %r1, %r2, %r3", 19, "too many operands for 'neg'");
}

TEST(PtxAlu, LogicAndBitOps) {
  Instruction a = one("and.pred %p1, %p2, %p3");
  EXPECT_EQ(a.op, Opcode::And);
  EXPECT_EQ(a.type, Type::Pred);
  EXPECT_EQ(one("or.b64 %rd1, %rd2, 1").op, Opcode::Or);
  EXPECT_EQ(one("xor.b16 %rs1, %rs2, %rs3").op, Opcode::Xor);
  EXPECT_EQ(one("not.pred %p1, %p2").op, Opcode::Not);
  EXPECT_EQ(one("cnot.b32 %r1, %r2").op, Opcode::Cnot);
  Instruction shl = one("shl.b64 %rd1, %rd2, %r3");
  EXPECT_EQ(shl.op, Opcode::Shl);
  EXPECT_EQ(shl.ops[2].reg_type, Type::B32);
  EXPECT_EQ(one("shr.s32 %r1, %r2, 3").type, Type::S32);
  EXPECT_EQ(one("shr.u16 %rs1, %rs2, 3").type, Type::U16);
  Instruction bfe = one("bfe.s64 %rd1, %rd2, 8, %r3");
  EXPECT_EQ(bfe.op, Opcode::Bfe);
  EXPECT_EQ(bfe.ops.size(), 4u);
  Instruction bfi = one("bfi.b32 %r1, %r2, %r3, 4, 8");
  EXPECT_EQ(bfi.op, Opcode::Bfi);
  EXPECT_EQ(bfi.ops.size(), 5u);
  EXPECT_EQ(one("popc.b64 %r1, %rd2").type, Type::B64);
  EXPECT_EQ(one("clz.b32 %r1, %r2").op, Opcode::Clz);
  EXPECT_EQ(one("brev.b32 %r1, %r2").op, Opcode::Brev);
  Instruction p = one("prmt.b32 %r1, %r2, %r3, %r4");
  EXPECT_EQ(p.op, Opcode::Prmt);
  EXPECT_EQ(p.prmt, PrmtMode::None);
  const struct {
    const char* mode;
    PrmtMode want;
  } modes[] = {{"f4e", PrmtMode::F4e}, {"b4e", PrmtMode::B4e}, {"rc8", PrmtMode::Rc8},
               {"ecl", PrmtMode::Ecl}, {"ecr", PrmtMode::Ecr}, {"rc16", PrmtMode::Rc16}};
  for (const auto& m : modes)
    EXPECT_EQ(one(std::string("prmt.b32.") + m.mode + " %r1, %r2, %r3, %r4").prmt, m.want);

  bad("and.s32 %r1, %r2, %r3", 4, "'and' does not accept type '.s32'");
  bad("cnot.pred %p1, %p2", 5, "'cnot' does not accept type '.pred'");
  bad("shl.u32 %r1, %r2, 1", 4, "'shl' does not accept type '.u32'");
  bad("bfi.b32 %r1, %r2, %r3, 4", 1, "'bfi' needs 5 operands, got 4");
  bad("popc.u32 %r1, %r2", 5, "'popc' does not accept type '.u32'");
  bad("prmt.b32.f4e.b4e %r1, %r2, %r3, %r4", 13, "modifier '.b4e' is not supported on 'prmt'");
}

TEST(PtxAlu, FloatFunctions) {
  Instruction r = one("rcp.rn.f32 %f1, %f2");
  EXPECT_EQ(r.op, Opcode::Rcp);
  EXPECT_EQ(r.rnd, Rounding::Rn);
  EXPECT_TRUE(one("rcp.approx.ftz.f64 %fd1, %fd2").approx);
  EXPECT_TRUE(one("sqrt.approx.f32 %f1, %f2").approx);
  EXPECT_EQ(one("sqrt.rn.f64 %fd1, %fd2").op, Opcode::Sqrt);
  EXPECT_EQ(one("rsqrt.approx.f64 %fd1, %fd2").op, Opcode::Rsqrt);
  Instruction e = one("ex2.approx.ftz.f32 %f1, %f2");
  EXPECT_EQ(e.op, Opcode::Ex2);
  EXPECT_TRUE(e.approx && e.ftz);
  EXPECT_EQ(one("lg2.approx.f32 %f1, %f2").op, Opcode::Lg2);
  EXPECT_EQ(one("sin.approx.f32 %f1, %f2").op, Opcode::Sin);
  EXPECT_EQ(one("cos.approx.ftz.f32 %f1, %f2").op, Opcode::Cos);
  const struct {
    const char* name;
    TestpOp op;
  } tests[] = {{"finite", TestpOp::Finite}, {"infinite", TestpOp::Infinite},
               {"number", TestpOp::Number}, {"notanumber", TestpOp::NotANumber},
               {"normal", TestpOp::Normal}, {"subnormal", TestpOp::Subnormal}};
  for (const auto& t : tests) {
    Instruction i = one(std::string("testp.") + t.name + ".f32 %p1, %f1");
    EXPECT_EQ(i.op, Opcode::Testp);
    EXPECT_EQ(i.testp, t.op);
  }

  bad("rcp.f32 %f1, %f2", 1, "'rcp.f32' needs .approx or a rounding modifier");
  bad("sqrt.approx.f64 %fd1, %fd2", 1, "only available as rcp.approx.ftz.f64");
  bad("rsqrt.f32 %f1, %f2", 1, "'rsqrt' needs .approx");
  bad("ex2.approx.f64 %fd1, %fd2", 11, "'ex2' does not accept type '.f64'");
  bad("sin.f32 %f1, %f2", 1, "'sin' needs .approx");
  bad("testp.f32 %p1, %f1", 1, "'testp' needs a test");
  bad("tanh.f32 %f1, %f2", 1, "'tanh' needs .approx");
  bad("dp4a.u32.u32 %r1, %r2, %r3, %r4", 1, "instruction 'dp4a' (sm_61) is not supported");
}

TEST(PtxAlu, SetpSetSelpSlct) {
  Instruction s = one("setp.lt.s32 %p1, %r1, %r2");
  EXPECT_EQ(s.op, Opcode::Setp);
  EXPECT_EQ(s.cmp, CmpOp::Lt);
  EXPECT_EQ(s.type, Type::S32);
  ASSERT_EQ(s.ops.size(), 4u);
  EXPECT_EQ(s.ops[1].kind, Operand::Kind::None);
  Instruction q = one("setp.gtu.or.ftz.f32 %p1|%p2, %f1, 0f00000000, %p3");
  EXPECT_EQ(q.cmp, CmpOp::Gtu);
  EXPECT_EQ(q.boolop, BoolOp::Or);
  EXPECT_TRUE(q.ftz);
  ASSERT_EQ(q.ops.size(), 5u);
  EXPECT_EQ(q.ops[1].kind, Operand::Kind::Reg);
  EXPECT_EQ(q.ops[3].kind, Operand::Kind::ImmF32);
  const struct {
    const char* text;
    CmpOp op;
  } cmps[] = {{"eq.b32", CmpOp::Eq},   {"ne.s64", CmpOp::Ne},   {"le.u16", CmpOp::Le},
              {"ge.f64", CmpOp::Ge},   {"gt.u32", CmpOp::Gt},   {"lo.u32", CmpOp::Lo},
              {"ls.u64", CmpOp::Ls},   {"hi.u32", CmpOp::Hi},   {"hs.u32", CmpOp::Hs},
              {"equ.f32", CmpOp::Equ}, {"neu.f32", CmpOp::Neu}, {"ltu.f32", CmpOp::Ltu},
              {"leu.f64", CmpOp::Leu}, {"geu.f32", CmpOp::Geu}, {"num.f32", CmpOp::Num},
              {"nan.f64", CmpOp::Nan}};
  for (const auto& c : cmps) {
    std::string t = c.text;
    bool f64 = t.find("f64") != std::string::npos, s64 = t.find("64") != std::string::npos;
    bool s16 = t.find("16") != std::string::npos, f32 = t.find("f32") != std::string::npos;
    std::string regs = f64   ? "%fd1, %fd2"
                       : f32 ? "%f1, %f2"
                       : s64 ? "%rd1, %rd2"
                       : s16 ? "%rs1, %rs2"
                             : "%r1, %r2";
    EXPECT_EQ(one("setp." + t + " %p1, " + regs).cmp, c.op) << t;
  }
  Instruction set = one("set.eq.and.u32.f32 %r1, %f1, %f2, !%p1");
  EXPECT_EQ(set.op, Opcode::Set);
  EXPECT_EQ(set.type, Type::U32);
  EXPECT_EQ(set.src_type, Type::F32);
  EXPECT_EQ(set.boolop, BoolOp::And);
  EXPECT_EQ(set.ops.size(), 4u);
  Instruction selp = one("selp.f32 %f1, 0f3F800000, %f2, %p1");
  EXPECT_EQ(selp.op, Opcode::Selp);
  EXPECT_EQ(selp.type, Type::F32);
  Instruction slct = one("slct.ftz.u32.f32 %r1, %r2, %r3, %f1");
  EXPECT_EQ(slct.op, Opcode::Slct);
  EXPECT_EQ(slct.type, Type::U32);
  EXPECT_EQ(slct.src_type, Type::F32);
  EXPECT_TRUE(slct.ftz);

  bad("setp.lt.b32 %p1, %r1, %r2", 5, "comparison '.lt' is not valid for .b32");
  bad("setp.lo.s32 %p1, %r1, %r2", 5, "comparison '.lo' is not valid for .s32");
  bad("setp.equ.s32 %p1, %r1, %r2", 5, "comparison '.equ' is not valid for .s32");
  bad("setp.s32 %p1, %r1, %r2", 1, "'setp' needs a comparison");
  bad("setp.eq.and.s32 %p1, %r1, %r2", 1, "'setp' needs 4 operands, got 3");
  bad("setp.eq.s32 %p1, %r1|%p2, %r2", 21, "'|' may only follow the first operand");
  bad("set.eq.u32 %r1, %r2, %r3", 1, "'set' needs two type suffixes");
  bad("set.eq.u64.s32 %rd1, %r2, %r3", 7, "'set' does not accept type '.u64'");
  bad("slct.ftz.s32.s32 %r1, %r2, %r3, %r4", 5, "'slct.ftz' requires a .f32 selector");
  bad("add.s32 %r1|%p1, %r2, %r3", 13, "'add' has no second destination");
}

TEST(PtxAlu, ConversionsAndMoves) {
  Instruction c = one("cvt.rn.f32.s32 %f1, %r1");
  EXPECT_EQ(c.op, Opcode::Cvt);
  EXPECT_EQ(c.type, Type::F32);
  EXPECT_EQ(c.src_type, Type::S32);
  EXPECT_EQ(c.rnd, Rounding::Rn);
  const struct {
    const char* text;
    Rounding rnd;
  } ok[] = {
      {"cvt.rzi.s32.f32 %r1, %f1", Rounding::Rzi},  {"cvt.rni.u64.f64 %rd1, %fd1", Rounding::Rni},
      {"cvt.rmi.s16.f32 %rs1, %f1", Rounding::Rmi}, {"cvt.rpi.f32.f32 %f1, %f2", Rounding::Rpi},
      {"cvt.rz.f32.f64 %f1, %fd1", Rounding::Rz},   {"cvt.rm.f64.u64 %fd1, %rd1", Rounding::Rm},
      {"cvt.f64.f32 %fd1, %f1", Rounding::None},    {"cvt.u32.u64 %r1, %rd1", Rounding::None},
      {"cvt.s64.s32 %rd1, %r1", Rounding::None},    {"cvt.u8.u32 %rs1, %r1", Rounding::None},
      {"cvt.rn.f16.f32 %rs1, %f1", Rounding::Rn},   {"cvt.f32.f16 %f1, %rs1", Rounding::None}};
  for (const auto& o : ok) EXPECT_EQ(one(o.text).rnd, o.rnd) << o.text;
  Instruction sat = one("cvt.rni.sat.ftz.s32.f32 %r1, %f1");
  EXPECT_TRUE(sat.sat);
  EXPECT_TRUE(sat.ftz);

  Instruction cvta = one("cvta.to.global.u64 %rd1, %rd2");
  EXPECT_EQ(cvta.op, Opcode::Cvta);
  EXPECT_TRUE(cvta.cvta_to);
  EXPECT_EQ(cvta.space, Space::Global);
  EXPECT_EQ(cvta.type, Type::U64);
  EXPECT_EQ(one("cvta.shared.u32 %r1, %r2").space, Space::Shared);
  EXPECT_EQ(one("cvta.const.u64 %rd1, %rd2").space, Space::Const);
  EXPECT_EQ(one("cvta.param.u64 %rd1, %rd2").space, Space::Param);
  EXPECT_FALSE(one("cvta.local.u64 %rd1, %rd2").cvta_to);

  Instruction mov = one("mov.u32 %r1, 42");
  EXPECT_EQ(mov.op, Opcode::Mov);
  EXPECT_EQ(mov.type, Type::U32);
  EXPECT_EQ(one("mov.pred %p1, %p2").type, Type::Pred);
  EXPECT_EQ(one("mov.f64 %fd1, 0d0000000000000000").ops[1].kind, Operand::Kind::ImmF64);

  bad("cvt.s32.f32 %r1, %f1", 1, "needs an integer rounding");
  bad("cvt.f32.s32 %f1, %r1", 1, "needs a rounding modifier (.rn, .rz, .rm, .rp)");
  bad("cvt.f32.f64 %f1, %fd1", 1, "needs a rounding modifier");
  bad("cvt.rn.f64.f32 %fd1, %f1", 4, "is exact and takes no rounding modifier");
  bad("cvt.rn.s32.s64 %r1, %rd1", 4, "integer 'cvt.s32.s64' takes no rounding modifier");
  bad("cvt.rn.f32.f32 %f1, %f2", 4, "only takes an integer rounding");
  bad("cvt.ftz.s32.s16 %r1, %rs1", 4, "'.ftz' on 'cvt' requires a .f32");
  bad("cvt.b32.s32 %r1, %r2", 4, "'cvt' does not accept type '.b32'");
  bad("cvt.u32 %r1, %r2", 1, "'cvt' needs two type suffixes");
  bad("cvta.u64 %rd1, %rd2", 1, "'cvta' needs a state space");
  bad("cvta.global.u16 %rs1, %rs2", 12, "'cvta' does not accept type '.u16'");
  bad("mov.b8 %r1, %r2", 4, "'mov' does not accept type '.b8'");
  bad("mov.b64 {%r1, %r2}, {%r3, %r4}", 21, "'mov' cannot have vectors on both sides");
  bad("mov.u64 %rd1, {%r1, %r2}", 1, "vector 'mov' needs a .b16, .b32 or .b64 type");
  bad("mov.b64 %rd1, {%r1, %r2, %r3}", 15, "a vector in 'mov' has 2 or 4 elements");
}

}  // namespace
}  // namespace warptlm
