// cvt between every integer/float pair, and cvta.
//
// int -> int: sign- or zero-extension by the source type, truncation to the
//   destination; .sat clamps the source value to the destination's range.
// float -> int: integer rounding (.rni/.rzi/.rmi/.rpi; none given means
//   .rzi), then saturation to the destination range, as PTX does by
//   default; NaN converts to 0.
// int -> float: .rn/.rz/.rm/.rp (none means .rn), exact IEEE rounding.
// float -> float: narrowing rounds with .rn/.rz/.rm/.rp; an integer rounding
//   mode rounds to an integral value (in the source precision, then to the
//   destination to nearest); widening is exact. NaN gives the destination's
//   canonical NaN.
// .ftz flushes .f32 subnormal sources and results; .sat on a float
//   destination clamps to [0.0, 1.0] with NaN -> +0.0.
#include <cmath>
#include <cstdint>

#include "memory/address_map.h"
#include "semantics/families.h"
#include "semantics/float16.h"
#include "semantics/float_util.h"

namespace warptlm::sem {

namespace {

using u64 = uint64_t;
using i64 = int64_t;

bool is_int(Type t) { return t != Type::Pred && t != Type::None && !is_float(t); }

// .sat int -> int: clamp v (read with the source's signedness) into dt.
u64 clamp_int(u64 v, bool src_signed, Type dt) {
  const unsigned n = type_bits(dt);
  const bool neg = src_signed && i64(v) < 0;
  if (is_signed(dt)) {
    const u64 hi = low_mask(n - 1);  // 2^(n-1) - 1
    if (neg) {
      const i64 lo = n == 64 ? INT64_MIN : -(i64(1) << (n - 1));
      return i64(v) < lo ? u64(lo) : v;
    }
    return v > hi ? hi : v;
  }
  if (neg) return 0;
  return v > low_mask(n) ? low_mask(n) : v;
}

// Float (already rounded to an integral value) -> saturated integer of dt.
u64 float_to_int(double r, Type dt) {
  if (std::isnan(r)) return 0;
  const unsigned n = type_bits(dt);
  if (is_signed(dt)) {
    const double lim = std::ldexp(1.0, static_cast<int>(n) - 1);  // 2^(n-1)
    if (r >= lim) return low_mask(n - 1);
    if (r <= -lim) return u64(n == 64 ? INT64_MIN : -(i64(1) << (n - 1)));
    return u64(i64(r));
  }
  if (r <= 0) return 0;
  if (r >= std::ldexp(1.0, static_cast<int>(n))) return low_mask(n);
  return u64(r);
}

// Reads a float source as double (exact), with .ftz for .f32.
double read_float(u64 bits, Type t, bool ftz) {
  if (t == Type::F16 || t == Type::BF16)
    return half_to_double(half_format(t), static_cast<uint16_t>(bits));
  if (t == Type::F32) {
    const float f = from_bits<float>(bits);
    return ftz ? flush(f) : f;
  }
  return from_bits<double>(bits);
}

// Rounds the double v to float type dt with rounding r and applies .ftz/.sat.
// v is exact except for f64 sources, whose narrowing rounds here once.
u64 write_float(double v, Type dt, Rounding r, bool ftz, bool sat) {
  if (dt == Type::F16 || dt == Type::BF16) {
    if (sat) v = std::isnan(v) ? 0.0 : saturate(v);
    return half_from_double(half_format(dt), v, r);
  }
  if (dt == Type::F32) return finish(rounded_convert<float>(r, v), ftz, sat);
  return finish(v, false, sat);
}

// f32 -> .f16/.bf16 (element of a pair or alone) with .relu and .satfinite:
// .relu makes a negative result +0 and keeps NaN, .satfinite turns overflow
// and infinities into the largest finite value of the same sign.
uint16_t f32_to_half(u64 bits, HalfFormat f, Rounding r, bool relu, bool satfinite) {
  const double v = from_bits<float>(bits);
  uint16_t h = half_from_double(f, v, r, satfinite);
  if (relu && (h & 0x8000) && !half_is_nan(f, h)) h = 0;
  return h;
}

// cvt.{rn,rz}{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b: a into the
// upper half, b into the lower.
void cvt_packed(const Exec& x) {
  const Instruction& in = x.inst;
  if (in.src_type != Type::F32) x.unsupported("a packed pair is converted from .f32");
  const HalfFormat f = half_format(in.type);
  const Dest d = x.dst(0, Type::B32);
  const Source a = x.src(1, Type::F32), b = x.src(2, Type::F32);
  const Rounding r = in.rnd;
  const bool relu = in.relu, satfinite = in.satfinite;
  for_lanes(x.executed, [&](unsigned l) {
    const u64 hi = f32_to_half(a(l), f, r, relu, satfinite);
    const u64 lo = f32_to_half(b(l), f, r, relu, satfinite);
    d(l, (hi << 16) | lo);
  });
}

// f32 -> tf32 (1 sign, 8 exponent, 10 fraction bits, held as the f32 whose
// low 13 bits are 0). .rna rounds ties away from zero, .rn to even, .rz
// truncates; an f32 that rounds past the largest tf32 becomes infinity, or
// with .satfinite the largest finite tf32 of its sign. NaN gives the
// canonical NaN; .relu makes a negative result +0.
uint32_t f32_to_tf32(uint32_t f, Rounding r, bool relu, bool satfinite) {
  constexpr uint32_t kLow = 0x1fff, kMaxFinite = 0x7f7fe000;
  const uint32_t sign = f & 0x80000000u, mag = f & 0x7fffffffu;
  if (mag > 0x7f800000u) return 0x7fffffffu;
  uint32_t m = mag;
  if (mag < 0x7f800000u) {  // finite: an infinity stays one
    if (r == Rounding::Rna)
      m += 0x1000;
    else if (r == Rounding::Rn)
      m += 0xfff + ((m >> 13) & 1);
    m &= ~kLow;
    if (m >= 0x7f800000u && satfinite) m = kMaxFinite;
  } else if (satfinite) {
    m = kMaxFinite;
  }
  return relu && sign ? 0 : (sign | m);
}

void cvt_tf32(const Exec& x) {
  const Instruction& in = x.inst;
  const Dest d = x.dst(0, Type::B32);
  const Source a = x.src(1, Type::F32);
  for_lanes(x.executed, [&](unsigned l) {
    d(l, f32_to_tf32(static_cast<uint32_t>(a(l)), in.rnd, in.relu, in.satfinite));
  });
}

void cvt(const Exec& x) {
  const Instruction& in = x.inst;
  const Type dt = in.type, st = in.src_type;
  if (in.tf32) return cvt_tf32(x);
  if (is_packed_half(dt)) return cvt_packed(x);
  if (in.relu || in.satfinite) {
    if (st != Type::F32 || (dt != Type::F16 && dt != Type::BF16))
      x.unsupported(".relu/.satfinite convert .f32 to .f16 or .bf16 only");
    const HalfFormat f = half_format(dt);
    const Dest d = x.dst(0, dt);
    const Source a = x.src(1, st);
    const Rounding r = in.rnd;
    const bool relu = in.relu, satfinite = in.satfinite;
    return for_lanes(x.executed,
                     [&](unsigned l) { d(l, f32_to_half(a(l), f, r, relu, satfinite)); });
  }
  const bool ftz = in.ftz, sat = in.sat;
  Rounding r = in.rnd;
  const bool int_rnd = r >= Rounding::Rni;
  if (!(is_int(dt) || is_float(dt)) || !(is_int(st) || is_float(st)))
    x.unsupported("cvt needs integer or float types");
  const Dest d = x.dst(0, dt);
  const Source a = x.src(1, st);
  if (is_int(st) && is_int(dt)) {
    if (r != Rounding::None) x.unsupported("rounding modifier on an integer conversion");
    const bool s = is_signed(st);
    return for_lanes(x.executed, [&](unsigned l) { d(l, sat ? clamp_int(a(l), s, dt) : a(l)); });
  }
  if (is_float(st) && is_int(dt)) {
    if (r == Rounding::None) r = Rounding::Rzi;
    if (r < Rounding::Rni) x.unsupported("float-to-integer needs .rni/.rzi/.rmi/.rpi");
    return for_lanes(x.executed, [&](unsigned l) {
      d(l, float_to_int(round_integral(read_float(a(l), st, ftz), r), dt));
    });
  }
  if (int_rnd && is_int(st)) x.unsupported("integer-to-float needs .rn/.rz/.rm/.rp");
  if (is_int(st)) {
    // Integers convert to double exactly up to 2^53; beyond that only f64
    // destinations are reachable without overflow and they convert directly.
    const bool s = is_signed(st);
    return for_lanes(x.executed, [&](unsigned l) {
      const u64 v = a(l);
      if (dt == Type::F64) {
        const double f = s ? rounded_convert<double>(r, i64(v)) : rounded_convert<double>(r, v);
        return d(l, finish(f, false, sat));
      }
      if (dt == Type::F32) {
        const float f = s ? rounded_convert<float>(r, i64(v)) : rounded_convert<float>(r, v);
        return d(l, finish(f, ftz, sat));
      }
      // 16-bit floats: a double rounded to odd keeps the one rounding exact.
      d(l, write_float(int_to_double_odd(v, s), dt, r, ftz, sat));
    });
  }
  // float -> float
  for_lanes(x.executed, [&](unsigned l) {
    double v = read_float(a(l), st, ftz);
    Rounding fr = r;
    if (int_rnd) {
      v = round_integral(v, r);
      fr = Rounding::Rn;
    }
    d(l, write_float(v, dt, fr, ftz, sat));
  });
}

// cvta.space d, a: a + window base; cvta.to.space d, a: a - window base.
// .global is the identity (global addresses are generic addresses). With a
// .u32 type the result is truncated to 32 bits.
void cvta(const Exec& x) {
  const Instruction& in = x.inst;
  const Type t = in.type;
  if (t != Type::U32 && t != Type::U64 && t != Type::B32 && t != Type::B64)
    x.unsupported("cvta needs .u32 or .u64");
  if (in.space == Space::Generic) x.unsupported("cvta needs a state space");
  const u64 base = address_map::window_base(in.space);
  const Dest d = x.dst(0, t);
  const Source a = x.src(1, t);
  const bool to = in.cvta_to;
  for_lanes(x.executed, [&](unsigned l) { d(l, to ? a(l) - base : a(l) + base); });
}

}  // namespace

void exec_convert(const Exec& x) {
  if (x.inst.op == Opcode::Cvta) return cvta(x);
  cvt(x);
}

}  // namespace warptlm::sem
