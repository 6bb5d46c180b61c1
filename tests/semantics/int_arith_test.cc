// Integer arithmetic: wrap-around, saturation, mul/mad modes, 24-bit forms,
// division by zero and MIN/-1, abs/neg/min/max.
#include "harness.h"

namespace warptlm::test {
namespace {

constexpr uint64_t kMin32 = 0x80000000ull;
constexpr uint64_t kMin64 = 0x8000000000000000ull;

auto sat = [](Instruction& i) { i.sat = true; };
auto mode(MulMode m) {
  return [m](Instruction& i) { i.mul = m; };
}
auto mode_sat(MulMode m) {
  return [m](Instruction& i) {
    i.mul = m;
    i.sat = true;
  };
}

TEST(IntArith, AddSubWrapAround) {
  Harness h;
  EXPECT_EQ(h.eval(Opcode::Add, Type::S32, {0x7fffffff, 1}), kMin32);
  EXPECT_EQ(h.eval(Opcode::Add, Type::U16, {0xffff, 2}), 1u);
  EXPECT_EQ(h.eval(Opcode::Add, Type::S64, {0x7fffffffffffffff, 1}), kMin64);
  EXPECT_EQ(h.eval(Opcode::Sub, Type::U32, {0, 1}), 0xffffffffu);
  EXPECT_EQ(h.eval(Opcode::Sub, Type::S32, {5, 7}), 0xfffffffeu);  // -2 in an s32 register
}

TEST(IntArith, SaturatingAddSubS32) {
  Harness h;
  EXPECT_EQ(h.eval(Opcode::Add, Type::S32, {0x7fffffff, 1}, sat), 0x7fffffffu);
  EXPECT_EQ(h.eval(Opcode::Add, Type::S32, {kMin32, 0xffffffff}, sat), kMin32);
  EXPECT_EQ(h.eval(Opcode::Sub, Type::S32, {kMin32, 1}, sat), kMin32);
  EXPECT_EQ(h.eval(Opcode::Sub, Type::S32, {0x7fffffff, 0xffffffff}, sat), 0x7fffffffu);
  EXPECT_EQ(h.eval(Opcode::Add, Type::S32, {40, 2}, sat), 42u);
  EXPECT_THROW(h.eval(Opcode::Add, Type::U32, {1, 2}, sat), UnsupportedInstruction);
}

TEST(IntArith, MulLoHi) {
  Harness h;
  EXPECT_EQ(h.eval(Opcode::Mul, Type::U32, {0x10000, 0x10000}, mode(MulMode::Lo)), 0u);
  EXPECT_EQ(h.eval(Opcode::Mul, Type::U32, {0x10000, 0x10000}, mode(MulMode::Hi)), 1u);
  EXPECT_EQ(h.eval(Opcode::Mul, Type::S32, {0xfffffffe, 3}, mode(MulMode::Lo)), 0xfffffffau);
  EXPECT_EQ(h.eval(Opcode::Mul, Type::S32, {0xfffffffe, 3}, mode(MulMode::Hi)), 0xffffffffu);
  EXPECT_EQ(h.eval(Opcode::Mul, Type::S16, {0x7fff, 0x7fff}, mode(MulMode::Hi)), 0x3fffu);
  EXPECT_EQ(h.eval(Opcode::Mul, Type::U16, {0xffff, 0xffff}, mode(MulMode::Hi)), 0xfffeu);
}

TEST(IntArith, MulHi64UsesFullProduct) {
  Harness h;
  const uint64_t ones = ~0ull;
  EXPECT_EQ(h.eval(Opcode::Mul, Type::U64, {ones, ones}, mode(MulMode::Hi)), 0xfffffffffffffffeull);
  EXPECT_EQ(h.eval(Opcode::Mul, Type::U64, {ones, ones}, mode(MulMode::Lo)), 1u);
  EXPECT_EQ(h.eval(Opcode::Mul, Type::S64, {ones, ones}, mode(MulMode::Hi)), 0u);  // -1 * -1
  EXPECT_EQ(h.eval(Opcode::Mul, Type::S64, {ones, 1}, mode(MulMode::Hi)), ones);   // -1 * 1
  EXPECT_EQ(h.eval(Opcode::Mul, Type::S64, {kMin64, kMin64}, mode(MulMode::Hi)),
            0x4000000000000000ull);
}

TEST(IntArith, MulWideWritesDoubleWidth) {
  Harness h;
  EXPECT_EQ(h.eval(Opcode::Mul, Type::S32, {0xfffffffe, 3}, mode(MulMode::Wide), Type::S64),
            0xfffffffffffffffaull);
  EXPECT_EQ(
      h.eval(Opcode::Mul, Type::U32, {0xffffffff, 0xffffffff}, mode(MulMode::Wide), Type::U64),
      0xfffffffe00000001ull);
  EXPECT_EQ(h.eval(Opcode::Mul, Type::U16, {0xffff, 0xffff}, mode(MulMode::Wide), Type::U32),
            0xfffe0001u);
  EXPECT_EQ(h.eval(Opcode::Mul, Type::S16, {0x8000, 0x8000}, mode(MulMode::Wide), Type::S32),
            0x40000000u);
  EXPECT_THROW(h.eval(Opcode::Mul, Type::U64, {1, 1}, mode(MulMode::Wide)), UnsupportedInstruction);
}

TEST(IntArith, Mad) {
  Harness h;
  EXPECT_EQ(h.eval(Opcode::Mad, Type::S32, {3, 4, 5}, mode(MulMode::Lo)), 17u);
  EXPECT_EQ(h.eval(Opcode::Mad, Type::U32, {kMin32, 4, 1}, mode(MulMode::Hi)), 3u);
  // mad.hi.s32 wraps; mad.hi.sat.s32 clamps: hi(0x7fffffff^2) = 0x3fffffff.
  EXPECT_EQ(h.eval(Opcode::Mad, Type::S32, {0x7fffffff, 0x7fffffff, 0x7fffffff}, mode(MulMode::Hi)),
            0xbffffffeu);
  EXPECT_EQ(
      h.eval(Opcode::Mad, Type::S32, {0x7fffffff, 0x7fffffff, 0x7fffffff}, mode_sat(MulMode::Hi)),
      0x7fffffffu);
  EXPECT_EQ(h.eval(Opcode::Mad, Type::S32, {kMin32, 0x7fffffff, kMin32}, mode_sat(MulMode::Hi)),
            kMin32);
}

TEST(IntArith, MadWideAddsDoubleWidthC) {
  Harness h;
  const uint32_t d = h.reg(Type::S64), a = h.reg(Type::S32), b = h.reg(Type::S32),
                 c = h.reg(Type::S64);
  h.set(a, 0, 0xfffffffd);  // -3
  h.set(b, 0, 5);
  h.set(c, 0, 100);
  Instruction in = Harness::make(Opcode::Mad, Type::S32, {h.r(d), h.r(a), h.r(b), h.r(c)});
  in.mul = MulMode::Wide;
  h.run(in, 1);
  EXPECT_EQ(h.get(d, 0), 85u);
}

TEST(IntArith, Mul24AndMad24) {
  Harness h;
  auto lo = mode(MulMode::Lo), hi = mode(MulMode::Hi);
  EXPECT_EQ(h.eval(Opcode::Mul24, Type::U32, {0x01000003, 2}, lo), 6u);  // a[31:24] ignored
  EXPECT_EQ(h.eval(Opcode::Mul24, Type::U32, {0xffffff, 0xffffff}, lo), 0xfe000001u);
  EXPECT_EQ(h.eval(Opcode::Mul24, Type::U32, {0xffffff, 0xffffff}, hi), 0xfffffe00u);
  EXPECT_EQ(h.eval(Opcode::Mul24, Type::S32, {0x00ffffff, 2}, lo), 0xfffffffeu);  // -1 * 2
  EXPECT_EQ(h.eval(Opcode::Mul24, Type::S32, {0x00ffffff, 2}, hi), 0xffffffffu);
  EXPECT_EQ(h.eval(Opcode::Mad24, Type::U32, {0xffffff, 0xffffff, 1}, lo), 0xfe000002u);
  EXPECT_EQ(
      h.eval(Opcode::Mad24, Type::S32, {0x7fffff, 0x7fffff, 0x7fffffff}, mode_sat(MulMode::Hi)),
      0x7fffffffu);
  EXPECT_EQ(h.eval(Opcode::Mad24, Type::S32, {0x7fffff, 0x7fffff, 1}, mode_sat(MulMode::Hi)),
            0x3fffff01u);
}

TEST(IntArith, DivisionByZeroFollowsHardware) {
  Harness h;
  EXPECT_EQ(h.eval(Opcode::Div, Type::U32, {7, 2}), 3u);
  EXPECT_EQ(h.eval(Opcode::Div, Type::U32, {7, 0}), 0xffffffffu);
  EXPECT_EQ(h.eval(Opcode::Rem, Type::U32, {7, 0}), 7u);
  EXPECT_EQ(h.eval(Opcode::Div, Type::U16, {0, 0}), 0xffffu);
  EXPECT_EQ(h.eval(Opcode::Div, Type::U64, {9, 0}), ~0ull);
  EXPECT_EQ(h.eval(Opcode::Div, Type::S32, {5, 0}), 0xffffffffu);  // -1
  EXPECT_EQ(h.eval(Opcode::Div, Type::S32, {0, 0}), 0xffffffffu);  // -1
  EXPECT_EQ(h.eval(Opcode::Div, Type::S32, {0xfffffffb, 0}), 1u);  // -5 / 0 = 1
  EXPECT_EQ(h.eval(Opcode::Rem, Type::S32, {0xfffffffb, 0}), 0xfffffffbu);
  EXPECT_EQ(h.eval(Opcode::Div, Type::S64, {~0ull, 0}), 1u);
}

TEST(IntArith, SignedDivisionTruncatesAndWraps) {
  Harness h;
  EXPECT_EQ(h.eval(Opcode::Div, Type::S32, {0xfffffff9, 2}), 0xfffffffdu);  // -7/2 = -3
  EXPECT_EQ(h.eval(Opcode::Rem, Type::S32, {0xfffffff9, 2}), 0xffffffffu);  // -7%2 = -1
  EXPECT_EQ(h.eval(Opcode::Rem, Type::S32, {7, 0xfffffffe}), 1u);           // 7%-2 = 1
  EXPECT_EQ(h.eval(Opcode::Div, Type::S32, {kMin32, 0xffffffff}), kMin32);
  EXPECT_EQ(h.eval(Opcode::Rem, Type::S32, {kMin32, 0xffffffff}), 0u);
  EXPECT_EQ(h.eval(Opcode::Div, Type::S64, {kMin64, ~0ull}), kMin64);
  EXPECT_EQ(h.eval(Opcode::Rem, Type::S64, {kMin64, ~0ull}), 0u);
  EXPECT_EQ(h.eval(Opcode::Div, Type::S16, {0x8000, 0xffff}), 0x8000u);
}

// Operations of 32 bits or less divide in 32-bit types: the results must be
// those of the 64-bit division of the extended values, truncated.
TEST(IntArith, NarrowDivisionMatchesWideDivision) {
  Harness h;
  const uint64_t vals[] = {0,          1,          2,          3,          7,         0x7f,
                           0x80,       0x7fff,     0x8000,     0xfffb,     0xffff,    0x12345,
                           0x7fffffff, 0x80000000, 0xfffffff9, 0xfffffffe, 0xffffffff};
  for (Type t : {Type::U32, Type::S32, Type::U16, Type::S16}) {
    const unsigned n = t == Type::U32 || t == Type::S32 ? 32 : 16;
    const uint64_t mask = (uint64_t(1) << n) - 1;
    const bool s = t == Type::S32 || t == Type::S16;
    auto ext = [&](uint64_t v) {
      v &= mask;
      return s && (v >> (n - 1)) ? int64_t(v | ~mask) : int64_t(v);
    };
    for (uint64_t a : vals) {
      for (uint64_t b : vals) {
        const int64_t ea = ext(a), eb = ext(b);
        if (eb == 0 || eb == -1) continue;  // covered by the tests above
        const uint64_t q = s ? uint64_t(ea / eb) : uint64_t(a & mask) / uint64_t(b & mask);
        const uint64_t r = s ? uint64_t(ea % eb) : uint64_t(a & mask) % uint64_t(b & mask);
        EXPECT_EQ(h.eval(Opcode::Div, t, {a & mask, b & mask}), q & mask)
            << type_name(t) << " " << a << " / " << b;
        EXPECT_EQ(h.eval(Opcode::Rem, t, {a & mask, b & mask}), r & mask)
            << type_name(t) << " " << a << " % " << b;
      }
    }
  }
}

TEST(IntArith, AbsNegIncludingMin) {
  Harness h;
  EXPECT_EQ(h.eval(Opcode::Abs, Type::S32, {0xfffffffb}), 5u);
  EXPECT_EQ(h.eval(Opcode::Abs, Type::S32, {kMin32}), kMin32);
  EXPECT_EQ(h.eval(Opcode::Abs, Type::S64, {kMin64}), kMin64);
  EXPECT_EQ(h.eval(Opcode::Neg, Type::S32, {5}), 0xfffffffbu);
  EXPECT_EQ(h.eval(Opcode::Neg, Type::S16, {0x8000}), 0x8000u);
  EXPECT_EQ(h.eval(Opcode::Neg, Type::S64, {0}), 0u);
  EXPECT_THROW(h.eval(Opcode::Abs, Type::U32, {1}), UnsupportedInstruction);
}

TEST(IntArith, MinMaxSignedness) {
  Harness h;
  EXPECT_EQ(h.eval(Opcode::Min, Type::S32, {0xffffffff, 1}), 0xffffffffu);
  EXPECT_EQ(h.eval(Opcode::Min, Type::U32, {0xffffffff, 1}), 1u);
  EXPECT_EQ(h.eval(Opcode::Max, Type::S32, {0xffffffff, 1}), 1u);
  EXPECT_EQ(h.eval(Opcode::Max, Type::U32, {0xffffffff, 1}), 0xffffffffu);
  EXPECT_EQ(h.eval(Opcode::Max, Type::S16, {0x8000, 0x7fff}), 0x7fffu);
  EXPECT_EQ(h.eval(Opcode::Min, Type::S64, {kMin64, 0}), kMin64);
}

TEST(IntArith, ImmediateOperandsAndFloatTypeRejected) {
  Harness h;
  const uint32_t d = h.reg(Type::S32), a = h.reg(Type::S32);
  h.set(a, 0, 10);
  h.run(Harness::make(Opcode::Add, Type::S32, {h.r(d), h.r(a), Harness::imm(-3)}), 1);
  EXPECT_EQ(h.get(d, 0), 7u);
  EXPECT_THROW(h.eval(Opcode::Rem, Type::F32, {1, 2}), UnsupportedInstruction);
  EXPECT_THROW(h.eval(Opcode::Add, Type::Pred, {1, 1}), UnsupportedInstruction);
}

}  // namespace
}  // namespace warptlm::test
