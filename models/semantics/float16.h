// IEEE 754 binary16 (PTX .f16) conversions, done on bits so that every
// rounding mode is exact and independent of the host's floating-point state.
#pragma once

#include <cstdint>

#include "frontend/ir.h"

namespace warptlm::sem {

// NaN results of .f16 operations (GPU canonical NaN).
constexpr uint16_t kF16CanonicalNan = 0x7fff;

// Exact: every binary16 value is a double.
double f16_to_double(uint16_t h);

// Rounds v to binary16 with `mode` (Rn/Rz/Rm/Rp; None means Rn). NaN gives
// the canonical NaN; overflow gives infinity or the largest finite value as
// the mode directs.
uint16_t f16_from_double(double v, Rounding mode);

inline bool f16_is_nan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0; }
inline bool f16_is_subnormal(uint16_t h) { return (h & 0x7c00) == 0 && (h & 0x3ff) != 0; }
// .ftz: a subnormal becomes a zero of the same sign.
inline uint16_t f16_flush(uint16_t h) { return f16_is_subnormal(h) ? (h & 0x8000) : h; }

}  // namespace warptlm::sem
