// Floating-point arithmetic: add sub mul mad/fma div abs neg min max rcp sqrt
// rsqrt ex2 lg2 sin cos tanh copysign, for .f32/.f64 (the half-precision
// forms are in half_arith.cc).
//
// IEEE forms (.rn/.rz/.rm/.rp, div.full) are correctly rounded; a missing
// rounding modifier means .rn (PTX requires one for div/rcp/sqrt; we read
// its absence as the IEEE default). mad.f32/.f64 is fma (sm_20+).
//
// .approx forms (rcp/sqrt/rsqrt/ex2/lg2/sin/cos/tanh, div.approx) are computed
// with the host libm in double precision and rounded once to the result
// type, except rcp.approx.ftz.f64, which keeps the hardware's 20-bit
// fraction (rcp_high_word). That is at least as accurate as PTX's documented bounds (e.g. ex2
// 2 ulp, sin/cos 2^-20.5 absolute in [-pi, pi]) and deterministic, but it is
// not bit-identical to the hardware's approximations. Special values follow
// IEEE/libm, which matches PTX: rcp(+-0) = +-inf, rsqrt(+-0) = +-inf,
// rsqrt(x<0) = NaN, lg2(+-0) = -inf, lg2(x<0) = NaN, ex2(-inf) = +0,
// sin/cos(+-inf) = NaN. div.approx.f32 keeps PTX's documented quirk: for
// 2^126 < |b| < 2^128 it returns 0 (NaN when a is infinite).
#include <cmath>
#include <cstdint>

#include "semantics/families.h"
#include "semantics/float_util.h"

namespace warptlm::sem {

namespace {

using u64 = uint64_t;

Rounding ieee_mode(const Exec& x) {
  const Rounding r = x.inst.rnd;
  if (r == Rounding::None) return Rounding::Rn;
  if (r != Rounding::Rn && !is_directed(r)) x.unsupported("integer rounding on float arithmetic");
  return r;
}

// rcp.approx.ftz.f64 as NVIDIA GPUs compute it (MUFU.RCP64H): on the high
// 32 bits of a (sign, exponent and 20 fraction bits, the low word ignored),
// giving a result in the same format: here the reciprocal of a's high word,
// rounded to nearest at 20 fraction bits, low word 0. 1/3 gives
// 0.33333325386047363 (docs/semantics.md).
template <class F>
F rcp_high_word(F a) {
  constexpr u64 kHigh = 0xffffffff00000000ull;
  const double r = 1.0 / from_bits<double>(to_bits(double(a)) & kHigh);
  if (!std::isfinite(r)) return F(r);
  return F(from_bits<double>((to_bits(r) + 0x80000000ull) & kHigh));
}

template <class F>
class FloatFamily {
 public:
  explicit FloatFamily(const Exec& x) : x_(x), ftz_(x.inst.ftz), sat_(x.inst.sat) {}

  void run() {
    const Instruction& in = x_.inst;
    switch (in.op) {
      case Opcode::Add:
        return binary(ieee_mode(x_), [](F a, F b) { return a + b; });
      case Opcode::Sub:
        return binary(ieee_mode(x_), [](F a, F b) { return a - b; });
      case Opcode::Mul:
        if (in.mul != MulMode::None) x_.unsupported(".lo/.hi/.wide on a float type");
        return binary(ieee_mode(x_), [](F a, F b) { return a * b; });
      case Opcode::Mad:
        if (in.mul != MulMode::None) x_.unsupported(".lo/.hi/.wide on a float type");
        return fma();
      case Opcode::Fma:
        return fma();
      case Opcode::Div:
        return div();
      case Opcode::Abs:
        return sign_op(~kSign, 0);
      case Opcode::Neg:
        return sign_op(~u64(0), kSign);
      case Opcode::Min:
      case Opcode::Max: {
        const bool is_max = in.op == Opcode::Max, nan_wins = in.nan;
        return each2([=](F a, F b) { return min_max(a, b, is_max, nan_wins); });
      }
      case Opcode::Rcp:
        if (in.approx && kType == Type::F64) return unary([](F a) { return rcp_high_word(a); });
        if (in.approx) return unary([](F a) { return F(1) / a; });
        return binary_const_a(F(1), [](F a, F b) { return a / b; });
      case Opcode::Sqrt:
        if (in.approx) return unary([](F a) { return std::sqrt(a); });
        return unary_rounded([](F a, F) { return std::sqrt(a); });
      case Opcode::Rsqrt:
        return unary(
            [](F a) { return static_cast<F>(1.0L / std::sqrt(static_cast<long double>(a))); });
      case Opcode::Ex2:
        return transcendental([](double a) { return std::exp2(a); });
      case Opcode::Lg2:
        return transcendental([](double a) { return std::log2(a); });
      case Opcode::Sin:
        return transcendental([](double a) { return std::sin(a); });
      case Opcode::Cos:
        return transcendental([](double a) { return std::cos(a); });
      case Opcode::Tanh:
        return transcendental([](double a) { return std::tanh(a); });
      case Opcode::Copysign:
        return copysign();
      default:
        x_.unsupported("not a floating-point opcode");
    }
  }

 private:
  static constexpr unsigned kBits = sizeof(F) * 8;
  static constexpr Type kType = sizeof(F) == 4 ? Type::F32 : Type::F64;
  static constexpr u64 kSign = u64(1) << (kBits - 1);

  F in(u64 bits) const {
    const F v = from_bits<F>(bits);
    return ftz_ ? flush(v) : v;
  }
  u64 out(F r) const { return finish(r, ftz_, sat_); }

  // d = f(a, b) on raw results (min/max: the selected operand's bits).
  template <class Op>
  void each2(Op f) {
    const Dest d = x_.dst(0, kType);
    const Source a = x_.src(1, kType), b = x_.src(2, kType);
    for_lanes(x_.executed, [&](unsigned lane) { d(lane, f(in(a(lane)), in(b(lane)))); });
  }
  template <class Op>
  void binary(Rounding r, Op op) {
    each2([&](F a, F b) { return out(rounded(r, op, a, b)); });
  }
  // rcp.rn: 1/a with the instruction's rounding.
  template <class Op>
  void binary_const_a(F one, Op op) {
    const Rounding r = ieee_mode(x_);
    const Dest d = x_.dst(0, kType);
    const Source a = x_.src(1, kType);
    for_lanes(x_.executed, [&](unsigned lane) { d(lane, out(rounded(r, op, one, in(a(lane))))); });
  }
  template <class Op>
  void unary(Op op) {
    const Dest d = x_.dst(0, kType);
    const Source a = x_.src(1, kType);
    for_lanes(x_.executed, [&](unsigned lane) { d(lane, out(op(in(a(lane))))); });
  }
  template <class Op>
  void unary_rounded(Op op) {
    const Rounding r = ieee_mode(x_);
    unary([&](F a) { return rounded(r, op, a, F(0)); });
  }
  // ex2/lg2/sin/cos exist only as .approx.f32.
  template <class Op>
  void transcendental(Op op) {
    if (kType != Type::F32) x_.unsupported("only .approx.f32 is defined");
    unary([&](F a) { return static_cast<F>(op(static_cast<double>(a))); });
  }
  void fma() {
    const Rounding r = ieee_mode(x_);
    const Dest d = x_.dst(0, kType);
    const Source a = x_.src(1, kType), b = x_.src(2, kType), c = x_.src(3, kType);
    auto op = [](F p, F q, F s) { return std::fma(p, q, s); };
    for_lanes(x_.executed, [&](unsigned lane) {
      d(lane, out(rounded(r, op, in(a(lane)), in(b(lane)), in(c(lane)))));
    });
  }
  void div() {
    const Instruction& in = x_.inst;
    if (in.approx || in.full) {
      if (kType != Type::F32) x_.unsupported(".approx/.full division is .f32 only");
      if (in.rnd != Rounding::None) x_.unsupported("rounding modifier with .approx/.full");
      if (in.full) return binary(Rounding::Rn, [](F a, F b) { return a / b; });
      return binary(Rounding::Rn, [](F a, F b) {
        const F ab = std::fabs(b);
        if (ab > F(0x1p126) && !std::isinf(ab)) return (a * F(0)) * std::copysign(F(1), b);
        return a / b;
      });
    }
    binary(ieee_mode(x_), [](F a, F b) { return a / b; });
  }
  // abs/neg act on the sign bit only (NaN payloads and signs included).
  void sign_op(u64 and_mask, u64 xor_mask) {
    const Dest d = x_.dst(0, kType);
    const Source a = x_.src(1, kType);
    for_lanes(x_.executed,
              [&](unsigned lane) { d(lane, (to_bits(in(a(lane))) & and_mask) ^ xor_mask); });
  }
  // copysign d, a, b: the magnitude of b with the sign of a.
  void copysign() {
    const Dest d = x_.dst(0, kType);
    const Source a = x_.src(1, kType), b = x_.src(2, kType);
    for_lanes(x_.executed, [&](unsigned lane) { d(lane, (b(lane) & ~kSign) | (a(lane) & kSign)); });
  }

  const Exec& x_;
  bool ftz_, sat_;
};

}  // namespace

void exec_float_arith(const Exec& x) {
  switch (x.inst.type) {
    case Type::F32:
      return FloatFamily<float>(x).run();
    case Type::F64:
      return FloatFamily<double>(x).run();
    case Type::F16:
    case Type::BF16:
    case Type::F16x2:
    case Type::BF16x2:
      return exec_half_arith(x);
    default:
      x.unsupported("needs a floating-point type");
  }
}

}  // namespace warptlm::sem
