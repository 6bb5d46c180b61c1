// Extended-precision arithmetic with the carry flag: add.cc/addc, sub.cc/subc,
// mad.cc/madc on 32- and 64-bit types, chains of them computing 128-bit sums,
// differences and the PTX ISA's 64 x 64 -> 128-bit multiply, per-lane flags
// and guarded lanes keeping theirs.
#include "harness.h"

namespace warptlm::test {
namespace {

using u128 = unsigned __int128;

// A warp with one carry register shared by every instruction, as the parser
// declares it (kCarryFlagReg, a .pred).
class CarryHarness : public Harness {
 public:
  CarryHarness() : cf(reg(Type::Pred)) {}

  // op{c}{.cc}.t d, srcs...: ops laid out as d, CF-out, srcs..., CF-in.
  Instruction carry(Opcode op, Type t, bool cin, bool cout, uint32_t d, std::vector<Operand> srcs,
                    MulMode mul = MulMode::None) {
    std::vector<Operand> ops{r(d), cout ? r(cf) : none()};
    for (Operand& s : srcs) ops.push_back(s);
    ops.push_back(cin ? r(cf) : none());
    Instruction in = make(op, t, ops);
    in.carry_in = cin;
    in.carry_out = cout;
    in.mul = mul;
    return in;
  }
  // A register of type t holding v in lane 0.
  uint32_t val(Type t, uint64_t v) {
    const uint32_t x = reg(t);
    set(x, 0, v);
    return x;
  }
  uint64_t flag(unsigned lane = 0) const { return get(cf, lane); }

  const uint32_t cf;
};

TEST(Carry, AddCarryOutIgnoresSignedness) {
  CarryHarness h;
  const uint32_t d = h.reg(Type::U32);
  h.run(h.carry(Opcode::Add, Type::U32, false, true, d, {h.imm(0xffffffff), h.imm(1)}), 1);
  EXPECT_EQ(h.get(d, 0), 0u);
  EXPECT_EQ(h.flag(), 1u);
  // 0x7fffffff + 1 overflows as a signed value but has no carry out.
  const uint32_t s = h.reg(Type::S32);
  h.run(h.carry(Opcode::Add, Type::S32, false, true, s, {h.imm(0x7fffffff), h.imm(1)}), 1);
  EXPECT_EQ(h.get(s, 0), 0x80000000u);
  EXPECT_EQ(h.flag(), 0u);
  // -1 + 1 does carry.
  h.run(h.carry(Opcode::Add, Type::S32, false, true, s, {h.imm(-1), h.imm(1)}), 1);
  EXPECT_EQ(h.get(s, 0), 0u);
  EXPECT_EQ(h.flag(), 1u);
}

TEST(Carry, AddcReadsAndWritesTheFlag) {
  CarryHarness h;
  const uint32_t d = h.reg(Type::U32);
  h.set(h.cf, 0, 1);
  h.run(h.carry(Opcode::Add, Type::U32, true, false, d, {h.imm(0x10), h.imm(0x20)}), 1);
  EXPECT_EQ(h.get(d, 0), 0x31u);
  EXPECT_EQ(h.flag(), 1u);  // addc without .cc leaves the flag
  h.run(h.carry(Opcode::Add, Type::U32, true, true, d, {h.imm(0xfffffffe), h.imm(1)}), 1);
  EXPECT_EQ(h.get(d, 0), 0u);  // 0xfffffffe + 1 + 1
  EXPECT_EQ(h.flag(), 1u);
  h.run(h.carry(Opcode::Add, Type::U32, true, true, d, {h.imm(0), h.imm(0)}), 1);
  EXPECT_EQ(h.get(d, 0), 1u);  // the carry in alone
  EXPECT_EQ(h.flag(), 0u);
}

TEST(Carry, Add128BitsAsFourWords) {
  // 0x00000001_ffffffff_ffffffff_ffffffff + 1 = 0x00000002_00000000_00000000_00000000
  CarryHarness h;
  uint32_t w[4];
  for (uint32_t& x : w) x = h.reg(Type::U32);
  const uint64_t a[4] = {0xffffffff, 0xffffffff, 0xffffffff, 1};
  const uint64_t b[4] = {1, 0, 0, 0};
  for (int i = 0; i < 4; ++i) {
    const bool first = i == 0, last = i == 3;
    h.run(h.carry(Opcode::Add, Type::U32, !first, !last, w[i], {h.imm(a[i]), h.imm(b[i])}), 1);
  }
  EXPECT_EQ(h.get(w[0], 0), 0u);
  EXPECT_EQ(h.get(w[1], 0), 0u);
  EXPECT_EQ(h.get(w[2], 0), 0u);
  EXPECT_EQ(h.get(w[3], 0), 2u);
}

TEST(Carry, SixtyFourBitWords) {
  CarryHarness h;
  const uint32_t lo = h.reg(Type::U64), hi = h.reg(Type::U64);
  h.run(h.carry(Opcode::Add, Type::U64, false, true, lo, {h.imm(-1), h.imm(2)}), 1);
  EXPECT_EQ(h.get(lo, 0), 1u);
  EXPECT_EQ(h.flag(), 1u);
  h.run(h.carry(Opcode::Add, Type::U64, true, false, hi, {h.imm(5), h.imm(6)}), 1);
  EXPECT_EQ(h.get(hi, 0), 12u);
  // sub.cc.s64 0 - 1 borrows.
  h.run(h.carry(Opcode::Sub, Type::S64, false, true, lo, {h.imm(0), h.imm(1)}), 1);
  EXPECT_EQ(h.get(lo, 0), ~0ull);
  EXPECT_EQ(h.flag(), 1u);
}

TEST(Carry, SubBorrows) {
  CarryHarness h;
  const uint32_t d = h.reg(Type::U32);
  h.run(h.carry(Opcode::Sub, Type::U32, false, true, d, {h.imm(0), h.imm(1)}), 1);
  EXPECT_EQ(h.get(d, 0), 0xffffffffu);
  EXPECT_EQ(h.flag(), 1u);
  h.run(h.carry(Opcode::Sub, Type::U32, false, true, d, {h.imm(5), h.imm(3)}), 1);
  EXPECT_EQ(h.get(d, 0), 2u);
  EXPECT_EQ(h.flag(), 0u);
  // subc: a - (b + CF).
  h.set(h.cf, 0, 1);
  h.run(h.carry(Opcode::Sub, Type::U32, true, false, d, {h.imm(10), h.imm(3)}), 1);
  EXPECT_EQ(h.get(d, 0), 6u);
  h.run(h.carry(Opcode::Sub, Type::U32, true, true, d, {h.imm(3), h.imm(3)}), 1);
  EXPECT_EQ(h.get(d, 0), 0xffffffffu);
  EXPECT_EQ(h.flag(), 1u);
  h.run(h.carry(Opcode::Sub, Type::U32, true, true, d, {h.imm(4), h.imm(3)}), 1);
  EXPECT_EQ(h.get(d, 0), 0u);
  EXPECT_EQ(h.flag(), 0u);
  // b = 0xffffffff with a borrow in: b + CF does not wrap to 0.
  h.set(h.cf, 0, 1);
  h.run(h.carry(Opcode::Sub, Type::U32, true, true, d, {h.imm(0xffffffff), h.imm(0xffffffff)}), 1);
  EXPECT_EQ(h.get(d, 0), 0xffffffffu);
  EXPECT_EQ(h.flag(), 1u);
}

TEST(Carry, Sub64BitsAsTwoWords) {
  // 0x1_00000000 - 1 = 0x0_ffffffff
  CarryHarness h;
  const uint32_t lo = h.reg(Type::U32), hi = h.reg(Type::U32);
  h.run(h.carry(Opcode::Sub, Type::U32, false, true, lo, {h.imm(0), h.imm(1)}), 1);
  h.run(h.carry(Opcode::Sub, Type::U32, true, false, hi, {h.imm(1), h.imm(0)}), 1);
  EXPECT_EQ(h.get(lo, 0), 0xffffffffu);
  EXPECT_EQ(h.get(hi, 0), 0u);
}

TEST(Carry, MadLoHiWithCarry) {
  CarryHarness h;
  const uint32_t d = h.reg(Type::U32);
  // 3 * 0x55555556 = 0x1_00000002: lo 2, hi 1.
  h.run(h.carry(Opcode::Mad, Type::U32, false, true, d,
                {h.imm(3), h.imm(0x55555556), h.imm(0xfffffffe)}, MulMode::Lo),
        1);
  EXPECT_EQ(h.get(d, 0), 0u);
  EXPECT_EQ(h.flag(), 1u);
  h.run(h.carry(Opcode::Mad, Type::U32, true, false, d, {h.imm(3), h.imm(0x55555556), h.imm(5)},
                MulMode::Hi),
        1);
  EXPECT_EQ(h.get(d, 0), 7u);  // 1 + 5 + 1
  // Signed .hi: -2 * 3 = -6, hi word 0xffffffff; + 1 carries out.
  const uint32_t s = h.reg(Type::S32);
  h.set(h.cf, 0, 0);
  h.run(
      h.carry(Opcode::Mad, Type::S32, true, true, s, {h.imm(-2), h.imm(3), h.imm(1)}, MulMode::Hi),
      1);
  EXPECT_EQ(h.get(s, 0), 0u);
  EXPECT_EQ(h.flag(), 1u);
  // 64-bit: (2^64 - 1) * 2 = 0x1_fffffffffffffffe.
  const uint32_t q = h.reg(Type::U64);
  h.run(
      h.carry(Opcode::Mad, Type::U64, false, true, q, {h.imm(-1), h.imm(2), h.imm(3)}, MulMode::Lo),
      1);
  EXPECT_EQ(h.get(q, 0), 1u);
  EXPECT_EQ(h.flag(), 1u);
  h.run(
      h.carry(Opcode::Mad, Type::U64, true, false, q, {h.imm(-1), h.imm(2), h.imm(0)}, MulMode::Hi),
      1);
  EXPECT_EQ(h.get(q, 0), 2u);
}

// The PTX ISA's example: [r3,r2,r1,r0] = [r5,r4] * [r7,r6] with mul, mad.cc,
// madc and addc, checked against the host's 128-bit product.
u128 multiply_via_carry_chain(uint64_t x, uint64_t y) {
  CarryHarness h;
  uint32_t r[8];
  for (uint32_t& v : r) v = h.reg(Type::U32);
  h.set(r[4], 0, x & 0xffffffff);
  h.set(r[5], 0, x >> 32);
  h.set(r[6], 0, y & 0xffffffff);
  h.set(r[7], 0, y >> 32);
  auto R = [&](int i) { return h.r(r[i]); };
  Instruction mul_lo = Harness::make(Opcode::Mul, Type::U32, {R(0), R(4), R(6)});
  mul_lo.mul = MulMode::Lo;
  Instruction mul_hi = Harness::make(Opcode::Mul, Type::U32, {R(1), R(4), R(6)});
  mul_hi.mul = MulMode::Hi;
  const MulMode lo = MulMode::Lo, hi = MulMode::Hi;
  const Type u = Type::U32;
  const std::vector<Instruction> seq = {
      mul_lo,
      mul_hi,
      h.carry(Opcode::Mad, u, false, true, r[1], {R(5), R(6), R(1)}, lo),
      h.carry(Opcode::Mad, u, true, false, r[2], {R(5), R(6), Harness::imm(0)}, hi),
      h.carry(Opcode::Mad, u, false, true, r[1], {R(4), R(7), R(1)}, lo),
      h.carry(Opcode::Mad, u, true, true, r[2], {R(4), R(7), R(2)}, hi),
      h.carry(Opcode::Add, u, true, false, r[3], {Harness::imm(0), Harness::imm(0)}),
      h.carry(Opcode::Mad, u, false, true, r[2], {R(5), R(7), R(2)}, lo),
      h.carry(Opcode::Mad, u, true, false, r[3], {R(5), R(7), R(3)}, hi),
  };
  for (const Instruction& in : seq) h.run(in, 1);
  u128 out = 0;
  for (int i = 3; i >= 0; --i) out = (out << 32) | h.get(r[i], 0);
  return out;
}

TEST(Carry, PtxIsaExtendedPrecisionMultiply) {
  const uint64_t cases[][2] = {{0xfedcba9876543210ull, 0x0123456789abcdefull},
                               {~0ull, ~0ull},
                               {0xffffffff00000001ull, 0x00000000ffffffffull},
                               {12345, 67890}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c[0]);
    const u128 want = u128(c[0]) * u128(c[1]);
    const u128 got = multiply_via_carry_chain(c[0], c[1]);
    EXPECT_EQ(uint64_t(got), uint64_t(want));
    EXPECT_EQ(uint64_t(got >> 64), uint64_t(want >> 64));
  }
}

TEST(Carry, FlagIsPerLaneAndGuardedLanesKeepIt) {
  CarryHarness h;
  const uint32_t d = h.reg(Type::U32), a = h.reg(Type::U32);
  h.set(a, 0, 0xffffffff);  // carries
  h.set(a, 1, 5);           // does not
  h.set(a, 2, 0xffffffff);  // would carry, but is inactive
  h.set(h.cf, 2, 0);
  h.set(h.cf, 3, 1);  // inactive: keeps its 1
  h.run(h.carry(Opcode::Add, Type::U32, false, true, d, {h.r(a), h.imm(1)}), 0b0011);
  EXPECT_EQ(h.flag(0), 1u);
  EXPECT_EQ(h.flag(1), 0u);
  EXPECT_EQ(h.flag(2), 0u);
  EXPECT_EQ(h.flag(3), 1u);
  EXPECT_EQ(h.get(d, 0), 0u);
  EXPECT_EQ(h.get(d, 1), 6u);
}

TEST(Carry, RejectsWhatPtxDoesNotDefine) {
  CarryHarness h;
  const uint32_t d = h.reg(Type::U16);
  EXPECT_THROW(h.run(h.carry(Opcode::Add, Type::U16, false, true, d, {h.imm(1), h.imm(2)})),
               UnsupportedInstruction);
  const uint32_t w = h.reg(Type::U64);
  EXPECT_THROW(h.run(h.carry(Opcode::Mad, Type::U32, false, true, w, {h.imm(1), h.imm(2), h.imm(3)},
                             MulMode::Wide)),
               UnsupportedInstruction);
  // The layout must carry both flag slots.
  Instruction short_form = Harness::make(Opcode::Add, Type::U32, {h.r(d), h.imm(1), h.imm(2)});
  short_form.carry_out = true;
  EXPECT_THROW(h.run(short_form), UnsupportedInstruction);
}

}  // namespace
}  // namespace warptlm::test
