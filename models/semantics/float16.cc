#include "semantics/float16.h"

#include <algorithm>
#include <cmath>

namespace warptlm::sem {

double f16_to_double(uint16_t h) {
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  const int exp = (h >> 10) & 0x1f;
  const int frac = h & 0x3ff;
  if (exp == 0) return sign * std::ldexp(frac, -24);
  if (exp == 0x1f) return frac ? std::nan("") : sign * HUGE_VAL;
  return sign * std::ldexp(1024 + frac, exp - 25);
}

uint16_t f16_from_double(double v, Rounding mode) {
  if (std::isnan(v)) return kF16CanonicalNan;
  const bool neg = std::signbit(v);
  const uint16_t sign = neg ? 0x8000 : 0;
  const double a = std::fabs(v);
  if (std::isinf(a)) return sign | 0x7c00;
  if (a == 0) return sign;
  if (mode == Rounding::None) mode = Rounding::Rn;
  // Overflow goes to infinity unless the mode rounds toward zero for this sign.
  const bool away_ok =
      mode == Rounding::Rn || (mode == Rounding::Rp && !neg) || (mode == Rounding::Rm && neg);
  const uint16_t overflow = sign | (away_ok ? 0x7c00 : 0x7bff);

  int ex = 0;
  std::frexp(a, &ex);  // a = m * 2^ex, m in [0.5, 1): leading bit at 2^(ex-1)
  const int lead = ex - 1;
  if (lead > 15) return overflow;
  // q: exponent of the last mantissa bit; subnormals share that of 2^-14.
  int q = std::max(lead, -14) - 10;
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
  if (m >= 2048) {  // rounding carried into the next binade
    m /= 2;
    q += 1;
  }
  if (m < 1024) return sign | static_cast<uint16_t>(m);  // subnormal (q == -24)
  const int biased = q + 10 + 15;
  if (biased > 30) return overflow;
  return sign | static_cast<uint16_t>(biased << 10) | static_cast<uint16_t>(m - 1024);
}

}  // namespace warptlm::sem
