// cvt across integer/float pairs (extension, truncation, .sat, integer and
// float rounding modes, NaN -> 0, .ftz, f16 rounding) and cvta windows.
#include <cmath>
#include <limits>

#include "harness.h"

namespace warptlm::test {
namespace {

// cvt.<rnd>.<dt>.<st> d, a on lane 0; d is a register declared `reg`.
uint64_t cvt(Type dt, Type st, uint64_t a, Rounding r = Rounding::None, bool sat = false,
             bool ftz = false, Type reg = Type::None) {
  Harness h;
  return h.eval(
      Opcode::Cvt, dt, {a},
      [&](Instruction& i) {
        i.src_type = st;
        i.rnd = r;
        i.sat = sat;
        i.ftz = ftz;
      },
      reg == Type::None ? dt : reg, st);
}

TEST(Convert, IntToIntExtendsAndTruncates) {
  EXPECT_EQ(cvt(Type::S32, Type::S8, 0x80), 0xffffff80u);
  EXPECT_EQ(cvt(Type::U32, Type::S8, 0x80), 0xffffff80u);
  EXPECT_EQ(cvt(Type::S32, Type::U8, 0x80), 0x80u);
  EXPECT_EQ(cvt(Type::U64, Type::S32, 0xfffffffe), 0xfffffffffffffffeull);
  EXPECT_EQ(cvt(Type::U64, Type::U32, 0xfffffffe), 0xfffffffeull);
  EXPECT_EQ(cvt(Type::U8, Type::U32, 0x1234, Rounding::None, false, false, Type::U32), 0x34u);
  // An s8 result in an s32 register is sign-extended to the register.
  EXPECT_EQ(cvt(Type::S8, Type::S32, 0x1280, Rounding::None, false, false, Type::S32), 0xffffff80u);
  EXPECT_EQ(cvt(Type::U16, Type::S64, 0xffffffffffff1234, Rounding::None, false, false, Type::U32),
            0x1234u);
}

TEST(Convert, IntToIntSaturates) {
  const bool sat = true;
  const Rounding n = Rounding::None;
  EXPECT_EQ(cvt(Type::U8, Type::S32, 0xfffffffb, n, sat, false, Type::U32), 0u);
  EXPECT_EQ(cvt(Type::U8, Type::S32, 300, n, sat, false, Type::U32), 255u);
  EXPECT_EQ(cvt(Type::S8, Type::U32, 300, n, sat, false, Type::S32), 127u);
  EXPECT_EQ(cvt(Type::S8, Type::S32, static_cast<uint32_t>(-300), n, sat, false, Type::S32),
            0xffffff80u);
  EXPECT_EQ(cvt(Type::S64, Type::U64, ~0ull, n, sat), 0x7fffffffffffffffull);
  EXPECT_EQ(cvt(Type::U32, Type::S64, ~0ull, n, sat), 0u);
  EXPECT_EQ(cvt(Type::S32, Type::S64, 1ull << 40, n, sat), 0x7fffffffu);
  EXPECT_EQ(cvt(Type::S32, Type::S64, 0xffffff0000000000ull, n, sat), 0x80000000u);
  EXPECT_EQ(cvt(Type::U16, Type::U32, 0x12345, n, sat), 0xffffu);
}

TEST(Convert, FloatToIntRoundingModes) {
  EXPECT_EQ(cvt(Type::S32, Type::F32, fbits(2.5f), Rounding::Rni), 2u);
  EXPECT_EQ(cvt(Type::S32, Type::F32, fbits(3.5f), Rounding::Rni), 4u);
  EXPECT_EQ(cvt(Type::S32, Type::F32, fbits(-2.5f), Rounding::Rni), 0xfffffffeu);
  EXPECT_EQ(cvt(Type::S32, Type::F32, fbits(-2.7f), Rounding::Rzi), 0xfffffffeu);
  EXPECT_EQ(cvt(Type::S32, Type::F32, fbits(-2.2f), Rounding::Rmi), 0xfffffffdu);
  EXPECT_EQ(cvt(Type::S32, Type::F32, fbits(2.2f), Rounding::Rpi), 3u);
  EXPECT_EQ(cvt(Type::S32, Type::F32, fbits(-2.7f)), 0xfffffffeu);  // default .rzi
  EXPECT_EQ(cvt(Type::S32, Type::F16, 0x3e00, Rounding::Rni), 2u);  // 1.5 -> 2
  EXPECT_EQ(cvt(Type::S64, Type::F64, dbits(-1e15), Rounding::Rzi), uint64_t(-1000000000000000ll));
  EXPECT_THROW(cvt(Type::S32, Type::F32, fbits(1.0f), Rounding::Rn), UnsupportedInstruction);
}

TEST(Convert, FloatToIntSaturatesAndNanIsZero) {
  const Rounding z = Rounding::Rzi;
  EXPECT_EQ(cvt(Type::S32, Type::F32, fbits(3e9f), z), 0x7fffffffu);
  EXPECT_EQ(cvt(Type::S32, Type::F32, fbits(-3e9f), z), 0x80000000u);
  EXPECT_EQ(cvt(Type::U32, Type::F32, fbits(-1.0f), z), 0u);
  EXPECT_EQ(cvt(Type::U8, Type::F32, fbits(300.0f), z, false, false, Type::U32), 0xffu);
  EXPECT_EQ(cvt(Type::S64, Type::F64, dbits(1e19), z), 0x7fffffffffffffffull);
  EXPECT_EQ(cvt(Type::S64, Type::F64, dbits(-1e19), z), 0x8000000000000000ull);
  EXPECT_EQ(cvt(Type::U64, Type::F64, dbits(1e20), z), ~0ull);
  EXPECT_EQ(cvt(Type::U64, Type::F64, dbits(std::ldexp(1.0, 63)), z), 0x8000000000000000ull);
  EXPECT_EQ(cvt(Type::S32, Type::F32, 0x7fc00000, z), 0u);
  EXPECT_EQ(cvt(Type::U64, Type::F64, dbits(NAN), z), 0u);
  EXPECT_EQ(cvt(Type::S32, Type::F32, 0x7f800000, z), 0x7fffffffu);
  EXPECT_EQ(cvt(Type::S32, Type::F32, 0xff800000, z), 0x80000000u);
  EXPECT_EQ(cvt(Type::U16, Type::F32, fbits(-0.0f), z), 0u);
}

TEST(Convert, IntToFloatRoundingModes) {
  const uint64_t big = (1u << 24) + 1;  // 16777217
  EXPECT_EQ(cvt(Type::F32, Type::S32, big, Rounding::Rn), 0x4b800000u);
  EXPECT_EQ(cvt(Type::F32, Type::S32, big), 0x4b800000u);  // default .rn
  EXPECT_EQ(cvt(Type::F32, Type::S32, big, Rounding::Rp), 0x4b800001u);
  EXPECT_EQ(cvt(Type::F32, Type::S32, big, Rounding::Rz), 0x4b800000u);
  EXPECT_EQ(cvt(Type::F32, Type::S32, static_cast<uint32_t>(-big), Rounding::Rm), 0xcb800001u);
  EXPECT_EQ(cvt(Type::F32, Type::S32, static_cast<uint32_t>(-big), Rounding::Rz), 0xcb800000u);
  EXPECT_EQ(cvt(Type::F32, Type::U64, ~0ull, Rounding::Rn), 0x5f800000u);
  EXPECT_EQ(cvt(Type::F32, Type::U64, ~0ull, Rounding::Rz), 0x5f7fffffu);
  EXPECT_EQ(cvt(Type::F32, Type::U64, ~0ull, Rounding::Rp), 0x5f800000u);
  const uint64_t big53 = (1ull << 53) + 1;
  EXPECT_EQ(cvt(Type::F64, Type::S64, big53, Rounding::Rn), 0x4340000000000000u);
  EXPECT_EQ(cvt(Type::F64, Type::S64, big53, Rounding::Rp), 0x4340000000000001u);
  EXPECT_EQ(cvt(Type::F64, Type::S64, uint64_t(0) - big53, Rounding::Rm), 0xc340000000000001u);
  EXPECT_EQ(cvt(Type::F64, Type::U64, ~0ull, Rounding::Rn), 0x43f0000000000000u);
  EXPECT_EQ(cvt(Type::F64, Type::U64, ~0ull, Rounding::Rz), 0x43efffffffffffffu);
  EXPECT_EQ(cvt(Type::F16, Type::S32, 2049, Rounding::Rn), 0x6800u);
  EXPECT_EQ(cvt(Type::F16, Type::S32, 2049, Rounding::Rp), 0x6801u);
  EXPECT_EQ(cvt(Type::F16, Type::U32, 70000, Rounding::Rn), 0x7c00u);
  EXPECT_EQ(cvt(Type::F16, Type::U32, 70000, Rounding::Rz), 0x7bffu);
  EXPECT_EQ(cvt(Type::F32, Type::S32, 5, Rounding::Rn, true), fbits(1.0f));
  EXPECT_EQ(cvt(Type::F32, Type::S32, static_cast<uint32_t>(-5), Rounding::Rn, true), 0u);
  EXPECT_THROW(cvt(Type::F32, Type::S32, 1, Rounding::Rni), UnsupportedInstruction);
}

TEST(Convert, FloatWidenAndNarrow) {
  EXPECT_EQ(cvt(Type::F64, Type::F32, fbits(1.5f)), dbits(1.5));
  EXPECT_EQ(cvt(Type::F64, Type::F32, 0x7fc12345), 0x7fffffffffffffffull);
  EXPECT_EQ(cvt(Type::F64, Type::F32, 0x00000001), 0x36a0000000000000ull);  // 2^-149
  EXPECT_EQ(cvt(Type::F64, Type::F32, 0x00000001, Rounding::None, false, true), 0u);
  const uint64_t third = dbits(1.0 / 3.0);
  EXPECT_EQ(cvt(Type::F32, Type::F64, third, Rounding::Rn), 0x3eaaaaabu);
  EXPECT_EQ(cvt(Type::F32, Type::F64, third, Rounding::Rz), 0x3eaaaaaau);
  EXPECT_EQ(cvt(Type::F32, Type::F64, third, Rounding::Rm), 0x3eaaaaaau);
  EXPECT_EQ(cvt(Type::F32, Type::F64, third, Rounding::Rp), 0x3eaaaaabu);
  EXPECT_EQ(cvt(Type::F32, Type::F64, dbits(1e300), Rounding::Rn), 0x7f800000u);
  EXPECT_EQ(cvt(Type::F32, Type::F64, dbits(1e300), Rounding::Rz), 0x7f7fffffu);
  EXPECT_EQ(cvt(Type::F32, Type::F64, dbits(1e-50), Rounding::Rn), 0u);
  EXPECT_EQ(cvt(Type::F32, Type::F64, dbits(1e-50), Rounding::Rp), 1u);
  const uint64_t sub = dbits(std::ldexp(1.0, -140));
  EXPECT_EQ(cvt(Type::F32, Type::F64, sub, Rounding::Rn), 0x200u);
  EXPECT_EQ(cvt(Type::F32, Type::F64, sub, Rounding::Rn, false, true), 0u);
  EXPECT_EQ(cvt(Type::F32, Type::F64, dbits(-NAN), Rounding::Rn), 0x7fffffffu);
}

TEST(Convert, FloatRoundToIntegralAndSat) {
  EXPECT_EQ(cvt(Type::F32, Type::F32, fbits(2.5f), Rounding::Rni), fbits(2.0f));
  EXPECT_EQ(cvt(Type::F32, Type::F32, fbits(-0.5f), Rounding::Rpi), 0x80000000u);
  EXPECT_EQ(cvt(Type::F64, Type::F64, dbits(-0.5), Rounding::Rmi), dbits(-1.0));
  EXPECT_EQ(cvt(Type::F32, Type::F32, fbits(1e10f), Rounding::Rzi), fbits(1e10f));
  EXPECT_EQ(cvt(Type::F32, Type::F64, dbits(2.7), Rounding::Rzi), fbits(2.0f));
  EXPECT_EQ(cvt(Type::F32, Type::F32, fbits(2.0f), Rounding::None, true), fbits(1.0f));
  EXPECT_EQ(cvt(Type::F32, Type::F32, 0x7fc00000, Rounding::None, true), 0u);
  EXPECT_EQ(cvt(Type::F32, Type::F32, 0x7fc12345), 0x7fffffffu);
  EXPECT_EQ(cvt(Type::F32, Type::F32, 0x80000001, Rounding::None, false, true), 0x80000000u);
}

TEST(Convert, HalfRounding) {
  const uint64_t tie = fbits(1.0f + std::ldexp(1.0f, -11));
  EXPECT_EQ(cvt(Type::F16, Type::F32, tie, Rounding::Rn), 0x3c00u);
  EXPECT_EQ(cvt(Type::F16, Type::F32, tie, Rounding::Rp), 0x3c01u);
  EXPECT_EQ(cvt(Type::F16, Type::F32, 0x3f801800, Rounding::Rn), 0x3c01u);  // 1 + 3*2^-12
  EXPECT_EQ(cvt(Type::F16, Type::F32, fbits(65519.0f), Rounding::Rn), 0x7bffu);
  EXPECT_EQ(cvt(Type::F16, Type::F32, fbits(65520.0f), Rounding::Rn), 0x7c00u);
  EXPECT_EQ(cvt(Type::F16, Type::F32, fbits(65520.0f), Rounding::Rz), 0x7bffu);
  EXPECT_EQ(cvt(Type::F16, Type::F32, fbits(-65520.0f), Rounding::Rm), 0xfc00u);
  EXPECT_EQ(cvt(Type::F16, Type::F32, fbits(-65520.0f), Rounding::Rp), 0xfbffu);
  EXPECT_EQ(cvt(Type::F16, Type::F32, fbits(std::ldexp(1.0f, -25)), Rounding::Rn), 0u);
  EXPECT_EQ(cvt(Type::F16, Type::F32, fbits(std::ldexp(3.0f, -26)), Rounding::Rn), 1u);
  EXPECT_EQ(cvt(Type::F16, Type::F32, fbits(std::ldexp(3.0f, -25)), Rounding::Rn), 2u);
  EXPECT_EQ(cvt(Type::F16, Type::F32, fbits(std::ldexp(1.0f, -30)), Rounding::Rp), 1u);
  EXPECT_EQ(cvt(Type::F16, Type::F32, fbits(-std::ldexp(1.0f, -30)), Rounding::Rn), 0x8000u);
  EXPECT_EQ(cvt(Type::F16, Type::F32, 0x7fc00001, Rounding::Rn), 0x7fffu);
  // No double rounding from f64: just above the tie rounds up, .rz truncates.
  const uint64_t above = dbits(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40));
  EXPECT_EQ(cvt(Type::F16, Type::F64, above, Rounding::Rn), 0x3c01u);
  EXPECT_EQ(cvt(Type::F16, Type::F64, above, Rounding::Rz), 0x3c00u);
  EXPECT_EQ(cvt(Type::F32, Type::F16, 0x0001), 0x33800000u);
  EXPECT_EQ(cvt(Type::F32, Type::F16, 0x7bff), 0x477fe000u);
  EXPECT_EQ(cvt(Type::F32, Type::F16, 0xfc00), 0xff800000u);
  EXPECT_EQ(cvt(Type::F32, Type::F16, 0x7e00), 0x7fffffffu);
  EXPECT_EQ(cvt(Type::F64, Type::F16, 0x3555), dbits(0.333251953125));
}

TEST(Convert, HalfRoundTripIsExact) {
  Harness h;
  const uint32_t hreg = h.reg(Type::F16), freg = h.reg(Type::F32), back = h.reg(Type::F16);
  Instruction up = Harness::make(Opcode::Cvt, Type::F32, {h.r(freg), h.r(hreg)});
  up.src_type = Type::F16;
  Instruction down = Harness::make(Opcode::Cvt, Type::F16, {h.r(back), h.r(freg)});
  down.src_type = Type::F32;
  down.rnd = Rounding::Rn;
  const unsigned w = h.warp_size();
  for (uint32_t base = 0; base < 0x10000; base += w) {
    for (unsigned l = 0; l < w; ++l) h.set(hreg, l, base + l);
    h.run(up);
    h.run(down);
    for (unsigned l = 0; l < w; ++l) {
      const uint32_t v = base + l;
      const bool nan = (v & 0x7c00) == 0x7c00 && (v & 0x3ff);
      ASSERT_EQ(h.get(back, l), nan ? 0x7fffu : v) << std::hex << v;
    }
  }
}

uint64_t cvta(Space s, bool to, uint64_t a, Type t = Type::U64) {
  Harness h;
  return h.eval(Opcode::Cvta, t, {a}, [&](Instruction& i) {
    i.space = s;
    i.cvta_to = to;
  });
}

TEST(Convert, CvtaWindows) {
  EXPECT_EQ(cvta(Space::Shared, false, 0x10), address_map::kSharedBase + 0x10);
  EXPECT_EQ(cvta(Space::Shared, true, address_map::kSharedBase + 0x10), 0x10u);
  EXPECT_EQ(cvta(Space::Local, false, 8), address_map::kLocalBase + 8);
  EXPECT_EQ(cvta(Space::Const, false, 4), address_map::kConstBase + 4);
  EXPECT_EQ(cvta(Space::Param, true, address_map::kParamBase + 12), 12u);
  EXPECT_EQ(cvta(Space::Global, false, 0x123456789), 0x123456789u);
  EXPECT_EQ(cvta(Space::Global, true, 0x123456789), 0x123456789u);
  EXPECT_EQ(cvta(Space::Shared, false, 0x10, Type::U32), 0x10u);  // truncated to 32 bits
  EXPECT_THROW(cvta(Space::Generic, false, 0), UnsupportedInstruction);
  // The address of a shared variable, made generic.
  Harness h;
  h.env.symbols = {0x40};
  const uint32_t d = h.reg(Type::U64);
  Instruction in = Harness::make(Opcode::Cvta, Type::U64, {h.r(d), Harness::symbol(0)});
  in.space = Space::Shared;
  h.run(in, 1);
  EXPECT_EQ(h.get(d, 0), address_map::kSharedBase + 0x40);
}

}  // namespace
}  // namespace warptlm::test
