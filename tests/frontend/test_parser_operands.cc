// Operands: registers, literals (and their normalisation to the operand's
// type), special registers, addresses, vectors, sinks, symbols, negation.
#include <gtest/gtest.h>

#include <cstring>

#include "parser_test_util.h"

namespace warptlm {
namespace {

using test::decode_one;
using test::expect_body_error;
using test::kStdRegs;

uint64_t f32_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}
uint64_t f64_bits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

TEST(PtxOperands, RegistersCarryTheirDeclaredType) {
  Instruction i = decode_one(kStdRegs, "add.s32 %r1, %r2, %r3");
  ASSERT_EQ(i.ops.size(), 3u);
  for (const auto& op : i.ops) {
    EXPECT_EQ(op.kind, Operand::Kind::Reg);
    EXPECT_EQ(op.reg_type, Type::B32);
  }
  // %p0..%p3, %rs0..%rs3, then %r0: %r1 is register 9.
  EXPECT_EQ(i.ops[0].reg, 9u);
  Instruction f = decode_one(kStdRegs, "mov.f32 %f1, %f2");
  EXPECT_EQ(f.ops[1].reg_type, Type::F32);
}

TEST(PtxOperands, IntegerLiterals) {
  Instruction i = decode_one(kStdRegs, "add.s32 %r1, %r2, -5");
  EXPECT_EQ(i.ops[2].kind, Operand::Kind::Imm);
  EXPECT_EQ(static_cast<int64_t>(i.ops[2].imm), -5);
  EXPECT_EQ(decode_one(kStdRegs, "and.b32 %r1, %r2, 0xFF00").ops[2].imm, 0xFF00u);
  EXPECT_EQ(decode_one(kStdRegs, "and.b32 %r1, %r2, 0xFFFFFFFFU").ops[2].imm, 0xFFFFFFFFu);
  EXPECT_EQ(decode_one(kStdRegs, "and.b32 %r1, %r2, 010").ops[2].imm, 8u);
  Instruction p = decode_one(kStdRegs, "mov.pred %p1, 1");
  EXPECT_EQ(p.ops[1].kind, Operand::Kind::Imm);
  EXPECT_EQ(p.ops[1].imm, 1u);
}

TEST(PtxOperands, FloatLiteralsAreNormalisedToTheOperandType) {
  Instruction a = decode_one(kStdRegs, "add.f32 %f1, %f2, 0f3FC00000");
  EXPECT_EQ(a.ops[2].kind, Operand::Kind::ImmF32);
  EXPECT_EQ(a.ops[2].imm, f32_bits(1.5f));
  Instruction b = decode_one(kStdRegs, "add.f32 %f1, %f2, 1.5");
  EXPECT_EQ(b.ops[2].kind, Operand::Kind::ImmF32);
  EXPECT_EQ(b.ops[2].imm, f32_bits(1.5f));
  Instruction c = decode_one(kStdRegs, "add.f64 %fd1, %fd2, 0d3FF8000000000000");
  EXPECT_EQ(c.ops[2].kind, Operand::Kind::ImmF64);
  EXPECT_EQ(c.ops[2].imm, f64_bits(1.5));
  Instruction d = decode_one(kStdRegs, "add.f64 %fd1, %fd2, 0f3FC00000");
  EXPECT_EQ(d.ops[2].kind, Operand::Kind::ImmF64);
  EXPECT_EQ(d.ops[2].imm, f64_bits(1.5));
  Instruction e = decode_one(kStdRegs, "mul.f64 %fd1, %fd2, 2.5");
  EXPECT_EQ(e.ops[2].kind, Operand::Kind::ImmF64);
  EXPECT_EQ(e.ops[2].imm, f64_bits(2.5));
  Instruction n = decode_one(kStdRegs, "add.f32 %f1, %f2, -0f3F800000");
  EXPECT_EQ(n.ops[2].imm, f32_bits(-1.0f));
  Instruction bits = decode_one(kStdRegs, "mov.b32 %r1, 0f3F800000");
  EXPECT_EQ(bits.ops[1].kind, Operand::Kind::ImmF32);
  EXPECT_EQ(bits.ops[1].imm, 0x3F800000u);
  expect_body_error(std::string(kStdRegs) + "\nadd.f32 %f1, %f2, 1;", 2, 19,
                    "operand 3 of 'add' is .f32: write a float literal");
  expect_body_error(std::string(kStdRegs) + "\nadd.s32 %r1, %r2, 1.0;", 2, 19,
                    "cannot take a floating-point literal");
}

TEST(PtxOperands, SpecialRegisters) {
  const struct {
    const char* text;
    SpecialReg reg;
    uint8_t comp;
  } cases[] = {{"%tid.x", SpecialReg::Tid, 0},
               {"%tid.y", SpecialReg::Tid, 1},
               {"%tid.z", SpecialReg::Tid, 2},
               {"%ntid.x", SpecialReg::Ntid, 0},
               {"%ctaid.y", SpecialReg::Ctaid, 1},
               {"%nctaid.z", SpecialReg::Nctaid, 2},
               {"%laneid", SpecialReg::Laneid, 0},
               {"%warpid", SpecialReg::Warpid, 0},
               {"%nwarpid", SpecialReg::Nwarpid, 0},
               {"%smid", SpecialReg::Smid, 0},
               {"%nsmid", SpecialReg::Nsmid, 0},
               {"%gridid", SpecialReg::Gridid, 0},
               {"%clock", SpecialReg::Clock, 0},
               {"%lanemask_eq", SpecialReg::LanemaskEq, 0},
               {"%lanemask_le", SpecialReg::LanemaskLe, 0},
               {"%lanemask_lt", SpecialReg::LanemaskLt, 0},
               {"%lanemask_ge", SpecialReg::LanemaskGe, 0},
               {"%lanemask_gt", SpecialReg::LanemaskGt, 0}};
  for (const auto& c : cases) {
    Instruction i = decode_one(kStdRegs, std::string("mov.u32 %r1, ") + c.text);
    EXPECT_EQ(i.ops[1].kind, Operand::Kind::Special) << c.text;
    EXPECT_EQ(i.ops[1].sreg, c.reg) << c.text;
    EXPECT_EQ(i.ops[1].comp, c.comp) << c.text;
  }
  Instruction c64 = decode_one(kStdRegs, "mov.u64 %rd1, %clock64");
  EXPECT_EQ(c64.ops[1].sreg, SpecialReg::Clock64);
  Instruction cvt = decode_one(kStdRegs, "cvt.u64.u32 %rd1, %ctaid.x");
  EXPECT_EQ(cvt.ops[1].kind, Operand::Kind::Special);
  expect_body_error(std::string(kStdRegs) + "\nmov.u32 %r1, %tid;", 2, 14,
                    "'%tid' needs a component .x, .y or .z");
  expect_body_error(std::string(kStdRegs) + "\nmov.u32 %r1, %laneid.x;", 2, 21,
                    "'%laneid' has no component '.x'");
  expect_body_error(std::string(kStdRegs) + "\nadd.u32 %r1, %tid.x, 1;", 2, 14,
                    "special registers can only be read by mov or cvt");
  EXPECT_EQ(decode_one(kStdRegs, "mov.u32 %r1, %globaltimer_lo").ops[1].sreg,
            SpecialReg::GlobalTimerLo);
  EXPECT_EQ(decode_one(kStdRegs, "mov.u32 %r1, WARP_SZ").ops[1].sreg, SpecialReg::WarpSize);
  const Instruction env = decode_one(kStdRegs, "mov.u32 %r1, %envreg2");
  EXPECT_EQ(env.ops[1].sreg, SpecialReg::EnvReg);
  EXPECT_EQ(env.ops[1].comp, 2);
  expect_body_error(std::string(kStdRegs) + "\nmov.u32 %r1, %envreg32;", 2, 14,
                    "'%envreg32' is not a special register (%envreg0 to %envreg31)");
  expect_body_error(std::string(kStdRegs) + "\nmov.u32 %r1, %envreg02;", 2, 14,
                    "'%envreg02' is not a special register (%envreg0 to %envreg31)");
  expect_body_error(std::string(kStdRegs) + "\nmov.u32 %r1, %pm0;", 2, 14,
                    "special register '%pm0' is not supported");
}

TEST(PtxOperands, Addresses) {
  const std::string decls = std::string(kStdRegs) + " .shared .b32 sh[4];";
  Instruction a = decode_one(decls, "ld.u32 %r1, [%rd2]");
  EXPECT_EQ(a.ops[1].kind, Operand::Kind::Address);
  EXPECT_TRUE(a.ops[1].has_reg);
  EXPECT_FALSE(a.ops[1].has_symbol);
  EXPECT_EQ(a.ops[1].reg_type, Type::B64);
  EXPECT_EQ(a.ops[1].offset, 0);
  EXPECT_EQ(decode_one(decls, "ld.u32 %r1, [%rd2+16]").ops[1].offset, 16);
  EXPECT_EQ(decode_one(decls, "ld.u32 %r1, [%rd2+-4]").ops[1].offset, -4);
  EXPECT_EQ(decode_one(decls, "ld.u32 %r1, [%rd2-8]").ops[1].offset, -8);
  Instruction s = decode_one(decls, "ld.shared.u32 %r1, [sh+12]");
  EXPECT_TRUE(s.ops[1].has_symbol);
  EXPECT_FALSE(s.ops[1].has_reg);
  EXPECT_EQ(s.ops[1].offset, 12);
  Instruction abs = decode_one(decls, "ld.shared.u32 %r1, [64]");
  EXPECT_FALSE(abs.ops[1].has_symbol);
  EXPECT_FALSE(abs.ops[1].has_reg);
  EXPECT_EQ(abs.ops[1].offset, 64);
  Instruction r32 = decode_one(decls, "ld.shared.u32 %r1, [%r2+4]");
  EXPECT_EQ(r32.ops[1].reg_type, Type::B32);
  expect_body_error(decls + "\nld.u32 %r1, [%p1];", 2, 14, "a .pred register cannot be an address");
  expect_body_error(decls + "\nld.u32 %r1, [%rd1+%r2];", 2, 19, "expected an integer offset");
  expect_body_error(decls + "\nld.u32 %r1, [nowhere];", 2, 14, "undeclared identifier 'nowhere'");
  expect_body_error(decls + "\nld.u32 %r1, [%rd1;", 2, 18, "expected ']' to close the address");
}

TEST(PtxOperands, VectorsAndSinks) {
  Instruction ld = decode_one(kStdRegs, "ld.global.v4.u32 {%r1, _, %r3, %r4}, [%rd1]");
  ASSERT_EQ(ld.ops[0].kind, Operand::Kind::Vector);
  ASSERT_EQ(ld.ops[0].elems.size(), 4u);
  EXPECT_EQ(ld.ops[0].elems[1].kind, Operand::Kind::Sink);
  EXPECT_EQ(ld.ops[0].elems[3].reg_type, Type::B32);
  Instruction st = decode_one(kStdRegs, "st.global.v2.f32 [%rd1], {%f1, 0f00000000}");
  EXPECT_EQ(st.ops[1].elems[1].kind, Operand::Kind::ImmF32);
  Instruction pack = decode_one(kStdRegs, "mov.b32 %r1, {%rs1, %rs2}");
  EXPECT_EQ(pack.ops[1].kind, Operand::Kind::Vector);
  Instruction unpack = decode_one(kStdRegs, "mov.b64 {%r1, %r2}, %rd1");
  EXPECT_EQ(unpack.ops[0].kind, Operand::Kind::Vector);
  EXPECT_EQ(unpack.ops[1].kind, Operand::Kind::Reg);
  Instruction sink = decode_one(kStdRegs, "atom.global.add.u32 _, [%rd1], 1");
  EXPECT_EQ(sink.ops[0].kind, Operand::Kind::Sink);
  expect_body_error(std::string(kStdRegs) + "\nld.global.v2.u32 {%r1, %r2, %r3}, [%rd1];", 2, 18,
                    "has 3 elements, expected 2");
  expect_body_error(std::string(kStdRegs) + "\nst.global.v2.u32 [%rd1], {%r1, _};", 2, 32,
                    "must be registers or literals");
  expect_body_error(std::string(kStdRegs) + "\nadd.s32 %r1, _, 1;", 2, 14,
                    "is a source and cannot be '_'");
}

TEST(PtxOperands, SymbolsAsValues) {
  const std::string decls = std::string(kStdRegs) + " .shared .align 4 .b8 buf[64];";
  Instruction mov = decode_one(decls, "mov.u64 %rd1, buf");
  EXPECT_EQ(mov.ops[1].kind, Operand::Kind::Symbol);
  Instruction mov32 = decode_one(decls, "mov.u32 %r1, buf");
  EXPECT_EQ(mov32.ops[1].kind, Operand::Kind::Symbol);
  Instruction cvta = decode_one(decls, "cvta.shared.u64 %rd1, buf");
  EXPECT_EQ(cvta.ops[1].kind, Operand::Kind::Symbol);
  expect_body_error(decls + "\nadd.u64 %rd1, buf, 4;", 2, 15,
                    "cannot be the address of a variable");
  expect_body_error(decls + "\nmov.f32 %f1, buf;", 2, 14, "cannot be the address of a variable");
}

TEST(PtxOperands, NegatedPredicates) {
  Instruction s = decode_one(kStdRegs, "setp.lt.and.s32 %p1, %r1, %r2, !%p2");
  ASSERT_EQ(s.ops.size(), 5u);
  EXPECT_TRUE(s.ops[4].negated);
  EXPECT_EQ(s.ops[4].reg_type, Type::Pred);
  Instruction v = decode_one(kStdRegs, "vote.any.pred %p1, !%p2");
  EXPECT_TRUE(v.ops[1].negated);
  expect_body_error(std::string(kStdRegs) + "\nand.pred %p1, !%p2, %p3;", 2, 15,
                    "cannot be negated");
  expect_body_error(std::string(kStdRegs) + "\nsetp.eq.and.s32 %p1, %r1, %r2, !5;", 2, 32,
                    "'!' must be followed by a predicate register");
  expect_body_error(std::string(kStdRegs) + "\nsetp.eq.and.s32 %p1, %r1, %r2, !!%p2;", 2, 32,
                    "'!' must be followed by a predicate register");
}

TEST(PtxOperands, RegisterKindChecks) {
  expect_body_error(std::string(kStdRegs) + "\nadd.s32 %p1, %r1, %r2;", 2, 9,
                    "operand 1 of 'add' cannot be a .pred register");
  expect_body_error(std::string(kStdRegs) + "\nsetp.eq.s32 %r1, %r1, %r2;", 2, 13,
                    "operand 1 of 'setp' must be a .pred register");
  expect_body_error(std::string(kStdRegs) + "\nselp.b32 %r1, %r2, %r3, %r4;", 2, 25,
                    "operand 4 of 'selp' must be a .pred register");
  expect_body_error(std::string(kStdRegs) + "\nadd.s32 5, %r1, %r2;", 2, 9,
                    "operand 1 of 'add' must be a register, not a literal");
  expect_body_error(std::string(kStdRegs) + "\nadd.s32 %r1, %r9, %r2;", 2, 14,
                    "undeclared register '%r9'");
  expect_body_error(std::string(kStdRegs) + "\n@%r1 ret;", 2, 2, "guard '%r1' is not a .pred");
  expect_body_error(std::string(kStdRegs) + "\n@%q ret;", 2, 2, "undeclared register '%q'");
}

}  // namespace
}  // namespace warptlm
