// Instructions compilers emit for library code: the shf funnel shift, bfind,
// lop3 truth tables, bmsk, redux.sync over partial warps, and trap.
#include "harness.h"

namespace warptlm::test {
namespace {

auto funnel(bool right, bool clamp) {
  return [=](Instruction& i) {
    i.shift_right = right;
    i.shift_clamp = clamp;
  };
}
auto shiftamt = [](Instruction& i) { i.shiftamt = true; };
auto clamp = [](Instruction& i) { i.shift_clamp = true; };

TEST(Shf, LeftAndRightWrapAndClamp) {
  Harness h;
  const Type b = Type::B32;
  const uint64_t lo = 0x89abcdef, hi = 0x01234567;  // b:a = 0x01234567_89abcdef
  EXPECT_EQ(h.eval(Opcode::Shf, b, {lo, hi, 8}, funnel(false, false), b, b), 0x23456789u);
  EXPECT_EQ(h.eval(Opcode::Shf, b, {lo, hi, 8}, funnel(true, false), b, b), 0x6789abcdu);
  // 40 wraps to 8; clamps to 32, which moves a whole word.
  EXPECT_EQ(h.eval(Opcode::Shf, b, {lo, hi, 40}, funnel(false, false), b, b), 0x23456789u);
  EXPECT_EQ(h.eval(Opcode::Shf, b, {lo, hi, 40}, funnel(false, true), b, b), lo);
  EXPECT_EQ(h.eval(Opcode::Shf, b, {lo, hi, 40}, funnel(true, false), b, b), 0x6789abcdu);
  EXPECT_EQ(h.eval(Opcode::Shf, b, {lo, hi, 40}, funnel(true, true), b, b), hi);
  EXPECT_EQ(h.eval(Opcode::Shf, b, {lo, hi, 0}, funnel(false, true), b, b), hi);
  EXPECT_EQ(h.eval(Opcode::Shf, b, {lo, hi, 0}, funnel(true, true), b, b), lo);
  // The rotate idiom: shf.l.wrap x, x, n = rotl(x, n).
  EXPECT_EQ(h.eval(Opcode::Shf, b, {0x80000001, 0x80000001, 4}, funnel(false, false), b, b), 0x18u);
  EXPECT_THROW(h.eval(Opcode::Shf, Type::B64, {1, 2, 3}), UnsupportedInstruction);
}

TEST(Bfind, UnsignedSignedAndShiftAmount) {
  Harness h;
  const Type u = Type::U32;
  auto bf = [&](Type t, uint64_t v, bool amt = false) {
    return amt ? h.eval(Opcode::Bfind, t, {v}, shiftamt, u, t)
               : h.eval(Opcode::Bfind, t, {v}, {}, u, t);
  };
  EXPECT_EQ(bf(Type::U32, 0), 0xffffffffu);
  EXPECT_EQ(bf(Type::U32, 1), 0u);
  EXPECT_EQ(bf(Type::U32, 0x80000000), 31u);
  EXPECT_EQ(bf(Type::U32, 0x00012345), 16u);
  EXPECT_EQ(bf(Type::U32, 1, true), 31u);
  EXPECT_EQ(bf(Type::U32, 0x80000000, true), 0u);
  EXPECT_EQ(bf(Type::U32, 0, true), 0xffffffffu);  // not found stays not found
  // Signed: the first bit that differs from the sign.
  EXPECT_EQ(bf(Type::S32, 0xffffffff), 0xffffffffu);  // -1
  EXPECT_EQ(bf(Type::S32, 0xfffffffe), 0u);           // -2
  EXPECT_EQ(bf(Type::S32, 0x7fffffff), 30u);
  EXPECT_EQ(bf(Type::S32, 0x80000000), 30u);  // INT_MIN: ~a = 0x7fffffff
  EXPECT_EQ(bf(Type::S32, 0x7fffffff, true), 1u);
  EXPECT_EQ(bf(Type::U64, 1ull << 40), 40u);
  EXPECT_EQ(bf(Type::U64, 1ull << 40, true), 23u);
  EXPECT_EQ(bf(Type::S64, 0xffffff0000000000ull), 39u);  // -(2^40)
  EXPECT_EQ(bf(Type::S64, 0, true), 0xffffffffu);
}

TEST(Lop3, TruthTables) {
  Harness h;
  const Type b = Type::B32;
  auto lop3 = [&](uint64_t a, uint64_t bb, uint64_t c, int64_t lut) {
    const uint32_t d = h.reg(b), ra = h.reg(b), rb = h.reg(b), rc = h.reg(b);
    h.set(ra, 0, a);
    h.set(rb, 0, bb);
    h.set(rc, 0, c);
    h.run(Harness::make(Opcode::Lop3, b, {h.r(d), h.r(ra), h.r(rb), h.r(rc), Harness::imm(lut)}),
          1);
    return h.get(d, 0);
  };
  // On the inputs 0xF0, 0xCC, 0xAA every function returns its own table.
  for (int64_t lut : {0x00, 0x80, 0x96, 0xE8, 0xFE, 0x01, 0xFF, 0x5A}) {
    EXPECT_EQ(lop3(0xF0F0F0F0, 0xCCCCCCCC, 0xAAAAAAAA, lut), uint64_t(lut) * 0x01010101u) << lut;
  }
  EXPECT_EQ(lop3(0xffff0000, 0x12345678, 0x9abcdef0, 0xCA), 0x1234def0u);  // a ? b : c
  EXPECT_EQ(lop3(0x0000ffff, 0x00ff00ff, 0x0f0f0f0f, 0x96), 0x0ff0f00fu);  // a ^ b ^ c
  EXPECT_EQ(lop3(0xffffffff, 0, 0, 0x0F), 0u);                             // ~a
}

TEST(Bmsk, WrapAndClamp) {
  Harness h;
  const Type b = Type::B32, u = Type::U32;
  auto wrap = [&](uint64_t a, uint64_t w) { return h.eval(Opcode::Bmsk, b, {a, w}, {}, b, u); };
  auto clamped = [&](uint64_t a, uint64_t w) {
    return h.eval(Opcode::Bmsk, b, {a, w}, clamp, b, u);
  };
  EXPECT_EQ(wrap(1, 2), 0x6u);  // the PTX ISA's example
  EXPECT_EQ(wrap(8, 8), 0xff00u);
  EXPECT_EQ(wrap(28, 8), 0xf0000000u);  // cut off at bit 31
  EXPECT_EQ(wrap(4, 0), 0u);
  EXPECT_EQ(wrap(0, 32), 0u);    // width 32 wraps to 0
  EXPECT_EQ(wrap(32, 4), 0xfu);  // position 32 wraps to 0
  EXPECT_EQ(clamped(0, 32), 0xffffffffu);
  EXPECT_EQ(clamped(4, 100), 0xfffffff0u);
  EXPECT_EQ(clamped(32, 4), 0u);
  EXPECT_EQ(clamped(8, 8), 0xff00u);
}

class Redux : public ::testing::Test {
 protected:
  // redux.sync.op.t d, a, -1 over `active`, lanes holding `vals`.
  std::vector<uint64_t> run(AtomOp op, Type t, std::vector<uint64_t> vals, LaneMask active = 0xf,
                            bool abs = false, bool nan = false) {
    Harness h;
    const uint32_t d = h.reg(t), a = h.reg(t);
    h.set_all(d, 0xdead);
    for (unsigned l = 0; l < vals.size(); ++l) h.set(a, l, vals[l]);
    Instruction in = Harness::make(Opcode::Redux, t, {h.r(d), h.r(a), Harness::imm(-1)});
    in.atom = op;
    in.abs = abs;
    in.nan = nan;
    h.run(in, active);
    std::vector<uint64_t> out;
    for (unsigned l = 0; l < h.warp_size(); ++l) out.push_back(h.get(d, l));
    return out;
  }
  using V = std::vector<uint64_t>;
};

TEST_F(Redux, ArithmeticSignedAndUnsigned) {
  const V vals = {5, 0xfffffffd, 7, 1};  // 5, -3, 7, 1
  EXPECT_EQ(run(AtomOp::Add, Type::S32, vals), V(4, 10));
  EXPECT_EQ(run(AtomOp::Min, Type::S32, vals), V(4, 0xfffffffd));
  EXPECT_EQ(run(AtomOp::Max, Type::S32, vals), V(4, 7));
  EXPECT_EQ(run(AtomOp::Min, Type::U32, vals), V(4, 1));
  EXPECT_EQ(run(AtomOp::Max, Type::U32, vals), V(4, 0xfffffffd));
  // .add wraps to 32 bits.
  EXPECT_EQ(run(AtomOp::Add, Type::U32, {0xffffffff, 1, 0x80000000, 0x80000000}), V(4, 0));
}

TEST_F(Redux, LogicAndPartialWarps) {
  EXPECT_EQ(run(AtomOp::And, Type::B32, {0xff, 0x0f, 0x3f, 0x1f}), V(4, 0x0f));
  EXPECT_EQ(run(AtomOp::Or, Type::B32, {0x10, 0x01, 0x20, 0x02}), V(4, 0x33));
  EXPECT_EQ(run(AtomOp::Xor, Type::B32, {1, 2, 4, 9}), V(4, 14));
  // Only lanes 0 and 2 take part and get the result; 1 and 3 keep theirs.
  EXPECT_EQ(run(AtomOp::Add, Type::U32, {5, 100, 7, 100}, 0b0101), (V{12, 0xdead, 12, 0xdead}));
  EXPECT_EQ(run(AtomOp::Max, Type::S32, {5, 100, 7, 100}, 0b0001), (V{5, 0xdead, 0xdead, 0xdead}));
  EXPECT_EQ(run(AtomOp::Add, Type::U32, {5, 100, 7, 100}, 0), V(4, 0xdead));
}

TEST_F(Redux, FloatMinMaxWithAbsAndNaN) {
  const uint64_t nan = 0x7fc00001, canonical = 0x7fffffff;
  const V vals = {fbits(1.5f), fbits(-4.0f), fbits(0.25f), fbits(3.0f)};
  EXPECT_EQ(run(AtomOp::Min, Type::F32, vals), V(4, fbits(-4.0f)));
  EXPECT_EQ(run(AtomOp::Max, Type::F32, vals), V(4, fbits(3.0f)));
  // .abs: the magnitudes.
  EXPECT_EQ(run(AtomOp::Max, Type::F32, vals, 0xf, true), V(4, fbits(4.0f)));
  EXPECT_EQ(run(AtomOp::Min, Type::F32, vals, 0xf, true), V(4, fbits(0.25f)));
  // A NaN loses to the numbers unless .NaN; all NaN gives the canonical NaN.
  const V with_nan = {fbits(2.0f), nan, fbits(-1.0f), fbits(5.0f)};
  EXPECT_EQ(run(AtomOp::Min, Type::F32, with_nan), V(4, fbits(-1.0f)));
  EXPECT_EQ(run(AtomOp::Min, Type::F32, with_nan, 0xf, false, true), V(4, canonical));
  EXPECT_EQ(run(AtomOp::Max, Type::F32, {nan, nan, nan, nan}), V(4, canonical));
  // -0 orders below +0.
  EXPECT_EQ(run(AtomOp::Min, Type::F32, {0, 0x80000000, 0, 0}), V(4, 0x80000000u));
  EXPECT_EQ(run(AtomOp::Max, Type::F32, {0x80000000, 0, 0x80000000, 0x80000000}), V(4, 0u));
}

TEST(Trap, ReportsTheTrappingLanes) {
  Harness h;
  const uint32_t p = h.reg(Type::Pred);
  h.set(p, 0, 0);
  h.set(p, 1, 1);
  h.set(p, 2, 0);
  h.set(p, 3, 1);
  Instruction t = Harness::make(Opcode::Trap, Type::None, {});
  Outcome o = h.run(t, 0xf);
  EXPECT_EQ(o.control, Control::Trap);
  EXPECT_EQ(o.executed, 0xfu);
  t.has_guard = true;
  t.guard_reg = p;
  o = h.run(t, 0xf);
  EXPECT_EQ(o.control, Control::Trap);
  EXPECT_EQ(o.executed, 0b1010u);
  // A trap no lane executes does nothing.
  o = h.run(t, 0b0101);
  EXPECT_EQ(o.control, Control::None);
  EXPECT_EQ(o.executed, 0u);
}

}  // namespace
}  // namespace warptlm::test
