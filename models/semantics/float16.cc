#include "semantics/float16.h"

#include <algorithm>
#include <cmath>

namespace warptlm::sem {

namespace {

// The shape of a format: fraction bits and exponent bias.
struct Shape {
  int frac;  // 10 for f16, 7 for bf16
  int bias;  // 15, 127
};

Shape shape(HalfFormat f) { return f == HalfFormat::F16 ? Shape{10, 15} : Shape{7, 127}; }

}  // namespace

double half_to_double(HalfFormat f, uint16_t h) {
  const Shape s = shape(f);
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  const int exp = (h & 0x7fff) >> s.frac;
  const int frac = h & ((1 << s.frac) - 1);
  if (exp == 0) return sign * std::ldexp(frac, 1 - s.bias - s.frac);
  if (exp == 2 * s.bias + 1) return frac ? std::nan("") : sign * HUGE_VAL;
  return sign * std::ldexp((1 << s.frac) + frac, exp - s.bias - s.frac);
}

uint16_t half_from_double(HalfFormat f, double v, Rounding mode, bool satfinite) {
  if (std::isnan(v)) return kHalfCanonicalNan;
  const Shape s = shape(f);
  const int one = 1 << s.frac;  // the implicit leading bit
  const uint16_t inf = half_exponent_mask(f);
  const uint16_t max_finite = static_cast<uint16_t>(inf - 1);
  const bool neg = std::signbit(v);
  const uint16_t sign = neg ? 0x8000 : 0;
  const double a = std::fabs(v);
  if (std::isinf(a)) return sign | (satfinite ? max_finite : inf);
  if (a == 0) return sign;
  if (mode == Rounding::None) mode = Rounding::Rn;
  // Overflow goes to infinity unless the mode rounds toward zero for this sign.
  const bool away_ok =
      mode == Rounding::Rn || (mode == Rounding::Rp && !neg) || (mode == Rounding::Rm && neg);
  const uint16_t overflow = sign | ((away_ok && !satfinite) ? inf : max_finite);

  int ex = 0;
  std::frexp(a, &ex);  // a = m * 2^ex, m in [0.5, 1): leading bit at 2^(ex-1)
  const int lead = ex - 1;
  if (lead > s.bias) return overflow;
  // q: exponent of the last fraction bit; subnormals share that of the
  // smallest normal exponent.
  int q = std::max(lead, 1 - s.bias) - s.frac;
  const double n = std::ldexp(a, -q);  // exact: only scales by a power of two
  const double whole = std::floor(n);
  const double frac = n - whole;  // exact
  bool up = false;
  switch (mode) {
    case Rounding::Rz:
      up = false;
      break;
    case Rounding::Rm:
      up = neg && frac > 0;
      break;
    case Rounding::Rp:
      up = !neg && frac > 0;
      break;
    default:
      up = frac > 0.5 || (frac == 0.5 && std::fmod(whole, 2.0) != 0);
      break;
  }
  double m = whole + (up ? 1 : 0);
  if (m == 0) return sign;
  if (m >= 2 * one) {  // rounding carried into the next binade
    m /= 2;
    q += 1;
  }
  if (m < one) return sign | static_cast<uint16_t>(m);  // subnormal
  const int biased = q + s.frac + s.bias;
  if (biased > 2 * s.bias) return overflow;
  return sign | static_cast<uint16_t>(biased << s.frac) | static_cast<uint16_t>(m - one);
}

double int_to_double_odd(uint64_t v, bool is_signed) {
  const bool neg = is_signed && static_cast<int64_t>(v) < 0;
  uint64_t m = neg ? ~v + 1 : v;  // the magnitude (2^63 for INT64_MIN)
  int shift = 0;
  if (m >> 53) {
    shift = 64 - __builtin_clzll(m) - 53;
    const bool lost = (m & ((uint64_t(1) << shift) - 1)) != 0;
    m = (m >> shift) | (lost ? 1 : 0);
  }
  const double r = std::ldexp(static_cast<double>(m), shift);
  return neg ? -r : r;
}

}  // namespace warptlm::sem
