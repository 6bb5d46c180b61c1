// Floating-point arithmetic: rounding modes, NaN canonicalisation, .ftz,
// .sat, min/max NaN and signed-zero rules, division forms, approximate
// functions and their special values, .f16 arithmetic.
#include <cmath>
#include <limits>

#include "harness.h"

namespace warptlm::test {
namespace {

constexpr uint64_t kNan32 = 0x7fffffff;
constexpr uint64_t kNan64 = 0x7fffffffffffffffull;
constexpr uint64_t kInf32 = 0x7f800000;
constexpr uint64_t kNegZero32 = 0x80000000;
constexpr uint64_t kOnePlusUlp = 0x3f800001;  // 1 + 2^-23
const uint64_t kHalfUlp = fbits(std::ldexp(1.0f, -24));
const uint64_t kFltMax = fbits(std::numeric_limits<float>::max());

auto rnd(Rounding r) {
  return [r](Instruction& i) { i.rnd = r; };
}
auto flags(bool ftz, bool sat) {
  return [ftz, sat](Instruction& i) {
    i.ftz = ftz;
    i.sat = sat;
  };
}
auto approx = [](Instruction& i) { i.approx = true; };
auto approx_ftz = [](Instruction& i) {
  i.approx = true;
  i.ftz = true;
};

TEST(FloatArith, AddRoundingModesF32) {
  Harness h;
  const uint64_t one = fbits(1.0f), neg_one = fbits(-1.0f), neg_half = kHalfUlp | kNegZero32;
  EXPECT_EQ(h.eval(Opcode::Add, Type::F32, {one, kHalfUlp}, rnd(Rounding::Rn)), one);  // tie->even
  EXPECT_EQ(h.eval(Opcode::Add, Type::F32, {one, kHalfUlp}), one);  // default is .rn
  EXPECT_EQ(h.eval(Opcode::Add, Type::F32, {one, kHalfUlp}, rnd(Rounding::Rz)), one);
  EXPECT_EQ(h.eval(Opcode::Add, Type::F32, {one, kHalfUlp}, rnd(Rounding::Rm)), one);
  EXPECT_EQ(h.eval(Opcode::Add, Type::F32, {one, kHalfUlp}, rnd(Rounding::Rp)), kOnePlusUlp);
  EXPECT_EQ(h.eval(Opcode::Add, Type::F32, {neg_one, neg_half}, rnd(Rounding::Rm)), 0xbf800001u);
  EXPECT_EQ(h.eval(Opcode::Add, Type::F32, {neg_one, neg_half}, rnd(Rounding::Rp)), neg_one);
  // An exact zero sum is +0, except -0 when rounding down.
  EXPECT_EQ(h.eval(Opcode::Add, Type::F32, {one, neg_one}), 0u);
  EXPECT_EQ(h.eval(Opcode::Add, Type::F32, {one, neg_one}, rnd(Rounding::Rm)), kNegZero32);
  EXPECT_EQ(h.eval(Opcode::Sub, Type::F32, {one, one}, rnd(Rounding::Rm)), kNegZero32);
}

TEST(FloatArith, MulRoundingAndOverflow) {
  Harness h;
  const uint64_t two = fbits(2.0f), neg_max = kFltMax | kNegZero32;
  EXPECT_EQ(h.eval(Opcode::Mul, Type::F32, {kOnePlusUlp, kOnePlusUlp}), 0x3f800002u);
  EXPECT_EQ(h.eval(Opcode::Mul, Type::F32, {kOnePlusUlp, kOnePlusUlp}, rnd(Rounding::Rp)),
            0x3f800003u);
  EXPECT_EQ(h.eval(Opcode::Mul, Type::F32, {kFltMax, two}), kInf32);
  EXPECT_EQ(h.eval(Opcode::Mul, Type::F32, {kFltMax, two}, rnd(Rounding::Rz)), kFltMax);
  EXPECT_EQ(h.eval(Opcode::Mul, Type::F32, {kFltMax, two}, rnd(Rounding::Rm)), kFltMax);
  EXPECT_EQ(h.eval(Opcode::Mul, Type::F32, {neg_max, two}, rnd(Rounding::Rm)), 0xff800000u);
  EXPECT_EQ(h.eval(Opcode::Mul, Type::F32, {neg_max, two}, rnd(Rounding::Rp)), neg_max);
}

TEST(FloatArith, DirectedRoundingF64) {
  Harness h;
  const uint64_t one = dbits(1.0), tiny = dbits(std::ldexp(1.0, -53));
  EXPECT_EQ(h.eval(Opcode::Add, Type::F64, {one, tiny}), one);
  EXPECT_EQ(h.eval(Opcode::Add, Type::F64, {one, tiny}, rnd(Rounding::Rp)), 0x3ff0000000000001u);
  EXPECT_EQ(h.eval(Opcode::Sub, Type::F64, {dbits(-1.0), tiny}, rnd(Rounding::Rm)),
            0xbff0000000000001u);
  EXPECT_EQ(h.eval(Opcode::Div, Type::F64, {one, dbits(3.0)}), 0x3fd5555555555555u);
  EXPECT_EQ(h.eval(Opcode::Div, Type::F64, {one, dbits(3.0)}, rnd(Rounding::Rp)),
            0x3fd5555555555556u);
  EXPECT_EQ(h.eval(Opcode::Sqrt, Type::F64, {dbits(2.0)}, rnd(Rounding::Rn)), 0x3ff6a09e667f3bcdu);
  EXPECT_EQ(h.eval(Opcode::Sqrt, Type::F64, {dbits(2.0)}, rnd(Rounding::Rz)), 0x3ff6a09e667f3bccu);
  // Rounding is restored afterwards: a later .rn add is unaffected.
  EXPECT_EQ(h.eval(Opcode::Add, Type::F64, {one, tiny}), one);
}

TEST(FloatArith, NanResultsAreCanonical) {
  Harness h;
  const uint64_t inf = kInf32, payload_nan = 0x7fc12345, one = fbits(1.0f);
  EXPECT_EQ(h.eval(Opcode::Sub, Type::F32, {inf, inf}), kNan32);
  EXPECT_EQ(h.eval(Opcode::Add, Type::F32, {payload_nan, one}), kNan32);
  EXPECT_EQ(h.eval(Opcode::Mul, Type::F32, {0, inf}, rnd(Rounding::Rz)), kNan32);
  EXPECT_EQ(h.eval(Opcode::Div, Type::F32, {0, 0}), kNan32);
  const uint64_t dinf = dbits(HUGE_VAL);
  EXPECT_EQ(h.eval(Opcode::Sub, Type::F64, {dinf, dinf}), kNan64);
  EXPECT_EQ(h.eval(Opcode::Div, Type::F32, {one, 0}), kInf32);
}

TEST(FloatArith, FtzAndSat) {
  Harness h;
  const uint64_t denorm = 0x00000001, neg_denorm = 0x80000001;
  const uint64_t min_normal = fbits(std::ldexp(1.0f, -126)), half = fbits(0.5f);
  EXPECT_EQ(h.eval(Opcode::Add, Type::F32, {denorm, 0}), denorm);
  EXPECT_EQ(h.eval(Opcode::Add, Type::F32, {denorm, 0}, flags(true, false)), 0u);
  EXPECT_EQ(h.eval(Opcode::Mul, Type::F32, {min_normal, half}), 0x00400000u);
  EXPECT_EQ(h.eval(Opcode::Mul, Type::F32, {min_normal, half}, flags(true, false)), 0u);
  EXPECT_EQ(h.eval(Opcode::Mul, Type::F32, {min_normal | kNegZero32, half}, flags(true, false)),
            kNegZero32);
  EXPECT_EQ(h.eval(Opcode::Add, Type::F32, {neg_denorm, 0x80000000}, flags(true, false)),
            kNegZero32);
  EXPECT_EQ(h.eval(Opcode::Add, Type::F32, {fbits(1.5f), 0}, flags(false, true)), fbits(1.0f));
  EXPECT_EQ(h.eval(Opcode::Add, Type::F32, {fbits(-2.0f), 0}, flags(false, true)), 0u);
  EXPECT_EQ(h.eval(Opcode::Sub, Type::F32, {kInf32, kInf32}, flags(false, true)), 0u);
  EXPECT_EQ(h.eval(Opcode::Mul, Type::F32, {fbits(-0.0f), fbits(1.0f)}, flags(false, true)), 0u);
  EXPECT_EQ(h.eval(Opcode::Add, Type::F32, {fbits(0.25f), 0}, flags(false, true)), fbits(0.25f));
}

TEST(FloatArith, FmaAndMadAreFused) {
  Harness h;
  const uint64_t a = 0x3f800800;      // 1 + 2^-12; a*a = 1 + 2^-11 + 2^-24
  const uint64_t exact = 0x3a000400;  // 2^-11 + 2^-24
  EXPECT_EQ(h.eval(Opcode::Fma, Type::F32, {a, a, fbits(-1.0f)}, rnd(Rounding::Rn)), exact);
  EXPECT_EQ(h.eval(Opcode::Mad, Type::F32, {a, a, fbits(-1.0f)}), exact);
  EXPECT_EQ(h.eval(Opcode::Fma, Type::F32, {fbits(1.0f), fbits(1.0f), kHalfUlp}, rnd(Rounding::Rp)),
            kOnePlusUlp);
  EXPECT_EQ(h.eval(Opcode::Fma, Type::F32, {fbits(1.0f), fbits(1.0f), kHalfUlp}, rnd(Rounding::Rz)),
            fbits(1.0f));
  const uint64_t tiny = dbits(std::ldexp(1.0, -60));
  EXPECT_EQ(h.eval(Opcode::Fma, Type::F64, {dbits(1.0), dbits(1.0), tiny}, rnd(Rounding::Rp)),
            0x3ff0000000000001u);
  EXPECT_EQ(h.eval(Opcode::Fma, Type::F64, {dbits(1.0), dbits(1.0), tiny}, rnd(Rounding::Rn)),
            dbits(1.0));
}

TEST(FloatArith, DivisionForms) {
  Harness h;
  const uint64_t one = fbits(1.0f), three = fbits(3.0f);
  EXPECT_EQ(h.eval(Opcode::Div, Type::F32, {one, three}, rnd(Rounding::Rn)), 0x3eaaaaabu);
  EXPECT_EQ(h.eval(Opcode::Div, Type::F32, {one, three}, rnd(Rounding::Rz)), 0x3eaaaaaau);
  EXPECT_EQ(h.eval(Opcode::Div, Type::F32, {one, three}, rnd(Rounding::Rm)), 0x3eaaaaaau);
  EXPECT_EQ(h.eval(Opcode::Div, Type::F32, {one, three}, rnd(Rounding::Rp)), 0x3eaaaaabu);
  EXPECT_EQ(h.eval(Opcode::Div, Type::F32, {one, three}, [](Instruction& i) { i.full = true; }),
            0x3eaaaaabu);
  EXPECT_EQ(h.eval(Opcode::Div, Type::F32, {one, three}, approx), 0x3eaaaaabu);
  // div.approx: 2^126 < |b| < 2^128 gives 0 (NaN for infinite a); .rn does not.
  const uint64_t big = fbits(std::ldexp(1.0f, 127));
  EXPECT_EQ(h.eval(Opcode::Div, Type::F32, {one, big}, approx), 0u);
  EXPECT_EQ(h.eval(Opcode::Div, Type::F32, {fbits(-1.0f), big}, approx), kNegZero32);
  EXPECT_EQ(h.eval(Opcode::Div, Type::F32, {kInf32, big}, approx), kNan32);
  EXPECT_EQ(h.eval(Opcode::Div, Type::F32, {one, big}, rnd(Rounding::Rn)), 0x00400000u);
  EXPECT_THROW(h.eval(Opcode::Div, Type::F64, {one, three}, approx), UnsupportedInstruction);
  EXPECT_THROW(h.eval(Opcode::Div, Type::F32, {one, three}, rnd(Rounding::Rni)),
               UnsupportedInstruction);
}

TEST(FloatArith, MinMaxNanAndSignedZero) {
  Harness h;
  const uint64_t one = fbits(1.0f), nan = 0x7fc00001, pz = 0, nz = kNegZero32;
  EXPECT_EQ(h.eval(Opcode::Min, Type::F32, {one, nan}), one);
  EXPECT_EQ(h.eval(Opcode::Min, Type::F32, {nan, one}), one);
  EXPECT_EQ(h.eval(Opcode::Max, Type::F32, {nan, one}), one);
  EXPECT_EQ(h.eval(Opcode::Min, Type::F32, {nan, 0xffc00000}), kNan32);
  EXPECT_EQ(h.eval(Opcode::Min, Type::F32, {nz, pz}), nz);
  EXPECT_EQ(h.eval(Opcode::Min, Type::F32, {pz, nz}), nz);
  EXPECT_EQ(h.eval(Opcode::Max, Type::F32, {nz, pz}), pz);
  EXPECT_EQ(h.eval(Opcode::Max, Type::F32, {pz, nz}), pz);
  EXPECT_EQ(h.eval(Opcode::Max, Type::F32, {fbits(-3.0f), fbits(2.0f)}), fbits(2.0f));
  auto nan_mod = [](Instruction& i) { i.nan = true; };
  EXPECT_EQ(h.eval(Opcode::Min, Type::F32, {one, nan}, nan_mod), kNan32);
  EXPECT_EQ(h.eval(Opcode::Max, Type::F32, {fbits(2.0f), one}, nan_mod), fbits(2.0f));
  EXPECT_EQ(h.eval(Opcode::Min, Type::F64, {dbits(NAN), dbits(NAN)}), kNan64);
  EXPECT_EQ(h.eval(Opcode::Min, Type::F64, {dbits(NAN), dbits(-4.0)}), dbits(-4.0));
  // .ftz: both subnormals flush to zeros of their sign; -0 is the minimum.
  EXPECT_EQ(h.eval(Opcode::Min, Type::F32, {0x00000001, 0x80000001}, flags(true, false)), nz);
  EXPECT_EQ(h.eval(Opcode::Min, Type::F32, {0x00000001, 0x80000001}), 0x80000001u);
}

TEST(FloatArith, AbsNegCopysignActOnSignBit) {
  Harness h;
  EXPECT_EQ(h.eval(Opcode::Neg, Type::F32, {0x7fc00000}), 0xffc00000u);
  EXPECT_EQ(h.eval(Opcode::Abs, Type::F32, {0xffc00001}), 0x7fc00001u);
  EXPECT_EQ(h.eval(Opcode::Neg, Type::F32, {0}), kNegZero32);
  EXPECT_EQ(h.eval(Opcode::Abs, Type::F32, {0x80000001}, flags(true, false)), 0u);
  EXPECT_EQ(h.eval(Opcode::Neg, Type::F64, {dbits(2.5)}), dbits(-2.5));
  EXPECT_EQ(h.eval(Opcode::Abs, Type::F64, {dbits(-2.5)}), dbits(2.5));
  // copysign d, a, b: b's magnitude with a's sign.
  EXPECT_EQ(h.eval(Opcode::Copysign, Type::F32, {fbits(-1.0f), fbits(2.0f)}), fbits(-2.0f));
  EXPECT_EQ(h.eval(Opcode::Copysign, Type::F32, {fbits(1.0f), 0xffc00000}), 0x7fc00000u);
  EXPECT_EQ(h.eval(Opcode::Copysign, Type::F64, {dbits(-0.0), dbits(3.0)}), dbits(-3.0));
}

TEST(FloatArith, RcpSqrtIeeeForms) {
  Harness h;
  EXPECT_EQ(h.eval(Opcode::Rcp, Type::F32, {fbits(3.0f)}, rnd(Rounding::Rn)), 0x3eaaaaabu);
  EXPECT_EQ(h.eval(Opcode::Rcp, Type::F32, {fbits(3.0f)}, rnd(Rounding::Rz)), 0x3eaaaaaau);
  EXPECT_EQ(h.eval(Opcode::Rcp, Type::F64, {dbits(3.0)}, rnd(Rounding::Rp)), 0x3fd5555555555556u);
  EXPECT_EQ(h.eval(Opcode::Sqrt, Type::F32, {fbits(2.0f)}, rnd(Rounding::Rn)), 0x3fb504f3u);
  EXPECT_EQ(h.eval(Opcode::Sqrt, Type::F32, {fbits(2.0f)}, rnd(Rounding::Rp)), 0x3fb504f4u);
  EXPECT_EQ(h.eval(Opcode::Sqrt, Type::F32, {fbits(-1.0f)}, rnd(Rounding::Rn)), kNan32);
  EXPECT_EQ(h.eval(Opcode::Sqrt, Type::F32, {kNegZero32}, rnd(Rounding::Rn)), kNegZero32);
}

TEST(FloatArith, ApproxSpecialValues) {
  Harness h;
  EXPECT_EQ(h.eval(Opcode::Rcp, Type::F32, {0}, approx), kInf32);
  EXPECT_EQ(h.eval(Opcode::Rcp, Type::F32, {kNegZero32}, approx), 0xff800000u);
  EXPECT_EQ(h.eval(Opcode::Rcp, Type::F32, {0x00000001}, approx_ftz), kInf32);
  EXPECT_EQ(h.eval(Opcode::Rcp, Type::F64, {dbits(4.0)}, approx_ftz), dbits(0.25));
  // rcp.approx.ftz.f64 keeps 20 fraction bits, as the GPU's MUFU.RCP64H:
  // 1/3 is 0.33333325386047363 (0x3fd55555 00000000), not 0x3fd5555555555555.
  EXPECT_EQ(h.eval(Opcode::Rcp, Type::F64, {dbits(3.0)}, approx_ftz), 0x3fd5555500000000u);
  // The low word of the input is ignored: 1/(3 + 2^-40) is the same.
  EXPECT_EQ(h.eval(Opcode::Rcp, Type::F64, {dbits(3.0) | 1u}, approx_ftz), 0x3fd5555500000000u);
  // Rounded to nearest at 20 bits: 1/7 = 0x3fc24924 92492492 rounds up.
  EXPECT_EQ(h.eval(Opcode::Rcp, Type::F64, {dbits(7.0)}, approx_ftz), 0x3fc2492500000000u);
  EXPECT_EQ(h.eval(Opcode::Rcp, Type::F64, {dbits(0.0)}, approx_ftz), 0x7ff0000000000000u);
  EXPECT_EQ(h.eval(Opcode::Rcp, Type::F64, {0x8000000000000001u}, approx_ftz),
            0xfff0000000000000u);  // a subnormal flushes to -0: -inf
  EXPECT_EQ(h.eval(Opcode::Sqrt, Type::F32, {fbits(16.0f)}, approx), fbits(4.0f));
  EXPECT_EQ(h.eval(Opcode::Rsqrt, Type::F32, {fbits(4.0f)}, approx), fbits(0.5f));
  EXPECT_EQ(h.eval(Opcode::Rsqrt, Type::F32, {0}, approx), kInf32);
  EXPECT_EQ(h.eval(Opcode::Rsqrt, Type::F32, {kNegZero32}, approx), 0xff800000u);
  EXPECT_EQ(h.eval(Opcode::Rsqrt, Type::F32, {fbits(-1.0f)}, approx), kNan32);
  EXPECT_EQ(h.eval(Opcode::Rsqrt, Type::F32, {kInf32}, approx), 0u);
  EXPECT_EQ(h.eval(Opcode::Ex2, Type::F32, {fbits(3.0f)}, approx), fbits(8.0f));
  EXPECT_EQ(h.eval(Opcode::Ex2, Type::F32, {0xff800000}, approx), 0u);
  EXPECT_EQ(h.eval(Opcode::Ex2, Type::F32, {fbits(128.0f)}, approx), kInf32);
  EXPECT_EQ(h.eval(Opcode::Lg2, Type::F32, {fbits(8.0f)}, approx), fbits(3.0f));
  EXPECT_EQ(h.eval(Opcode::Lg2, Type::F32, {0}, approx), 0xff800000u);
  EXPECT_EQ(h.eval(Opcode::Lg2, Type::F32, {fbits(-1.0f)}, approx), kNan32);
  EXPECT_EQ(h.eval(Opcode::Lg2, Type::F32, {kInf32}, approx), kInf32);
  EXPECT_EQ(h.eval(Opcode::Lg2, Type::F32, {0x00000001}, approx), fbits(-149.0f));
  EXPECT_EQ(h.eval(Opcode::Lg2, Type::F32, {0x00000001}, approx_ftz), 0xff800000u);
  EXPECT_EQ(h.eval(Opcode::Sin, Type::F32, {kNegZero32}, approx), kNegZero32);
  EXPECT_EQ(h.eval(Opcode::Sin, Type::F32, {kInf32}, approx), kNan32);
  EXPECT_EQ(h.eval(Opcode::Cos, Type::F32, {0}, approx), fbits(1.0f));
  EXPECT_EQ(h.eval(Opcode::Cos, Type::F32, {0xff800000}, approx), kNan32);
}

TEST(FloatArith, ApproxWithinDocumentedBounds) {
  Harness h;
  const float ex2 = as_f32(h.eval(Opcode::Ex2, Type::F32, {fbits(0.5f)}, approx));
  EXPECT_NEAR(ex2, 1.41421356f, 2 * std::ldexp(1.0f, -23));
  const float sin = as_f32(h.eval(Opcode::Sin, Type::F32, {fbits(0.52359877f)}, approx));
  EXPECT_NEAR(sin, 0.5f, std::ldexp(1.0f, -20));
  const float cos = as_f32(h.eval(Opcode::Cos, Type::F32, {fbits(1.04719755f)}, approx));
  EXPECT_NEAR(cos, 0.5f, std::ldexp(1.0f, -20));
  const float lg2 = as_f32(h.eval(Opcode::Lg2, Type::F32, {fbits(10.0f)}, approx));
  EXPECT_NEAR(lg2, 3.32192809f, std::ldexp(1.0f, -21));
  EXPECT_THROW(h.eval(Opcode::Ex2, Type::F64, {dbits(1.0)}, approx), UnsupportedInstruction);
}

TEST(FloatArith, HalfPrecision) {
  Harness h;
  const uint64_t one = 0x3c00, half_ulp = 0x1000;                   // 2^-11
  EXPECT_EQ(h.eval(Opcode::Add, Type::F16, {one, half_ulp}), one);  // tie -> even
  EXPECT_EQ(h.eval(Opcode::Add, Type::F16, {one, half_ulp}, rnd(Rounding::Rp)), 0x3c01u);
  EXPECT_EQ(h.eval(Opcode::Add, Type::F16, {0x7bff, 0x4c00}), 0x7c00u);  // 65504 + 16 -> inf
  EXPECT_EQ(h.eval(Opcode::Add, Type::F16, {0x7bff, 0x4c00}, rnd(Rounding::Rz)), 0x7bffu);
  EXPECT_EQ(h.eval(Opcode::Sub, Type::F16, {one, one}, rnd(Rounding::Rm)), 0x8000u);
  EXPECT_EQ(h.eval(Opcode::Mul, Type::F16, {0x4000, 0x4200}), 0x4600u);  // 2 * 3 = 6
  EXPECT_EQ(h.eval(Opcode::Sub, Type::F16, {0x7c00, 0x7c00}), 0x7fffu);  // canonical NaN
  // fma: the tiny product decides directed rounding even though the double sum hides it.
  EXPECT_EQ(h.eval(Opcode::Fma, Type::F16, {0x0001, 0x0001, 0x7bff}, rnd(Rounding::Rp)), 0x7c00u);
  EXPECT_EQ(h.eval(Opcode::Fma, Type::F16, {0x0001, 0x0001, 0x7bff}, rnd(Rounding::Rn)), 0x7bffu);
  EXPECT_EQ(h.eval(Opcode::Fma, Type::F16, {0x8001, 0x0001, one}, rnd(Rounding::Rm)), 0x3bffu);
  EXPECT_EQ(h.eval(Opcode::Fma, Type::F16, {0x8001, 0x0001, one}, rnd(Rounding::Rn)), one);
  EXPECT_EQ(h.eval(Opcode::Add, Type::F16, {one, one}, flags(false, true)), one);
  EXPECT_EQ(h.eval(Opcode::Add, Type::F16, {0x0001, 0}, flags(true, false)), 0u);
  EXPECT_EQ(h.eval(Opcode::Min, Type::F16, {0x8000, 0x0000}), 0x8000u);
  EXPECT_EQ(h.eval(Opcode::Max, Type::F16, {0x7e00, one}), one);
  EXPECT_EQ(h.eval(Opcode::Neg, Type::F16, {one}), 0xbc00u);
  EXPECT_THROW(h.eval(Opcode::Div, Type::F16, {one, one}), UnsupportedInstruction);
}

TEST(FloatArith, FloatImmediates) {
  Harness h;
  const uint32_t d = h.reg(Type::F32), a = h.reg(Type::F32);
  h.set(a, 0, fbits(1.5f));
  // An integer literal in a float instruction is that integer's value.
  h.run(Harness::make(Opcode::Add, Type::F32, {h.r(d), h.r(a), Harness::imm(2)}), 1);
  EXPECT_EQ(h.get(d, 0), fbits(3.5f));
  h.run(Harness::make(Opcode::Add, Type::F32, {h.r(d), h.r(a), Harness::f32(0.25f)}), 1);
  EXPECT_EQ(h.get(d, 0), fbits(1.75f));
  h.run(Harness::make(Opcode::Add, Type::F32, {h.r(d), h.r(a), Harness::f64(0.1)}), 1);
  EXPECT_EQ(h.get(d, 0), fbits(1.5f + 0.1f));
  const uint32_t e = h.reg(Type::F64), b = h.reg(Type::F64);
  h.set(b, 0, dbits(1.0));
  h.run(Harness::make(Opcode::Mul, Type::F64, {h.r(e), h.r(b), Harness::f32(0.1f)}), 1);
  EXPECT_EQ(h.get(e, 0), dbits(static_cast<double>(0.1f)));
}

}  // namespace
}  // namespace warptlm::test
