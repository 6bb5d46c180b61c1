// mov and operand access: specials, symbols, immediates of every kind,
// register-width extension rules, vector pack/unpack, error messages.
#include <string>

#include "harness.h"

namespace warptlm::test {
namespace {

uint64_t mov(Type t, const Operand& src, Type reg = Type::None) {
  Harness h;
  const uint32_t d = h.reg(reg == Type::None ? t : reg);
  h.run(Harness::make(Opcode::Mov, t, {h.r(d), src}), 1);
  return h.get(d, 0);
}

TEST(MoveOperands, SpecialRegistersPerLane) {
  Harness h;
  h.env.specials[{SpecialReg::Ntid, 0}] = 256;
  h.env.specials[{SpecialReg::Clock64, 0}] = 0x123456789abcull;
  const uint32_t lane = h.reg(Type::U32), tid = h.reg(Type::U32), ntid = h.reg(Type::U32),
                 clk = h.reg(Type::U64), clk32 = h.reg(Type::U32);
  h.run(Harness::make(Opcode::Mov, Type::U32, {h.r(lane), Harness::special(SpecialReg::Laneid)}));
  h.run(Harness::make(Opcode::Mov, Type::U32, {h.r(tid), Harness::special(SpecialReg::Tid, 0)}));
  h.run(Harness::make(Opcode::Mov, Type::U32, {h.r(ntid), Harness::special(SpecialReg::Ntid, 0)}));
  h.run(Harness::make(Opcode::Mov, Type::U64, {h.r(clk), Harness::special(SpecialReg::Clock64)}));
  h.run(Harness::make(Opcode::Mov, Type::U32, {h.r(clk32), Harness::special(SpecialReg::Clock64)}));
  for (unsigned l = 0; l < 4; ++l) {
    EXPECT_EQ(h.get(lane, l), l);
    EXPECT_EQ(h.get(tid, l), 100 + l);
    EXPECT_EQ(h.get(ntid, l), 256u);
  }
  EXPECT_EQ(h.get(clk, 0), 0x123456789abcull);
  EXPECT_EQ(h.get(clk32, 0), 0x56789abcull);
}

TEST(MoveOperands, SymbolAddress) {
  Harness h;
  h.env.symbols = {0x1000, 0x2000};
  const uint32_t d = h.reg(Type::U64);
  h.run(Harness::make(Opcode::Mov, Type::U64, {h.r(d), Harness::symbol(1, 8)}), 1);
  EXPECT_EQ(h.get(d, 0), 0x2008u);
}

TEST(MoveOperands, Immediates) {
  EXPECT_EQ(mov(Type::U32, Harness::imm(-1)), 0xffffffffu);
  EXPECT_EQ(mov(Type::S64, Harness::imm(-1)), ~0ull);
  EXPECT_EQ(mov(Type::U16, Harness::imm(0x12345)), 0x2345u);
  EXPECT_EQ(mov(Type::Pred, Harness::imm(1)), 1u);
  EXPECT_EQ(mov(Type::Pred, Harness::imm(0)), 0u);
  // Float literals keep their exact bits at their own width, NaN payload too.
  Operand nan32 = Harness::f32(0);
  nan32.imm = 0x7fc12345;
  EXPECT_EQ(mov(Type::F32, nan32), 0x7fc12345u);
  EXPECT_EQ(mov(Type::B32, nan32), 0x7fc12345u);
  EXPECT_EQ(mov(Type::F64, Harness::f64(0.1)), dbits(0.1));
  EXPECT_EQ(mov(Type::F32, Harness::f64(1.5)), fbits(1.5f));  // decimal literal -> f32
  EXPECT_EQ(mov(Type::B32, Harness::f64(1.5)), fbits(1.5f));
  EXPECT_EQ(mov(Type::F64, Harness::f32(0.5f)), dbits(0.5));
  EXPECT_EQ(mov(Type::F16, Harness::f32(1.0f)), 0x3c00u);
  EXPECT_EQ(mov(Type::F32, Harness::imm(3)), fbits(3.0f));  // integer literal -> value
  EXPECT_EQ(mov(Type::F64, Harness::imm(-2)), dbits(-2.0));
  EXPECT_THROW(mov(Type::Pred, Harness::f32(1.0f)), UnsupportedInstruction);
}

TEST(MoveOperands, RegisterWidthRules) {
  // A signed value narrower than the register is sign-extended, others zero-extended.
  EXPECT_EQ(mov(Type::S16, Harness::imm(-1), Type::S32), 0xffffffffu);
  EXPECT_EQ(mov(Type::S16, Harness::imm(-1), Type::U64), ~0ull);
  EXPECT_EQ(mov(Type::U16, Harness::imm(-1), Type::U32), 0xffffu);
  EXPECT_EQ(mov(Type::B16, Harness::imm(-1), Type::S32), 0xffffu);
  EXPECT_EQ(mov(Type::S64, Harness::imm(-1), Type::S32), 0xffffffffu);  // truncated to R
  // Reading a register as a narrower type takes its low bits, extended by the type.
  Harness h;
  const uint32_t d = h.reg(Type::S32), a = h.reg(Type::S32);
  h.set(a, 0, 0x12348000);
  h.run(Harness::make(Opcode::Add, Type::S16, {h.r(d), h.r(a), Harness::imm(0)}), 1);
  EXPECT_EQ(h.get(d, 0), 0xffff8000u);
}

TEST(MoveOperands, VectorPackUnpack) {
  Harness h;
  const uint32_t lo = h.reg(Type::B32), hi = h.reg(Type::B32), wide = h.reg(Type::B64),
                 h0 = h.reg(Type::B16), h1 = h.reg(Type::B16), w32 = h.reg(Type::B32);
  h.set(lo, 0, 0x11223344);
  h.set(hi, 0, 0xaabbccdd);
  h.run(Harness::make(Opcode::Mov, Type::B64, {h.r(wide), Harness::vec({h.r(lo), h.r(hi)})}), 1);
  EXPECT_EQ(h.get(wide, 0), 0xaabbccdd11223344ull);
  h.set(wide, 0, 0x0102030405060708ull);
  h.run(Harness::make(Opcode::Mov, Type::B64, {Harness::vec({h.r(lo), h.r(hi)}), h.r(wide)}), 1);
  EXPECT_EQ(h.get(lo, 0), 0x05060708u);
  EXPECT_EQ(h.get(hi, 0), 0x01020304u);
  h.run(
      Harness::make(Opcode::Mov, Type::B64, {Harness::vec({Harness::sink(), h.r(lo)}), h.r(wide)}),
      1);
  EXPECT_EQ(h.get(lo, 0), 0x01020304u);
  h.run(Harness::make(Opcode::Mov, Type::B32,
                      {h.r(w32), Harness::vec({Harness::imm(0xbeef), Harness::imm(0x1dead)})}),
        1);
  EXPECT_EQ(h.get(w32, 0), 0xdeadbeefu);
  h.run(Harness::make(Opcode::Mov, Type::B32, {Harness::vec({h.r(h0), h.r(h1)}), h.r(w32)}), 1);
  EXPECT_EQ(h.get(h0, 0), 0xbeefu);
  EXPECT_EQ(h.get(h1, 0), 0xdeadu);
  EXPECT_THROW(h.run(Harness::make(Opcode::Mov, Type::B32,
                                   {h.r(w32), Harness::vec({h.r(lo), h.r(hi), h.r(lo)})})),
               UnsupportedInstruction);
}

TEST(MoveOperands, ErrorsNameOpcodeAndText) {
  Harness h;
  const uint32_t d = h.reg(Type::U64);
  Instruction in = Harness::make(Opcode::Mov, Type::U64, {h.r(d), Harness::label(8)});
  in.text = "mov.u64 %rd1, $L1;";
  try {
    h.run(in);
    FAIL() << "expected UnsupportedInstruction";
  } catch (const UnsupportedInstruction& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("mov.u64"), std::string::npos) << what;
    EXPECT_NE(what.find("mov.u64 %rd1, $L1;"), std::string::npos) << what;
  }
  in.ops.pop_back();
  EXPECT_THROW(h.run(in), UnsupportedInstruction);  // missing operand
  const uint32_t f = h.reg(Type::F32);
  EXPECT_THROW(h.run(Harness::make(Opcode::Mov, Type::F32, {h.r(f), h.r(d, true)})),
               UnsupportedInstruction);  // `!` on a non-predicate
}

// The operand decoders' errors, each with its own reason.
TEST(MoveOperands, OperandErrorsSayWhy) {
  Harness h;
  const uint32_t d = h.reg(Type::U32), s = h.reg(Type::U32);
  auto why = [&](const Instruction& in) -> std::string {
    try {
      h.run(in);
    } catch (const UnsupportedInstruction& e) {
      return e.what();
    }
    return "no error";
  };
  auto has = [](const std::string& what, const char* part) {
    EXPECT_NE(what.find(part), std::string::npos) << what;
  };
  has(why(Harness::make(Opcode::Add, Type::U32, {Harness::imm(1), h.r(s), h.r(s)})),
      "destination is not a register");
  has(why(Harness::make(Opcode::Add, Type::U32, {h.r(d), h.r(s, true), h.r(s)})),
      "`!` on a non-predicate operand");
  has(why(Harness::make(Opcode::Add, Type::U32, {h.r(d), Harness::label(8), h.r(s)})),
      "cannot be a source");
}

}  // namespace
}  // namespace warptlm::test
