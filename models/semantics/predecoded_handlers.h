// The pre-decoded handlers themselves (semantics/predecoded.h): one template
// per form, instantiated by predecode() for each type and operand shape.
// Internal to predecoded.cc, which is its only includer.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "semantics/float_util.h"
#include "semantics/operands.h"
#include "semantics/predecoded.h"

namespace warptlm::predecoded {

using P = PredecodedInstruction;
using u32 = uint32_t;
using u64 = uint64_t;

template <class T>
T* lanes_of(uint8_t* regs, uint32_t offset) {
  return reinterpret_cast<T*>(regs + offset);
}

// Each handler reads a lane's sources before writing its destination, and
// lanes are independent, so a destination that is also a source stays exact
// (as execute(), which reads every operand first). Registers are stored
// unsigned; signed forms convert. The integer forms wrap as PTX does.
struct Add {
  template <class U>
  static U f(U a, U b) {
    return U(a + b);
  }
};
struct Sub {
  template <class U>
  static U f(U a, U b) {
    return U(a - b);
  }
};
struct MulLo {
  template <class U>
  static U f(U a, U b) {
    return U(a * b);
  }
};
struct And {
  template <class U>
  static U f(U a, U b) {
    return a & b;
  }
};
struct Or {
  template <class U>
  static U f(U a, U b) {
    return a | b;
  }
};
struct Xor {
  template <class U>
  static U f(U a, U b) {
    return a ^ b;
  }
};
template <bool kSigned, bool kMax>
struct MinMax {
  template <class U>
  static U f(U a, U b) {
    using S = std::make_signed_t<U>;
    const bool lt = kSigned ? S(a) < S(b) : a < b;
    return lt != kMax ? a : b;
  }
};
// Shift amounts are .u32; at or past the width shl and shr.u give 0, shr.s
// the sign fill.
struct Shl {
  template <class U>
  static U f(U a, u32 b) {
    return b >= sizeof(U) * 8 ? U(0) : U(a << b);
  }
};
struct ShrU {
  template <class U>
  static U f(U a, u32 b) {
    return b >= sizeof(U) * 8 ? U(0) : U(a >> b);
  }
};
struct ShrS {
  template <class U>
  static U f(U a, u32 b) {
    using S = std::make_signed_t<U>;
    constexpr u32 kMaxShift = sizeof(U) * 8 - 1;
    return U(S(a) >> (b > kMaxShift ? kMaxShift : b));
  }
};

// d = Op(a, b): U lanes, b in TB lanes (a register) or the immediate.
template <class U, class TB, bool kImm, class Op>
void binary(const P& p, uint8_t* r, LaneMask m, unsigned ws, WarpEnvironment&) {
  U* d = lanes_of<U>(r, p.d);
  const U* a = lanes_of<const U>(r, p.a);
  const TB* b = lanes_of<const TB>(r, p.b);
  const TB imm = static_cast<TB>(p.imm);
  sem::each_lane(m, ws, [&](unsigned l) { d[l] = Op::f(a[l], kImm ? imm : b[l]); });
}

// mul.wide.{u32,s32}: the full 64-bit product of two 32-bit lanes.
template <bool kSigned, bool kImm>
void mul_wide(const P& p, uint8_t* r, LaneMask m, unsigned ws, WarpEnvironment&) {
  u64* d = lanes_of<u64>(r, p.d);
  const u32* a = lanes_of<const u32>(r, p.a);
  const u32* b = lanes_of<const u32>(r, p.b);
  const u32 imm = static_cast<u32>(p.imm);
  sem::each_lane(m, ws, [&](unsigned l) {
    const u32 bv = kImm ? imm : b[l];
    d[l] = kSigned ? u64(int64_t(int32_t(a[l])) * int64_t(int32_t(bv))) : u64(a[l]) * bv;
  });
}

// mad.lo: d = a * b + c, b a register or the immediate, c a register.
template <class U, bool kImm>
void mad_lo(const P& p, uint8_t* r, LaneMask m, unsigned ws, WarpEnvironment&) {
  U* d = lanes_of<U>(r, p.d);
  const U* a = lanes_of<const U>(r, p.a);
  const U* b = lanes_of<const U>(r, p.b);
  const U* c = lanes_of<const U>(r, p.c);
  const U imm = static_cast<U>(p.imm);
  sem::each_lane(m, ws, [&](unsigned l) { d[l] = U(a[l] * (kImm ? imm : b[l]) + c[l]); });
}

template <class U>
void move(const P& p, uint8_t* r, LaneMask m, unsigned ws, WarpEnvironment&) {
  U* d = lanes_of<U>(r, p.d);
  const U* a = lanes_of<const U>(r, p.a);
  sem::each_lane(m, ws, [&](unsigned l) { d[l] = a[l]; });
}

template <class U>
void move_imm(const P& p, uint8_t* r, LaneMask m, unsigned ws, WarpEnvironment&) {
  U* d = lanes_of<U>(r, p.d);
  const U imm = static_cast<U>(p.imm);
  sem::each_lane(m, ws, [&](unsigned l) { d[l] = imm; });
}

// mov d, %special: the environment answers the whole warp at once.
template <class U>
void move_special(const P& p, uint8_t* r, LaneMask m, unsigned, WarpEnvironment& env) {
  uint64_t v[kMaxWarpSize];
  env.special_lanes(p.sreg, p.comp, m, v);
  U* d = lanes_of<U>(r, p.d);
  sem::for_lanes(m, [&](unsigned l) { d[l] = static_cast<U>(v[l]); });
}

template <class U>
void bit_not(const P& p, uint8_t* r, LaneMask m, unsigned ws, WarpEnvironment&) {
  U* d = lanes_of<U>(r, p.d);
  const U* a = lanes_of<const U>(r, p.a);
  sem::each_lane(m, ws, [&](unsigned l) { d[l] = U(~a[l]); });
}

// cvt between integer types of 32 and 64 bits without .sat: the source
// extended by its own signedness, truncated to the destination.
template <class UD, class US, bool kSignedSource>
void convert(const P& p, uint8_t* r, LaneMask m, unsigned ws, WarpEnvironment&) {
  UD* d = lanes_of<UD>(r, p.d);
  const US* a = lanes_of<const US>(r, p.a);
  sem::each_lane(m, ws, [&](unsigned l) {
    using SS = std::make_signed_t<US>;
    d[l] = kSignedSource ? UD(int64_t(SS(a[l]))) : UD(a[l]);
  });
}

// Integer comparisons (compare_select.cc): lt/le/gt/ge signed for .s types,
// lo/ls/hi/hs always unsigned.
template <CmpOp kOp, bool kSigned, class U>
bool compare(U a, U b) {
  using S = std::make_signed_t<U>;
  const bool lt = kSigned ? S(a) < S(b) : a < b;
  const bool gt = kSigned ? S(b) < S(a) : b < a;
  switch (kOp) {
    case CmpOp::Eq:
      return a == b;
    case CmpOp::Ne:
      return a != b;
    case CmpOp::Lt:
      return lt;
    case CmpOp::Le:
      return !gt;
    case CmpOp::Gt:
      return gt;
    case CmpOp::Ge:
      return !lt;
    case CmpOp::Lo:
      return a < b;
    case CmpOp::Ls:
      return a <= b;
    case CmpOp::Hi:
      return a > b;
    default:  // Hs
      return a >= b;
  }
}

// The lane mask of c[0..ws), each 0 or 1. Eight lanes at a time: a
// little-endian word of bytes b0..b7 (each 0 or 1) times 0x0102040810204080
// has b_i at bit 56 + i and nothing above bit 55 from the other products, so
// the word's top byte is the eight lanes' bits. The comparisons that fill c
// vectorise; shifting each lane's bit into the mask does not.
inline LaneMask pack_lanes(uint8_t* c, unsigned ws) {
  LaneMask bits = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (ws % 8) std::memset(c + ws, 0, 8 - ws % 8);  // the last group's lanes past the warp
  for (unsigned g = 0; g < ws; g += 8) {
    uint64_t w;
    std::memcpy(&w, c + g, 8);
    bits |= ((w * 0x0102040810204080ull) >> 56) << g;
  }
#else
  for (unsigned l = 0; l < ws; ++l) bits |= LaneMask(c[l]) << l;
#endif
  return bits;
}

// setp.cmp p, a, b (no |q, no boolean combine): every lane is compared
// (registers hold all of them) and the executed ones are written.
template <class U, CmpOp kOp, bool kSigned, bool kImm>
void setp(const P& p, uint8_t* r, LaneMask m, unsigned ws, WarpEnvironment&) {
  LaneMask* d = lanes_of<LaneMask>(r, p.d);
  const U* a = lanes_of<const U>(r, p.a);
  const U* b = lanes_of<const U>(r, p.b);
  const U imm = static_cast<U>(p.imm);
  alignas(8) uint8_t c[kMaxWarpSize];
  sem::warp_loop(ws, [&](unsigned l) { c[l] = compare<kOp, kSigned>(a[l], kImm ? imm : b[l]); });
  *d = (*d & ~m) | (pack_lanes(c, ws) & m);
}

// The float of a register's bits; .ftz (f32 only) turns a subnormal into
// a zero of its sign, as float_util.h's flush(), on the bits so that it
// vectorises.
template <class F, bool kFtz>
F float_of(std::conditional_t<sizeof(F) == 4, u32, u64> bits) {
  if constexpr (kFtz) {
    static_assert(sizeof(F) == 4, ".ftz is an f32 modifier");
    if ((bits & 0x7fffffffu) < 0x00800000u) bits &= 0x80000000u;
  }
  F f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// setp.cmp{.ftz}.{f32,f64} p, a, b: b a register or the immediate (its
// bits in imm, already flushed for .ftz).
template <class F, CmpOp kOp, bool kFtz, bool kImm>
void setp_float(const P& p, uint8_t* r, LaneMask m, unsigned ws, WarpEnvironment&) {
  using U = std::conditional_t<sizeof(F) == 4, u32, u64>;
  LaneMask* d = lanes_of<LaneMask>(r, p.d);
  const U* a = lanes_of<const U>(r, p.a);
  const U* b = lanes_of<const U>(r, p.b);
  const F imm = float_of<F, false>(static_cast<U>(p.imm));
  alignas(8) uint8_t c[kMaxWarpSize];
  sem::warp_loop(ws, [&](unsigned l) {
    c[l] = sem::compare_floats(kOp, float_of<F, kFtz>(a[l]), kImm ? imm : float_of<F, kFtz>(b[l]));
  });
  *d = (*d & ~m) | (pack_lanes(c, ws) & m);
}

// and/or/xor.pred d, a, b and not/mov.pred d, a: one mask for the warp.
template <class Op>
void pred_binary(const P& p, uint8_t* r, LaneMask m, unsigned, WarpEnvironment&) {
  LaneMask* d = lanes_of<LaneMask>(r, p.d);
  const LaneMask v = Op::f(*lanes_of<const LaneMask>(r, p.a), *lanes_of<const LaneMask>(r, p.b));
  *d = (*d & ~m) | (v & m);
}
inline void pred_not(const P& p, uint8_t* r, LaneMask m, unsigned, WarpEnvironment&) {
  LaneMask* d = lanes_of<LaneMask>(r, p.d);
  *d = (*d & ~m) | (~*lanes_of<const LaneMask>(r, p.a) & m);
}
inline void pred_move(const P& p, uint8_t* r, LaneMask m, unsigned, WarpEnvironment&) {
  LaneMask* d = lanes_of<LaneMask>(r, p.d);
  *d = (*d & ~m) | (*lanes_of<const LaneMask>(r, p.a) & m);
}

// selp d, a, b, c: c ? a : b, a and b registers or immediates (imm, imm2).
template <class U, bool kImmA, bool kImmB>
void select(const P& p, uint8_t* r, LaneMask m, unsigned ws, WarpEnvironment&) {
  U* d = lanes_of<U>(r, p.d);
  const U* a = lanes_of<const U>(r, p.a);
  const U* b = lanes_of<const U>(r, p.b);
  const LaneMask c = *lanes_of<const LaneMask>(r, p.c);
  const U ia = static_cast<U>(p.imm), ib = static_cast<U>(p.imm2);
  sem::each_lane(
      m, ws, [&](unsigned l) { d[l] = (c >> l) & 1 ? (kImmA ? ia : a[l]) : (kImmB ? ib : b[l]); });
}

// add/sub/mul.rn.f32 without .ftz or .sat: the IEEE result, a NaN as the
// canonical NaN (float_util.h's finish()).
struct FAdd {
  static float f(float a, float b) { return a + b; }
};
struct FSub {
  static float f(float a, float b) { return a - b; }
};
struct FMul {
  static float f(float a, float b) { return a * b; }
};
template <class Op>
void f32_binary(const P& p, uint8_t* r, LaneMask m, unsigned ws, WarpEnvironment&) {
  u32* d = lanes_of<u32>(r, p.d);
  const u32* a = lanes_of<const u32>(r, p.a);
  const u32* b = lanes_of<const u32>(r, p.b);
  sem::each_lane(m, ws, [&](unsigned l) {
    float fa, fb;
    std::memcpy(&fa, &a[l], 4);
    std::memcpy(&fb, &b[l], 4);
    const float v = Op::f(fa, fb);
    u32 bits;
    std::memcpy(&bits, &v, 4);
    d[l] = std::isnan(v) ? u32(sem::canonical_nan<float>()) : bits;
  });
}

// div/rem as int_arith.cc defines them, division by zero included:
// unsigned a/0 is all ones and a%0 is a; signed a/0 is -1 (a >= 0) or 1,
// MIN/-1 wraps to MIN and a%-1 is 0.
template <bool kSigned>
struct Div {
  template <class U>
  static U f(U a, U b) {
    using S = std::make_signed_t<U>;
    if (!kSigned) return b == 0 ? U(~U(0)) : U(a / b);
    if (b == 0) return S(a) >= 0 ? U(~U(0)) : U(1);
    if (S(b) == -1) return U(U(0) - a);
    return U(S(a) / S(b));
  }
};
template <bool kSigned>
struct Rem {
  template <class U>
  static U f(U a, U b) {
    using S = std::make_signed_t<U>;
    if (b == 0) return a;
    if (!kSigned) return U(a % b);
    if (S(b) == -1) return U(0);
    return U(S(a) % S(b));
  }
};

// bfe's field (bits.cc): c[7:0] bits at b[7:0]; bits past the msb and past
// the length read as the sign bit (.s) or 0. Worked out per lane or, for
// literal b and c, once at decode.
template <class U>
struct BfeField {
  unsigned shift = 0;  // the field's position (0 for an empty field)
  unsigned top = 0;    // the bit whose value fills the rest (.s)
  U mask = 0;          // the field's bits after the shift
  U fill = 0;          // the bits the sign fills (0 for .u or an empty length)
  static BfeField of(u32 pos, u32 len, bool is_signed) {
    constexpr unsigned n = sizeof(U) * 8;
    pos &= 0xff;
    len &= 0xff;
    const unsigned avail = pos >= n ? 0 : (len < n - pos ? len : n - pos);
    BfeField f;
    f.shift = avail ? pos : 0;
    f.top = pos + len - 1 < n - 1 ? pos + len - 1 : n - 1;
    f.mask = U(sem::low_mask(avail));
    f.fill = is_signed && len != 0 ? U(~f.mask) : U(0);
    return f;
  }
  U extract(U v) const { return U(U(v >> shift) & mask) | (U(U(0) - U((v >> top) & 1)) & fill); }
};

// bfe d, a, b, c with b or c a .u32 register (or the immediates imm, imm2).
template <class U, bool kSigned, bool kImmB, bool kImmC>
void bit_field_extract(const P& p, uint8_t* r, LaneMask m, unsigned ws, WarpEnvironment&) {
  U* d = lanes_of<U>(r, p.d);
  const U* a = lanes_of<const U>(r, p.a);
  const u32* b = lanes_of<const u32>(r, p.b);
  const u32* c = lanes_of<const u32>(r, p.c);
  const u32 ib = static_cast<u32>(p.imm), ic = static_cast<u32>(p.imm2);
  sem::each_lane(m, ws, [&](unsigned l) {
    d[l] = BfeField<U>::of(kImmB ? ib : b[l], kImmC ? ic : c[l], kSigned).extract(a[l]);
  });
}

// bfe d, a, pos, len with both literal: the field worked out once, kept in
// p.b (shift), p.c (top), p.imm (mask) and p.imm2 (fill), so the lane loop is
// shifts and masks, which vectorise.
template <class U>
void bfe_constants(P& p, bool is_signed, u32 pos, u32 len) {
  const BfeField<U> f = BfeField<U>::of(pos, len, is_signed);
  p.b = f.shift;
  p.c = f.top;
  p.imm = f.mask;
  p.imm2 = f.fill;
}
template <class U>
void bit_field_extract_const(const P& p, uint8_t* r, LaneMask m, unsigned ws, WarpEnvironment&) {
  U* d = lanes_of<U>(r, p.d);
  const U* a = lanes_of<const U>(r, p.a);
  BfeField<U> f;
  f.shift = p.b;
  f.top = p.c;
  f.mask = static_cast<U>(p.imm);
  f.fill = static_cast<U>(p.imm2);
  sem::each_lane(m, ws, [&](unsigned l) { d[l] = f.extract(a[l]); });
}

}  // namespace warptlm::predecoded
