// The pre-decoded handlers against execute(): every form that gets a handler
// runs both ways on the same random registers, lane masks and guards, and
// must leave the same bytes in every register and the same outcome; forms
// that must stay with execute() get no handler.
#include "semantics/predecoded.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "harness.h"
#include "semantics/register_file.h"

namespace warptlm {
namespace {

using test::Harness;

// One function's registers: a few of every storage kind and declared width.
class PredecodedTest : public ::testing::TestWithParam<unsigned> {
 protected:
  // Register indices by declared type.
  enum : uint32_t {
    U32a,
    U32b,
    U32c,
    S32a,
    S32b,
    B32a,
    F32a,
    F32b,
    F32c,
    U16a,
    U64a,
    U64b,
    S64a,
    S64b,
    B64a,
    F64a,
    F64b,
    Pa,
    Pb,
    Pq,
    kRegs
  };

  void SetUp() override {
    const Type types[kRegs] = {Type::U32, Type::U32, Type::U32,  Type::S32,  Type::S32,
                               Type::B32, Type::F32, Type::F32,  Type::F32,  Type::U16,
                               Type::U64, Type::U64, Type::S64,  Type::S64,  Type::B64,
                               Type::F64, Type::F64, Type::Pred, Type::Pred, Type::Pred};
    module_.functions.resize(1);
    for (uint32_t i = 0; i < kRegs; ++i)
      module_.functions[0].regs.push_back({"%r" + std::to_string(i), types[i]});
    layout_ = RegisterLayout(module_.functions[0].regs, ws());
  }
  unsigned ws() const { return GetParam(); }

  Operand r(uint32_t reg, bool negated = false) const {
    Operand o;
    o.kind = Operand::Kind::Reg;
    o.reg = reg;
    o.reg_type = module_.functions[0].regs[reg].type;
    o.negated = negated;
    return o;
  }

  // A random value for lane storage of `t`, with the float specials often.
  uint64_t value(Type t) {
    std::uniform_int_distribution<int> pick(0, 9);
    const int k = pick(rng_);
    if (t == Type::F32 && k < 3) {
      const float specials[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1e-40f, -3.5f, 1e38f};
      float f = specials[rng_() % 8];
      uint32_t u;
      std::memcpy(&u, &f, 4);
      return u;
    }
    if (t == Type::F64 && k < 3) {
      const double specials[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1e-310, -3.5, 1e300};
      double f = specials[rng_() % 8];
      uint64_t u;
      std::memcpy(&u, &f, 8);
      return u;
    }
    // Equal values, so that eq/le/ge see both outcomes.
    if (is_float(t) && k == 3) return t == Type::F32 ? 0x40800000u : 0x4010000000000000ull;
    // Small values and the edges make comparisons and shifts interesting.
    if (k < 3) return rng_() % 70;
    if (k == 3) return uint64_t(-int64_t(rng_() % 4));
    if (k == 4) return uint64_t(1) << (type_bits(t) - 1);
    return rng_();
  }
  void randomise(RegisterStorage& s) {
    s.reset(layout_.bytes);
    const WarpRegisters regs{s.data(), layout_.slots.data(), ws()};
    for (uint32_t reg = 0; reg < kRegs; ++reg) {
      const Type t = module_.functions[0].regs[reg].type;
      if (t == Type::Pred) {
        *regs.pred(reg) = rng_();
        continue;
      }
      for (unsigned l = 0; l < ws(); ++l) regs.set(reg, l, value(t) & full_mask(type_bits(t)));
    }
  }

  // Runs `in` both ways many times; expects a handler and identical results.
  void same_as_execute(Instruction in, int trials = 150) {
    in.text = "test";
    const PredecodedInstruction plain = predecode(in, layout_.slots.data());
    ASSERT_TRUE(plain.run || plain.branch) << "no handler for this form";
    for (int trial = 0; trial < trials; ++trial) {
      Instruction guarded = in;
      const int g = trial % 3;  // no guard, @p, @!p
      guarded.has_guard = g != 0;
      guarded.guard_negated = g == 2;
      guarded.guard_reg = Pq;
      const PredecodedInstruction p = predecode(guarded, layout_.slots.data());
      RegisterStorage a, b;
      randomise(a);
      b.reset(layout_.bytes);
      std::memcpy(b.data(), a.data(), layout_.bytes);
      const LaneMask active = trial % 2 ? full_mask(ws()) : rng_();
      test::FakeEnv env;
      env.specials[{SpecialReg::Ctaid, 1}] = 7;
      env.specials[{SpecialReg::Clock64, 0}] = 0x123456789abcull;
      const Outcome want = execute(
          module_, guarded, WarpRegisters{a.data(), layout_.slots.data(), ws()}, active, env);
      Outcome got;
      ASSERT_TRUE(run_predecoded(p, b.data(), active, ws(), env, got));
      ASSERT_EQ(got.control, want.control) << "trial " << trial;
      ASSERT_EQ(got.executed, want.executed) << "trial " << trial;
      ASSERT_EQ(got.target, want.target) << "trial " << trial;
      ASSERT_EQ(std::memcmp(a.data(), b.data(), layout_.bytes), 0)
          << "registers differ after trial " << trial;
    }
  }
  void no_handler(Instruction in) {
    in.text = "test";
    const PredecodedInstruction p = predecode(in, layout_.slots.data());
    EXPECT_FALSE(p.run || p.branch);
    RegisterStorage s;
    randomise(s);
    Outcome out;
    test::FakeEnv env;
    EXPECT_FALSE(run_predecoded(p, s.data(), full_mask(ws()), ws(), env, out));
  }

  static Instruction make(Opcode op, Type t, std::vector<Operand> ops) {
    return Harness::make(op, t, std::move(ops));
  }

  Module module_;
  RegisterLayout layout_;
  std::mt19937_64 rng_{12345};
};

TEST_P(PredecodedTest, IntegerArithmeticMatchesExecute) {
  for (Opcode op : {Opcode::Add, Opcode::Sub, Opcode::Mul, Opcode::Min, Opcode::Max, Opcode::Div,
                    Opcode::Rem}) {
    SCOPED_TRACE(opcode_name(op));
    same_as_execute(make(op, Type::U32, {r(U32a), r(U32b), r(U32c)}));
    same_as_execute(make(op, Type::S32, {r(S32a), r(S32b), Harness::imm(-7)}));
    same_as_execute(make(op, Type::S32, {r(S32a), r(S32a), r(S32b)}));  // d is a source
    same_as_execute(make(op, Type::U64, {r(U64a), r(U64b), Harness::imm(0x1234567890)}));
    same_as_execute(make(op, Type::S64, {r(S64a), r(S64b), r(S64a)}));
  }
  Instruction lo = make(Opcode::Mul, Type::S32, {r(S32a), r(S32b), Harness::imm(3)});
  lo.mul = MulMode::Lo;
  same_as_execute(lo);
  for (Type t : {Type::U32, Type::S32}) {
    Instruction wide = make(Opcode::Mul, t, {r(t == Type::U32 ? U64a : S64a), r(U32a), r(U32b)});
    wide.mul = MulMode::Wide;
    same_as_execute(wide);
    wide.ops[2] = Harness::imm(-4);
    same_as_execute(wide);
  }
  for (Type t : {Type::S32, Type::U64}) {
    const bool narrow = t == Type::S32;
    Instruction mad = make(Opcode::Mad, t,
                           {r(narrow ? S32a : U64a), r(narrow ? S32b : U64b),
                            r(narrow ? S32a : U64a), r(narrow ? S32b : U64a)});
    mad.mul = MulMode::Lo;
    same_as_execute(mad);
    mad.ops[2] = Harness::imm(40);
    same_as_execute(mad);
  }
}

TEST_P(PredecodedTest, LogicAndShiftsMatchExecute) {
  for (Opcode op : {Opcode::And, Opcode::Or, Opcode::Xor}) {
    same_as_execute(make(op, Type::B32, {r(B32a), r(U32a), r(U32b)}));
    same_as_execute(make(op, Type::B64, {r(B64a), r(U64a), Harness::imm(0xff00)}));
    same_as_execute(make(op, Type::Pred, {r(Pa), r(Pb), r(Pa)}));
  }
  for (Type t : {Type::U32, Type::S32, Type::U64, Type::S64}) {
    const bool narrow = type_bits(t) == 32;
    const uint32_t d = narrow ? U32a : U64a, a = narrow ? S32a : S64a;
    same_as_execute(make(Opcode::Bfe, t, {r(d), r(a), r(U32b), r(U32c)}));
    for (int64_t pos : {0, 7, 31, 40, 70})
      for (int64_t len : {0, 1, 8, 33, 64, 300})
        same_as_execute(make(Opcode::Bfe, t, {r(d), r(a), Harness::imm(pos), Harness::imm(len)}),
                        30);
    same_as_execute(make(Opcode::Bfe, t, {r(d), r(a), Harness::imm(3), r(U32c)}));
    same_as_execute(make(Opcode::Bfe, t, {r(d), r(a), r(U32b), Harness::imm(12)}));
  }
  same_as_execute(make(Opcode::Not, Type::B32, {r(U32a), r(U32b)}));
  same_as_execute(make(Opcode::Not, Type::B64, {r(U64a), r(U64a)}));
  same_as_execute(make(Opcode::Not, Type::Pred, {r(Pa), r(Pb)}));
  for (Type t : {Type::B32, Type::U32, Type::S32, Type::B64, Type::U64, Type::S64}) {
    const bool narrow = type_bits(t) == 32;
    const uint32_t d = narrow ? U32a : U64a, a = narrow ? S32a : S64a;
    same_as_execute(make(Opcode::Shr, t, {r(d), r(a), r(U32b)}));
    same_as_execute(make(Opcode::Shl, t, {r(d), r(a), r(U32b)}));
    for (int64_t amount : {0, 5, 31, 32, 63, 64, 200})
      same_as_execute(make(Opcode::Shr, t, {r(d), r(a), Harness::imm(amount)}), 60);
  }
}

TEST_P(PredecodedTest, ComparisonsAndSelectsMatchExecute) {
  for (CmpOp c : {CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge, CmpOp::Lo,
                  CmpOp::Ls, CmpOp::Hi, CmpOp::Hs}) {
    for (Type t : {Type::U32, Type::S32, Type::U64, Type::S64}) {
      const bool narrow = type_bits(t) == 32;
      Instruction in =
          make(Opcode::Setp, t,
               {r(Pa), Harness::none(), r(narrow ? S32a : S64a), r(narrow ? U32b : U64b)});
      in.cmp = c;
      same_as_execute(in);
      in.ops[3] = Harness::imm(-1);
      same_as_execute(in);
      in.ops[3] = Harness::imm(17);
      same_as_execute(in);
    }
  }
  // Float comparisons, ordered and unordered, with NaNs, infinities, signed
  // zeros and subnormals (flushed by .ftz) among the values.
  for (CmpOp c :
       {CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge, CmpOp::Equ, CmpOp::Neu,
        CmpOp::Ltu, CmpOp::Leu, CmpOp::Gtu, CmpOp::Geu, CmpOp::Num, CmpOp::Nan}) {
    for (bool ftz : {false, true}) {
      Instruction in = make(Opcode::Setp, Type::F32, {r(Pa), Harness::none(), r(F32a), r(F32b)});
      in.cmp = c;
      in.ftz = ftz;
      same_as_execute(in, 60);
      for (float lit : {4.0f, -0.0f, 1e-40f, NAN, -INFINITY}) {
        in.ops[3] = Harness::f32(lit);
        same_as_execute(in, 30);
      }
    }
    Instruction in = make(Opcode::Setp, Type::F64, {r(Pb), Harness::none(), r(F64a), r(F64b)});
    in.cmp = c;
    same_as_execute(in, 60);
    for (double lit : {4.0, -0.0, 1e-310, double(NAN)}) {
      in.ops[3] = Harness::f64(lit);
      same_as_execute(in, 30);
    }
  }
  for (Type t : {Type::U32, Type::F32, Type::S64}) {
    const uint32_t d = t == Type::S64 ? S64a : (t == Type::F32 ? F32a : U32a);
    const uint32_t s = t == Type::S64 ? U64b : (t == Type::F32 ? F32b : U32b);
    same_as_execute(make(Opcode::Selp, t, {r(d), r(s), r(d), r(Pb)}));
    if (t != Type::F32) {
      same_as_execute(make(Opcode::Selp, t, {r(d), Harness::imm(1), Harness::imm(0), r(Pb)}));
      same_as_execute(make(Opcode::Selp, t, {r(d), r(s), Harness::imm(-1), r(Pb)}));
      same_as_execute(make(Opcode::Selp, t, {r(d), Harness::imm(9), r(s), r(Pb)}));
    }
  }
}

TEST_P(PredecodedTest, MovesAndConversionsMatchExecute) {
  same_as_execute(make(Opcode::Mov, Type::U32, {r(U32a), r(U32b)}));
  same_as_execute(make(Opcode::Mov, Type::U32, {r(U32a), r(U16a)}));  // a narrower register
  same_as_execute(make(Opcode::Mov, Type::F32, {r(F32a), r(F32b)}));
  same_as_execute(make(Opcode::Mov, Type::B64, {r(U64a), r(F64a)}));
  same_as_execute(make(Opcode::Mov, Type::S32, {r(S32a), Harness::imm(-5)}));
  same_as_execute(make(Opcode::Mov, Type::U64, {r(U64a), Harness::imm(-5)}));
  same_as_execute(make(Opcode::Mov, Type::Pred, {r(Pa), r(Pq)}));
  // Special registers: per lane (%tid.x, %laneid) and per warp, into 32
  // and 64-bit registers (the environment answers the warp at once).
  same_as_execute(make(Opcode::Mov, Type::U32, {r(U32a), Harness::special(SpecialReg::Tid)}));
  same_as_execute(make(Opcode::Mov, Type::S32, {r(S32a), Harness::special(SpecialReg::Laneid)}));
  same_as_execute(make(Opcode::Mov, Type::U32, {r(U32b), Harness::special(SpecialReg::Ctaid, 1)}));
  same_as_execute(make(Opcode::Mov, Type::U64, {r(U64a), Harness::special(SpecialReg::Clock64)}));
  same_as_execute(make(Opcode::Mov, Type::B32, {r(B32a), Harness::special(SpecialReg::Clock64)}));
  for (Space space : {Space::Global, Space::Shared, Space::Local, Space::Const, Space::Param}) {
    for (bool to : {true, false}) {
      for (Type t : {Type::U64, Type::U32, Type::B64}) {
        const uint32_t reg = type_bits(t) == 32 ? U32a : U64a;
        Instruction in = make(Opcode::Cvta, t, {r(reg), r(type_bits(t) == 32 ? U32b : U64b)});
        in.space = space;
        in.cvta_to = to;
        same_as_execute(in);
      }
    }
  }
  for (Type dt : {Type::U32, Type::S32, Type::U64, Type::S64}) {
    for (Type st : {Type::U32, Type::S32, Type::U64, Type::S64}) {
      const uint32_t d =
          type_bits(dt) == 32 ? (dt == Type::U32 ? U32a : S32a) : (dt == Type::U64 ? U64a : S64a);
      const uint32_t s = type_bits(st) == 32 ? S32b : S64b;
      Instruction in = make(Opcode::Cvt, dt, {r(d), r(s)});
      in.src_type = st;
      same_as_execute(in);
    }
  }
}

TEST_P(PredecodedTest, FloatArithmeticAndBranchesMatchExecute) {
  for (Opcode op : {Opcode::Add, Opcode::Sub, Opcode::Mul}) {
    Instruction in = make(op, Type::F32, {r(F32a), r(F32b), r(F32c)});
    same_as_execute(in);
    in.rnd = Rounding::Rn;
    same_as_execute(in);
  }
  same_as_execute(make(Opcode::Bra, Type::None, {Harness::label(0x40)}));
}

TEST_P(PredecodedTest, FormsItDoesNotCoverStayWithExecute) {
  Instruction sat = make(Opcode::Add, Type::S32, {r(S32a), r(S32b), r(S32a)});
  sat.sat = true;
  no_handler(sat);
  Instruction carry = make(Opcode::Add, Type::U32, {r(U32a), r(U32b), r(U32c)});
  carry.carry_out = true;
  no_handler(carry);
  // A destination declared narrower than the type is truncated by execute().
  no_handler(make(Opcode::Add, Type::U32, {r(U16a), r(U32b), r(U32c)}));
  // A 64-bit register in a 32-bit form is stored in 8-byte lanes.
  no_handler(make(Opcode::Add, Type::U32, {r(U32a), r(U64b), r(U32c)}));
  no_handler(make(Opcode::Add, Type::U16, {r(U16a), r(U16a), r(U16a)}));
  no_handler(make(Opcode::And, Type::Pred, {r(Pa), r(Pb, true), r(Pq)}));  // !p
  Instruction ftz = make(Opcode::Add, Type::F32, {r(F32a), r(F32b), r(F32c)});
  ftz.ftz = true;
  no_handler(ftz);
  Instruction rz = make(Opcode::Mul, Type::F32, {r(F32a), r(F32b), r(F32c)});
  rz.rnd = Rounding::Rz;
  no_handler(rz);
  no_handler(make(Opcode::Add, Type::F32, {r(F32a), r(F32b), Harness::f32(1.5f)}));
  no_handler(make(Opcode::Add, Type::F64, {r(F64a), r(F64a), r(F64a)}));
  Instruction hi = make(Opcode::Mul, Type::U32, {r(U32a), r(U32b), r(U32c)});
  hi.mul = MulMode::Hi;
  no_handler(hi);
  Instruction pq = make(Opcode::Setp, Type::U32, {r(Pa), r(Pb), r(U32a), r(U32b)});
  pq.cmp = CmpOp::Lt;
  no_handler(pq);  // p|q
  Instruction int_literal =
      make(Opcode::Setp, Type::F32, {r(Pa), Harness::none(), r(F32a), Harness::imm(4)});
  int_literal.cmp = CmpOp::Lt;
  no_handler(int_literal);  // an integer literal converted to the float type
  Instruction unsigned_op =
      make(Opcode::Setp, Type::F32, {r(Pa), Harness::none(), r(F32a), r(F32b)});
  unsigned_op.cmp = CmpOp::Lo;
  no_handler(unsigned_op);  // execute() reports it
  Instruction combined =
      make(Opcode::Setp, Type::U32, {r(Pa), Harness::none(), r(U32a), r(U32b), r(Pq)});
  combined.cmp = CmpOp::Lt;
  combined.boolop = BoolOp::And;
  no_handler(combined);
  no_handler(make(Opcode::Mov, Type::U64, {r(U32a), Harness::special(SpecialReg::Tid)}));
  no_handler(make(Opcode::Mov, Type::F32, {r(F32a), Harness::special(SpecialReg::Tid)}));
  Operand negated_special = Harness::special(SpecialReg::Tid);
  negated_special.negated = true;
  no_handler(make(Opcode::Mov, Type::U32, {r(U32a), negated_special}));
  Instruction cvt_sat = make(Opcode::Cvt, Type::U32, {r(U32a), r(S64a)});
  cvt_sat.src_type = Type::S64;
  cvt_sat.sat = true;
  no_handler(cvt_sat);
  Instruction guard_not_pred = make(Opcode::Add, Type::U32, {r(U32a), r(U32b), r(U32c)});
  guard_not_pred.has_guard = true;
  guard_not_pred.guard_reg = U32a;
  no_handler(guard_not_pred);
}

INSTANTIATE_TEST_SUITE_P(WarpSizes, PredecodedTest, ::testing::Values(32u, 4u, 64u),
                         [](const auto& info) { return "warp" + std::to_string(info.param); });

}  // namespace
}  // namespace warptlm
