// Integer arithmetic: add sub mul mad mul24 mad24 div rem abs neg min max.
//
// Values follow the operands.h convention (sign-extended for signed types),
// so one 64-bit routine serves 16/32/64-bit types and the destination
// truncates, which gives PTX's wrap-around.
//
// Division by zero (PTX: unspecified, machine-specific) follows what NVIDIA
// hardware's division sequence produces: unsigned a/0 = all ones, a%0 = a;
// signed a/0 = -1 for a >= 0 and +1 for a < 0 (the unsigned quotient of |a|
// by zero is all ones, then negated when the signs differ), a%0 = a.
// MIN/-1 = MIN and MIN%-1 = 0 (two's complement wrap, no trap).
#include <cstdint>

#include "semantics/families.h"

namespace warptlm::sem {

namespace {

using i64 = int64_t;
using u64 = uint64_t;
using i128 = __int128;
using u128 = unsigned __int128;

i64 clamp_s32(i64 v) {
  if (v > INT32_MAX) return INT32_MAX;
  if (v < INT32_MIN) return INT32_MIN;
  return v;
}

// The lane loops (lane_binary, lane_ternary: operands.h) read every operand
// first, then apply op to the executed lanes, then write them.

// High half of the 2n-bit product of two n-bit values.
u64 mul_hi(u64 a, u64 b, unsigned n, bool s) {
  if (n == 64) {
    if (s) return static_cast<u64>((i128(i64(a)) * i128(i64(b))) >> 64);
    return static_cast<u64>((u128(a) * u128(b)) >> 64);
  }
  if (s) return static_cast<u64>((i64(a) * i64(b)) >> n);  // exact for n <= 32
  return (a * b) >> n;
}

void mul_mad(const Exec& x, Type t, bool mad) {
  const unsigned n = type_bits(t);
  const bool s = is_signed(t);
  const MulMode mode = x.inst.mul == MulMode::None ? MulMode::Lo : x.inst.mul;
  const bool sat = x.inst.sat;
  if (sat && !(mad && mode == MulMode::Hi && t == Type::S32))
    x.unsupported(".sat is only defined for mad.hi.s32");
  if (mode == MulMode::Wide) {
    if (n > 32) x.unsupported(".wide needs a 16- or 32-bit type");
    const Type wt = wide_type(t);
    // The full product of two n <= 32 bit values fits in 64 bits.
    auto wide = [s](u64 a, u64 b) { return s ? u64(i64(a) * i64(b)) : a * b; };
    if (!mad) return lane_binary(x, wt, t, t, wide);
    return lane_ternary(x, wt, t, wt, [&](u64 a, u64 b, u64 c) { return wide(a, b) + c; });
  }
  if (mode == MulMode::Lo) {
    if (!mad) return lane_binary(x, t, t, t, [](u64 a, u64 b) { return a * b; });
    return lane_ternary(x, t, t, t, [](u64 a, u64 b, u64 c) { return a * b + c; });
  }
  if (!mad) return lane_binary(x, t, t, t, [n, s](u64 a, u64 b) { return mul_hi(a, b, n, s); });
  if (sat) {
    return lane_ternary(x, t, t, t, [](u64 a, u64 b, u64 c) {
      return u64(clamp_s32(i64(sext(mul_hi(a, b, 32, true), 32)) + i64(c)));
    });
  }
  lane_ternary(x, t, t, t, [n, s](u64 a, u64 b, u64 c) { return mul_hi(a, b, n, s) + c; });
}

// mul24/mad24: 24-bit operands, 48-bit product; .lo = t[31:0], .hi = t[47:16].
void mul24(const Exec& x, Type t, bool mad) {
  if (t != Type::U32 && t != Type::S32) x.unsupported("needs .u32 or .s32");
  const bool s = t == Type::S32;
  const bool hi = x.inst.mul == MulMode::Hi;
  if (x.inst.mul == MulMode::Wide) x.unsupported(".wide is not defined");
  const bool sat = x.inst.sat;
  if (sat && !(mad && hi && s)) x.unsupported(".sat is only defined for mad24.hi.s32");
  auto product = [s, hi](u64 a, u64 b) {
    const u64 p = s ? u64(i64(sext(a, 24)) * i64(sext(b, 24))) : zext(a, 24) * zext(b, 24);
    return hi ? u64(i64(p) >> 16) : p;
  };
  if (!mad) return lane_binary(x, t, t, t, product);
  if (sat) {
    return lane_ternary(x, t, t, t, [&](u64 a, u64 b, u64 c) {
      return u64(clamp_s32(i64(sext(product(a, b), 32)) + i64(c)));
    });
  }
  lane_ternary(x, t, t, t, [&](u64 a, u64 b, u64 c) { return product(a, b) + c; });
}

// div/rem in the integer types U (unsigned) and S (signed) of the operation's
// width: operands of 32 bits or less fit 32-bit types exactly, and a 32-bit
// division is several times faster than a 64-bit one on x86-64. Results are
// widened back to the value convention (S sign-extends).
template <class U, class S>
void div_rem_as(const Exec& x, Type t, bool rem) {
  if (!is_signed(t)) {
    const u64 ones = low_mask(type_bits(t));
    if (rem)
      return lane_binary(x, t, t, t, [](u64 a, u64 b) { return b == 0 ? a : u64(U(a) % U(b)); });
    return lane_binary(x, t, t, t,
                       [ones](u64 a, u64 b) { return b == 0 ? ones : u64(U(a) / U(b)); });
  }
  if (rem) {
    return lane_binary(x, t, t, t, [](u64 a, u64 b) {
      if (b == 0) return a;
      if (i64(b) == -1) return u64(0);  // also avoids MIN % -1
      return u64(i64(S(a) % S(b)));
    });
  }
  lane_binary(x, t, t, t, [](u64 a, u64 b) {
    if (b == 0) return i64(a) >= 0 ? ~u64(0) : u64(1);
    if (i64(b) == -1) return u64(0) - a;  // MIN / -1 wraps to MIN
    return u64(i64(S(a) / S(b)));
  });
}

void div_rem(const Exec& x, Type t, bool rem) {
  if (type_bits(t) <= 32) return div_rem_as<uint32_t, int32_t>(x, t, rem);
  div_rem_as<u64, i64>(x, t, rem);
}

void unary(const Exec& x, Type t, bool neg) {
  if (!is_signed(t)) x.unsupported("needs a signed type");
  const Dest d = x.dst(0, t);
  const Source a = x.src(1, t);
  const LaneMask m = x.executed;
  const unsigned ws = x.warp_size();
  LaneValues av;
  a.gather(m, ws, av);
  each_lane(m, ws, [&](unsigned lane) {
    const u64 v = av[lane];
    av[lane] = (neg || i64(v) < 0) ? u64(0) - v : v;  // MIN stays MIN
  });
  d.scatter(m, ws, av);
}

void min_max(const Exec& x, Type t, bool is_max) {
  if (is_signed(t)) {
    return lane_binary(x, t, t, t,
                       [is_max](u64 a, u64 b) { return (i64(a) < i64(b)) != is_max ? a : b; });
  }
  lane_binary(x, t, t, t, [is_max](u64 a, u64 b) { return (a < b) != is_max ? a : b; });
}

}  // namespace

void exec_int_arith(const Exec& x) {
  const Instruction& in = x.inst;
  const Type t = in.type;
  const unsigned n = type_bits(t);
  if (t == Type::Pred || is_float(t) || (n != 16 && n != 32 && n != 64))
    x.unsupported("needs a 16-, 32- or 64-bit integer type");
  switch (in.op) {
    case Opcode::Add:
    case Opcode::Sub: {
      const bool sub = in.op == Opcode::Sub;
      if (in.sat) {
        if (t != Type::S32) x.unsupported(".sat is only defined for .s32");
        return lane_binary(x, t, t, t, [sub](u64 a, u64 b) {
          return u64(clamp_s32(sub ? i64(a) - i64(b) : i64(a) + i64(b)));
        });
      }
      return lane_binary(x, t, t, t, [sub](u64 a, u64 b) { return sub ? a - b : a + b; });
    }
    case Opcode::Mul:
      return mul_mad(x, t, false);
    case Opcode::Mad:
      return mul_mad(x, t, true);
    case Opcode::Mul24:
      return mul24(x, t, false);
    case Opcode::Mad24:
      return mul24(x, t, true);
    case Opcode::Div:
      return div_rem(x, t, false);
    case Opcode::Rem:
      return div_rem(x, t, true);
    case Opcode::Abs:
      return unary(x, t, false);
    case Opcode::Neg:
      return unary(x, t, true);
    case Opcode::Min:
      return min_max(x, t, false);
    case Opcode::Max:
      return min_max(x, t, true);
    default:
      x.unsupported("not an integer arithmetic opcode");
  }
}

}  // namespace warptlm::sem
