// The two 16-bit float formats of PTX, IEEE 754 binary16 (.f16) and bfloat16
// (.bf16), converted on bits so that every rounding mode is exact and
// independent of the host's floating-point state.
#pragma once

#include <cstdint>

#include "frontend/ir.h"

namespace warptlm::sem {

enum class HalfFormat : uint8_t { F16, BF16 };

// The format of a half type's elements (.f16 and .f16x2 -> F16, else BF16).
inline HalfFormat half_format(Type t) {
  return (t == Type::F16 || t == Type::F16x2) ? HalfFormat::F16 : HalfFormat::BF16;
}

// NaN results of half-precision operations: the canonical NaN, 0x7fff in
// both formats (PTX ISA).
constexpr uint16_t kHalfCanonicalNan = 0x7fff;
constexpr uint16_t kF16CanonicalNan = kHalfCanonicalNan;

// Exact: every binary16 and bfloat16 value is a double.
double half_to_double(HalfFormat f, uint16_t h);

// Rounds v to the format with `mode` (Rn/Rz/Rm/Rp; None means Rn). NaN
// gives the canonical NaN; overflow gives infinity or the largest finite
// value as the mode directs, and always the largest finite value with
// `satfinite` (infinities too).
uint16_t half_from_double(HalfFormat f, double v, Rounding mode, bool satfinite = false);

// The bits of 1.0 in the format (set's true result).
inline uint16_t half_one(HalfFormat f) { return f == HalfFormat::F16 ? 0x3c00 : 0x3f80; }
inline uint16_t half_exponent_mask(HalfFormat f) { return f == HalfFormat::F16 ? 0x7c00 : 0x7f80; }
inline bool half_is_nan(HalfFormat f, uint16_t h) {
  const uint16_t e = half_exponent_mask(f);
  return (h & e) == e && (h & 0x7fff & ~e) != 0;
}
inline bool half_is_subnormal(HalfFormat f, uint16_t h) {
  return (h & half_exponent_mask(f)) == 0 && (h & 0x7fff) != 0;
}
// .ftz: a subnormal becomes a zero of the same sign.
inline uint16_t half_flush(HalfFormat f, uint16_t h) {
  return half_is_subnormal(f, h) ? (h & 0x8000) : h;
}

inline double f16_to_double(uint16_t h) { return half_to_double(HalfFormat::F16, h); }
inline uint16_t f16_from_double(double v, Rounding mode) {
  return half_from_double(HalfFormat::F16, v, mode);
}
inline bool f16_is_nan(uint16_t h) { return half_is_nan(HalfFormat::F16, h); }
inline bool f16_is_subnormal(uint16_t h) { return half_is_subnormal(HalfFormat::F16, h); }
inline uint16_t f16_flush(uint16_t h) { return half_flush(HalfFormat::F16, h); }

// A 64-bit integer as a double rounded to odd: exact up to 2^53, beyond that
// truncated to 53 bits with the last bit set when bits were lost. One more
// rounding to 24 bits or fewer (f32, f16, bf16) is then correctly rounded,
// which a round-to-nearest double would not be (double rounding).
double int_to_double_odd(uint64_t v, bool is_signed);

}  // namespace warptlm::sem
