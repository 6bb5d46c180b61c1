// Floating-point helpers shared by the arithmetic, compare and convert
// families: bit casts, .ftz/.sat/NaN post-processing and directed rounding.
//
// NaN results: GPUs write one canonical NaN rather than propagating payloads:
// 0x7fffffff for .f32 (documented PTX behaviour). We use the same
// all-ones-payload, positive pattern for .f64 (0x7fffffffffffffff) and .f16
// (0x7fff). The f64 pattern is our choice; PTX leaves it unspecified.
//
// Directed rounding (.rz/.rm/.rp) uses the host FPU: the rounding mode is set
// with fesetround around one operation whose operands pass through volatile
// variables, which pins the operation between the two fesetround calls (the
// compiler otherwise assumes round-to-nearest and may move or fold it).
// Round-to-nearest operations run as plain host arithmetic.
#pragma once

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "frontend/ir.h"

namespace warptlm::sem {

template <class F>
inline F from_bits(uint64_t b);
template <>
inline float from_bits<float>(uint64_t b) {
  const uint32_t u = static_cast<uint32_t>(b);
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
template <>
inline double from_bits<double>(uint64_t b) {
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}
inline uint64_t to_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
inline uint64_t to_bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

template <class F>
constexpr uint64_t canonical_nan();
template <>
constexpr uint64_t canonical_nan<float>() {
  return 0x7fffffffull;
}
template <>
constexpr uint64_t canonical_nan<double>() {
  return 0x7fffffffffffffffull;
}

template <class F>
inline bool is_subnormal(F x) {
  return std::fpclassify(x) == FP_SUBNORMAL;
}
// .ftz: subnormals become zeros of the same sign.
template <class F>
inline F flush(F x) {
  return is_subnormal(x) ? std::copysign(F(0), x) : x;
}
// .sat: clamp to [0.0, 1.0]; NaN and -0.0 give +0.0.
template <class F>
inline F saturate(F x) {
  if (!(x > F(0))) return F(0);
  return x > F(1) ? F(1) : x;
}
// The common tail of a float instruction: canonical NaN, .ftz, .sat.
template <class F>
inline uint64_t finish(F r, bool ftz, bool sat) {
  if (std::isnan(r)) return sat ? to_bits(F(0)) : canonical_nan<F>();
  if (ftz) r = flush(r);
  if (sat) r = saturate(r);
  return to_bits(r);
}

// A float comparison (setp, set, slct, and the pre-decoded setp with `op` a
// constant, which folds the switch away): the ordered ones are false when
// either operand is NaN, the unordered ones (equ .. geu) true; num and nan
// test for NaN. Comparing floats as floats gives what comparing them as
// doubles does (the conversion is exact).
template <class F>
inline bool compare_floats(CmpOp op, F a, F b) {
  const bool unord = a != a || b != b;
  switch (op) {
    case CmpOp::Eq:
      return a == b;
    case CmpOp::Ne:
      return !unord && a != b;
    case CmpOp::Lt:
      return a < b;
    case CmpOp::Le:
      return a <= b;
    case CmpOp::Gt:
      return a > b;
    case CmpOp::Ge:
      return a >= b;
    case CmpOp::Equ:
      return unord || a == b;
    case CmpOp::Neu:
      return a != b;
    case CmpOp::Ltu:
      return unord || a < b;
    case CmpOp::Leu:
      return unord || a <= b;
    case CmpOp::Gtu:
      return unord || a > b;
    case CmpOp::Geu:
      return unord || a >= b;
    case CmpOp::Num:
      return !unord;
    case CmpOp::Nan:
      return unord;
    default:
      return false;  // an integer-only comparison: rejected before
  }
}

// min/max on already-flushed values: NaN loses to a number (unless .NaN),
// and -0.0 < +0.0. Shared by min/max and redux's .f32 forms.
template <class F>
inline uint64_t min_max(F a, F b, bool is_max, bool nan_wins) {
  const bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) {
    if (nan_wins || (na && nb)) return canonical_nan<F>();
    return to_bits(na ? b : a);
  }
  if (a == b) return to_bits(std::signbit(a) != is_max ? a : b);
  return to_bits((a < b) != is_max ? a : b);
}

inline bool is_directed(Rounding r) {
  return r == Rounding::Rz || r == Rounding::Rm || r == Rounding::Rp;
}
inline int fe_mode(Rounding r) {
  switch (r) {
    case Rounding::Rz:
      return FE_TOWARDZERO;
    case Rounding::Rm:
      return FE_DOWNWARD;
    case Rounding::Rp:
      return FE_UPWARD;
    default:
      return FE_TONEAREST;
  }
}

// op(a, b[, c]) rounded with r (None/Rn: round to nearest even).
template <class F, class Op>
inline F rounded(Rounding r, Op op, F a, F b) {
  if (!is_directed(r)) return op(a, b);
  volatile F va = a, vb = b;
  const int saved = std::fegetround();
  std::fesetround(fe_mode(r));
  volatile F res = op(F(va), F(vb));
  std::fesetround(saved);
  return res;
}
template <class F, class Op>
inline F rounded(Rounding r, Op op, F a, F b, F c) {
  if (!is_directed(r)) return op(a, b, c);
  volatile F va = a, vb = b, vc = c;
  const int saved = std::fegetround();
  std::fesetround(fe_mode(r));
  volatile F res = op(F(va), F(vb), F(vc));
  std::fesetround(saved);
  return res;
}
// Converts an integer or double to F with rounding r.
template <class F, class V>
inline F rounded_convert(Rounding r, V v) {
  if (!is_directed(r)) return static_cast<F>(v);
  volatile V vv = v;
  const int saved = std::fegetround();
  std::fesetround(fe_mode(r));
  volatile F res = static_cast<F>(V(vv));
  std::fesetround(saved);
  return res;
}

// Rounds to an integral value with an integer rounding mode (.rni/.rzi/.rmi/
// .rpi); exact, independent of the FPU mode.
inline double round_integral(double v, Rounding r) {
  switch (r) {
    case Rounding::Rzi:
      return std::trunc(v);
    case Rounding::Rmi:
      return std::floor(v);
    case Rounding::Rpi:
      return std::ceil(v);
    default: {  // Rni: nearest, ties to even
      const double f = std::floor(v);
      const double d = v - f;
      if (d > 0.5 || (d == 0.5 && std::fmod(f, 2.0) != 0)) return std::copysign(f + 1, v);
      return std::copysign(f, v);
    }
  }
}

}  // namespace warptlm::sem
