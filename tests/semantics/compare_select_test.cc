// setp/set comparisons (signed, unsigned, ordered/unordered float, NaN,
// signed zero, .ftz, BoolOp combining), selp, slct, testp.
#include <cmath>

#include "harness.h"

namespace warptlm::test {
namespace {

constexpr uint64_t kNan = 0x7fc00000;
using PQ = std::pair<uint64_t, uint64_t>;

struct SetpCase {
  Type t;
  CmpOp cmp;
  uint64_t a, b;
  BoolOp bop = BoolOp::None;
  uint64_t c = 0;
  bool c_negated = false;
  bool ftz = false;
};

// Returns {p, q} of setp p|q, a, b[, c] on lane 0.
std::pair<uint64_t, uint64_t> setp(const SetpCase& k) {
  Harness h;
  const uint32_t p = h.reg(Type::Pred), q = h.reg(Type::Pred), a = h.reg(k.t), b = h.reg(k.t),
                 c = h.reg(Type::Pred);
  h.set(a, 0, k.a);
  h.set(b, 0, k.b);
  h.set(c, 0, k.c);
  std::vector<Operand> ops{h.r(p), h.r(q), h.r(a), h.r(b)};
  if (k.bop != BoolOp::None) ops.push_back(h.r(c, k.c_negated));
  Instruction in = Harness::make(Opcode::Setp, k.t, ops);
  in.cmp = k.cmp;
  in.boolop = k.bop;
  in.ftz = k.ftz;
  h.run(in, 1);
  return {h.get(p, 0), h.get(q, 0)};
}
uint64_t cmp(Type t, CmpOp op, uint64_t a, uint64_t b) { return setp({t, op, a, b}).first; }

TEST(CompareSelect, IntegerComparisons) {
  EXPECT_EQ(setp({Type::S32, CmpOp::Lt, 0xffffffff, 1}), PQ(1, 0));
  EXPECT_EQ(cmp(Type::U32, CmpOp::Lt, 0xffffffff, 1), 0u);
  EXPECT_EQ(cmp(Type::S32, CmpOp::Ge, 0x80000000, 0x7fffffff), 0u);
  EXPECT_EQ(cmp(Type::S16, CmpOp::Gt, 0x7fff, 0x8000), 1u);
  EXPECT_EQ(cmp(Type::S64, CmpOp::Le, 5, 5), 1u);
  EXPECT_EQ(cmp(Type::B32, CmpOp::Ne, 5, 6), 1u);
  EXPECT_EQ(cmp(Type::U32, CmpOp::Lo, 1, 2), 1u);
  EXPECT_EQ(cmp(Type::U32, CmpOp::Ls, 2, 2), 1u);
  EXPECT_EQ(cmp(Type::U32, CmpOp::Hi, 0xffffffff, 2), 1u);
  EXPECT_EQ(cmp(Type::U32, CmpOp::Hs, 1, 2), 0u);
  EXPECT_EQ(cmp(Type::S32, CmpOp::Hi, 0xffffffff, 1), 1u);  // hi compares unsigned
  EXPECT_THROW(cmp(Type::S32, CmpOp::Equ, 1, 1), UnsupportedInstruction);
}

TEST(CompareSelect, FloatOrderedAndUnordered) {
  const uint64_t one = fbits(1.0f), two = fbits(2.0f);
  EXPECT_EQ(cmp(Type::F32, CmpOp::Lt, one, two), 1u);
  EXPECT_EQ(cmp(Type::F32, CmpOp::Eq, kNan, kNan), 0u);
  EXPECT_EQ(cmp(Type::F32, CmpOp::Ne, kNan, one), 0u);
  EXPECT_EQ(cmp(Type::F32, CmpOp::Neu, kNan, one), 1u);
  EXPECT_EQ(cmp(Type::F32, CmpOp::Equ, kNan, one), 1u);
  EXPECT_EQ(cmp(Type::F32, CmpOp::Equ, one, one), 1u);
  EXPECT_EQ(cmp(Type::F32, CmpOp::Ltu, kNan, one), 1u);
  EXPECT_EQ(cmp(Type::F32, CmpOp::Ltu, two, one), 0u);
  EXPECT_EQ(cmp(Type::F32, CmpOp::Geu, one, kNan), 1u);
  EXPECT_EQ(cmp(Type::F32, CmpOp::Ge, one, kNan), 0u);
  EXPECT_EQ(cmp(Type::F32, CmpOp::Num, one, two), 1u);
  EXPECT_EQ(cmp(Type::F32, CmpOp::Num, one, kNan), 0u);
  EXPECT_EQ(cmp(Type::F32, CmpOp::Nan, kNan, one), 1u);
  EXPECT_EQ(cmp(Type::F32, CmpOp::Eq, 0x80000000, 0), 1u);  // -0 == +0
  EXPECT_EQ(cmp(Type::F32, CmpOp::Lt, 0x80000000, 0), 0u);
  EXPECT_EQ(cmp(Type::F64, CmpOp::Gt, dbits(1e300), dbits(-HUGE_VAL)), 1u);
  EXPECT_EQ(cmp(Type::F16, CmpOp::Lt, 0x3c00, 0x4000), 1u);  // 1 < 2
  EXPECT_EQ(setp({Type::F32, CmpOp::Lt, kNan, one}), PQ(0, 1));
  EXPECT_THROW(cmp(Type::F32, CmpOp::Lo, one, two), UnsupportedInstruction);
}

TEST(CompareSelect, FtzFlushesBeforeComparing) {
  EXPECT_EQ(setp({Type::F32, CmpOp::Eq, 1, 0}).first, 0u);
  SetpCase k{Type::F32, CmpOp::Eq, 1, 0};
  k.ftz = true;
  EXPECT_EQ(setp(k).first, 1u);
}

TEST(CompareSelect, BoolOpCombinesWithNegatedPredicate) {
  // lt.and with !c, c = 0: p = cmp, q = !cmp.
  EXPECT_EQ(setp({Type::S32, CmpOp::Lt, 1, 2, BoolOp::And, 0, true}), PQ(1, 0));
  // c = 1 negated: both false.
  EXPECT_EQ(setp({Type::S32, CmpOp::Lt, 1, 2, BoolOp::And, 1, true}), PQ(0, 0));
  EXPECT_EQ(setp({Type::S32, CmpOp::Gt, 1, 2, BoolOp::Or, 1}), PQ(1, 1));
  EXPECT_EQ(setp({Type::S32, CmpOp::Gt, 1, 2, BoolOp::Or, 0}), PQ(0, 1));
  EXPECT_EQ(setp({Type::S32, CmpOp::Eq, 3, 3, BoolOp::Xor, 1}), PQ(0, 1));
}

uint64_t set(Type dt, Type st, CmpOp op, uint64_t a, uint64_t b) {
  Harness h;
  return h.eval(
      Opcode::Set, dt, {a, b},
      [&](Instruction& i) {
        i.src_type = st;
        i.cmp = op;
      },
      dt, st);
}

TEST(CompareSelect, SetWritesMaskOrOne) {
  EXPECT_EQ(set(Type::U32, Type::S32, CmpOp::Lt, 0xffffffff, 1), 0xffffffffu);
  EXPECT_EQ(set(Type::U32, Type::S32, CmpOp::Gt, 0xffffffff, 1), 0u);
  EXPECT_EQ(set(Type::S32, Type::F32, CmpOp::Eq, fbits(2.0f), fbits(2.0f)), 0xffffffffu);
  EXPECT_EQ(set(Type::F32, Type::U64, CmpOp::Hi, 5, 3), fbits(1.0f));
  EXPECT_EQ(set(Type::F32, Type::F32, CmpOp::Lt, kNan, 0), 0u);
  // set with .and and a predicate operand.
  Harness h;
  const uint32_t d = h.reg(Type::U32), a = h.reg(Type::S32), b = h.reg(Type::S32),
                 c = h.reg(Type::Pred);
  h.set(a, 0, 1);
  h.set(b, 0, 2);
  h.set(c, 0, 0);
  Instruction in = Harness::make(Opcode::Set, Type::U32, {h.r(d), h.r(a), h.r(b), h.r(c)});
  in.src_type = Type::S32;
  in.cmp = CmpOp::Lt;
  in.boolop = BoolOp::And;
  h.run(in, 1);
  EXPECT_EQ(h.get(d, 0), 0u);
}

TEST(CompareSelect, Selp) {
  Harness h;
  const uint32_t d = h.reg(Type::B32), a = h.reg(Type::B32), b = h.reg(Type::B32),
                 c = h.reg(Type::Pred);
  h.set_all(a, 111);
  h.set_all(b, 222);
  h.set(c, 0, 1);
  h.set(c, 1, 0);
  h.run(Harness::make(Opcode::Selp, Type::B32, {h.r(d), h.r(a), h.r(b), h.r(c)}), 0b11);
  EXPECT_EQ(h.get(d, 0), 111u);
  EXPECT_EQ(h.get(d, 1), 222u);
  h.run(Harness::make(Opcode::Selp, Type::B32, {h.r(d), h.r(a), Harness::imm(7), h.r(c, true)}),
        0b11);
  EXPECT_EQ(h.get(d, 0), 7u);
  EXPECT_EQ(h.get(d, 1), 111u);
}

uint64_t slct(Type ct, uint64_t c, bool ftz = false) {
  Harness h;
  const uint32_t d = h.reg(Type::U32), a = h.reg(Type::U32), b = h.reg(Type::U32), cr = h.reg(ct);
  h.set(a, 0, 1);
  h.set(b, 0, 2);
  h.set(cr, 0, c);
  Instruction in = Harness::make(Opcode::Slct, Type::U32, {h.r(d), h.r(a), h.r(b), h.r(cr)});
  in.src_type = ct;
  in.ftz = ftz;
  h.run(in, 1);
  return h.get(d, 0);
}

TEST(CompareSelect, Slct) {
  EXPECT_EQ(slct(Type::S32, 0), 1u);
  EXPECT_EQ(slct(Type::S32, 0xffffffff), 2u);
  EXPECT_EQ(slct(Type::S32, 0x7fffffff), 1u);
  EXPECT_EQ(slct(Type::F32, fbits(-0.0f)), 1u);  // -0.0 >= 0
  EXPECT_EQ(slct(Type::F32, fbits(-1.0f)), 2u);
  EXPECT_EQ(slct(Type::F32, kNan), 2u);
  EXPECT_EQ(slct(Type::F32, 0x80000001), 2u);        // negative subnormal
  EXPECT_EQ(slct(Type::F32, 0x80000001, true), 1u);  // flushed to -0.0
}

uint64_t testp(Type t, TestpOp op, uint64_t a) {
  Harness h;
  return h.eval(
      Opcode::Testp, t, {a}, [op](Instruction& i) { i.testp = op; }, Type::Pred);
}

TEST(CompareSelect, Testp) {
  const uint64_t inf = 0x7f800000, denorm = 0x00000001, one = fbits(1.0f);
  EXPECT_EQ(testp(Type::F32, TestpOp::Finite, inf), 0u);
  EXPECT_EQ(testp(Type::F32, TestpOp::Finite, one), 1u);
  EXPECT_EQ(testp(Type::F32, TestpOp::Infinite, 0xff800000), 1u);
  EXPECT_EQ(testp(Type::F32, TestpOp::Number, kNan), 0u);
  EXPECT_EQ(testp(Type::F32, TestpOp::Number, inf), 1u);
  EXPECT_EQ(testp(Type::F32, TestpOp::NotANumber, kNan), 1u);
  EXPECT_EQ(testp(Type::F32, TestpOp::Normal, 0), 1u);  // zero counts as normal
  EXPECT_EQ(testp(Type::F32, TestpOp::Normal, denorm), 0u);
  EXPECT_EQ(testp(Type::F32, TestpOp::Normal, inf), 0u);
  EXPECT_EQ(testp(Type::F32, TestpOp::Subnormal, denorm), 1u);
  EXPECT_EQ(testp(Type::F32, TestpOp::Subnormal, 0), 0u);
  EXPECT_EQ(testp(Type::F64, TestpOp::Subnormal, dbits(1e-310)), 1u);
  EXPECT_EQ(testp(Type::F64, TestpOp::Normal, dbits(1e-310)), 0u);
  EXPECT_EQ(testp(Type::F64, TestpOp::Normal, dbits(-2.0)), 1u);
}

}  // namespace
}  // namespace warptlm::test

namespace warptlm::test {
namespace {

// The lane loops read all operands before writing (LaneValues): a 32-lane
// warp runs the counted loop, a partial mask the mask scan; a destination
// that is also a source must see the old values, and lanes outside the mask
// keep theirs.
TEST(CompareSelect, WholeWarpAndPartialMasksWithAliasing) {
  for (const LaneMask active : {~LaneMask(0), LaneMask(0x5a5a00ffu), LaneMask(0)}) {
    Harness h(32);
    const uint32_t p = h.reg(Type::Pred), q = h.reg(Type::Pred), a = h.reg(Type::S32),
                   b = h.reg(Type::S32), d = h.reg(Type::S32);
    for (unsigned l = 0; l < 32; ++l) {
      h.set(a, l, l * 7 % 11);
      h.set(b, l, l % 2 ? 5 : 0xfffffffbu);  // 5 or -5
      h.set(p, l, l % 3 == 0);
      h.set(q, l, 1);
      h.set(d, l, 1000 + l);
    }
    // setp.lt.s32 p|q, a, b, !p (And): p is read as c and written.
    Instruction in =
        Harness::make(Opcode::Setp, Type::S32, {h.r(p), h.r(q), h.r(a), h.r(b), h.r(p, true)});
    in.cmp = CmpOp::Lt;
    in.boolop = BoolOp::And;
    // selp.s32 a, b, a, p: a is a source and the destination.
    Instruction sel = Harness::make(Opcode::Selp, Type::S32, {h.r(a), h.r(b), h.r(a), h.r(p)});
    std::vector<uint64_t> old_a(32), old_p(32);
    for (unsigned l = 0; l < 32; ++l) old_a[l] = h.get(a, l), old_p[l] = h.get(p, l);
    h.run(in, active);
    h.run(sel, active);
    for (unsigned l = 0; l < 32; ++l) {
      const bool on = (active >> l) & 1;
      const bool lt = int64_t(old_a[l]) < (l % 2 ? 5 : -5);
      const uint64_t want_p = on ? uint64_t(lt && !old_p[l]) : old_p[l];
      const uint64_t want_q = on ? uint64_t(!lt && !old_p[l]) : 1;
      EXPECT_EQ(h.get(p, l), want_p) << "lane " << l;
      EXPECT_EQ(h.get(q, l), want_q) << "lane " << l;
      const uint64_t want_a = on ? (want_p ? h.get(b, l) : old_a[l]) : old_a[l];
      EXPECT_EQ(h.get(a, l), want_a) << "lane " << l;
      EXPECT_EQ(h.get(d, l), 1000u + l);
    }
  }
}

}  // namespace
}  // namespace warptlm::test
