// Bit manipulation: and or xor not cnot shl shr bfe bfi popc clz brev prmt.
#include <cstdint>

#include "semantics/families.h"

namespace warptlm::sem {

namespace {

using u64 = uint64_t;

template <class Op>
void unary(const Exec& x, Type ta, Type td, Op op) {
  const Dest d = x.dst(0, td);
  const Source a = x.src(1, ta);
  for_lanes(x.executed, [&](unsigned lane) { d(lane, op(a(lane))); });
}
template <class Op>
void binary(const Exec& x, Type ta, Type tb, Op op) {
  const Dest d = x.dst(0, ta);
  const Source a = x.src(1, ta), b = x.src(2, tb);
  for_lanes(x.executed, [&](unsigned lane) { d(lane, op(a(lane), b(lane))); });
}

// Shifts: the amount is an unsigned .u32 operand; amounts >= the width give
// 0 (shl, shr.u/.b) or the sign fill (shr.s).
void shift(const Exec& x, Type t, bool left) {
  const unsigned n = type_bits(t);
  if (left) return binary(x, t, Type::U32, [n](u64 a, u64 b) { return b >= n ? 0 : a << b; });
  if (is_signed(t)) {  // a is sign-extended to 64 bits: shifting by 63 is the sign fill
    return binary(x, t, Type::U32,
                  [](u64 a, u64 b) { return u64(int64_t(a) >> (b >= 63 ? 63 : b)); });
  }
  binary(x, t, Type::U32, [n](u64 a, u64 b) { return b >= n ? 0 : a >> b; });
}

// bfe: pos = b[7:0], len = c[7:0]; bits past the msb and past len read as the
// sign bit a[min(pos+len-1, msb)] (.s types) or 0 (.u types, len 0).
void bfe(const Exec& x, Type t) {
  const unsigned n = type_bits(t);
  if (n != 32 && n != 64) x.unsupported("bfe needs a 32- or 64-bit type");
  const bool s = is_signed(t);
  const Dest d = x.dst(0, t);
  const Source a = x.src(1, t), b = x.src(2, Type::U32), c = x.src(3, Type::U32);
  for_lanes(x.executed, [&](unsigned lane) {
    const u64 v = zext(a(lane), n);
    const unsigned pos = b(lane) & 0xff, len = c(lane) & 0xff;
    const bool sbit = s && len != 0 && ((v >> (pos + len - 1 < n - 1 ? pos + len - 1 : n - 1)) & 1);
    // Field bits that exist in a: [pos, min(pos + len, n)).
    const unsigned avail = pos >= n ? 0 : (len < n - pos ? len : n - pos);
    u64 r = avail ? (v >> pos) & low_mask(avail) : 0;
    if (sbit) r |= ~low_mask(avail);
    d(lane, r);
  });
}

// bfi f, a, b, c, d: insert a[len-1:0] into b at pos (c[7:0]), len (d[7:0]),
// dropping the bits that would pass the msb.
void bfi(const Exec& x, Type t) {
  const unsigned n = type_bits(t);
  if (n != 32 && n != 64) x.unsupported("bfi needs a 32- or 64-bit type");
  const Dest d = x.dst(0, t);
  const Source a = x.src(1, t), b = x.src(2, t), c = x.src(3, Type::U32), e = x.src(4, Type::U32);
  for_lanes(x.executed, [&](unsigned lane) {
    const unsigned pos = c(lane) & 0xff, len = e(lane) & 0xff;
    u64 r = b(lane);
    if (pos < n && len != 0) {
      const unsigned w = len < n - pos ? len : n - pos;
      const u64 field = low_mask(w) << pos;
      r = (r & ~field) | ((a(lane) << pos) & field);
    }
    d(lane, r);
  });
}

u64 reverse(u64 v, unsigned n) {
  u64 r = 0;
  for (unsigned i = 0; i < n; ++i, v >>= 1) r = (r << 1) | (v & 1);
  return r;
}

// prmt source byte indices for the special modes, indexed [mode][c & 3],
// listed for d.b0..d.b3 (PTX ISA table).
constexpr uint8_t kPrmtModes[6][4][4] = {
    {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},  // f4e
    {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},  // b4e
    {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  // rc8
    {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},  // ecl
    {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},  // ecr
    {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},  // rc16
};

void prmt(const Exec& x) {
  if (type_bits(x.inst.type) != 32) x.unsupported("prmt needs .b32");
  const PrmtMode mode = x.inst.prmt;
  const Dest d = x.dst(0, Type::B32);
  const Source a = x.src(1, Type::B32), b = x.src(2, Type::B32), c = x.src(3, Type::B32);
  for_lanes(x.executed, [&](unsigned lane) {
    const u64 src = (b(lane) << 32) | a(lane);  // bytes 0..3 from a, 4..7 from b
    const unsigned ctl = static_cast<unsigned>(c(lane));
    u64 r = 0;
    for (unsigned i = 0; i < 4; ++i) {
      u64 byte;
      if (mode == PrmtMode::None) {
        const unsigned sel = (ctl >> (4 * i)) & 0xf;
        byte = (src >> (8 * (sel & 7))) & 0xff;
        if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;  // replicate the byte's sign
      } else {
        const unsigned m = static_cast<unsigned>(mode) - 1;
        byte = (src >> (8 * kPrmtModes[m][ctl & 3][i])) & 0xff;
      }
      r |= byte << (8 * i);
    }
    d(lane, r);
  });
}

}  // namespace

void exec_bits(const Exec& x) {
  const Instruction& in = x.inst;
  const Type t = in.type;
  if (t == Type::None || is_float(t)) x.unsupported("needs a predicate or integer type");
  const unsigned n = type_bits(t);
  switch (in.op) {
    case Opcode::And:
      return binary(x, t, t, [](u64 a, u64 b) { return a & b; });
    case Opcode::Or:
      return binary(x, t, t, [](u64 a, u64 b) { return a | b; });
    case Opcode::Xor:
      return binary(x, t, t, [](u64 a, u64 b) { return a ^ b; });
    case Opcode::Not:
      return unary(x, t, t, [](u64 a) { return ~a; });
    case Opcode::Cnot:
      return unary(x, t, t, [](u64 a) { return u64(a == 0); });
    default:
      break;
  }
  if (t == Type::Pred) x.unsupported("not defined for .pred");
  switch (in.op) {
    case Opcode::Shl:
      return shift(x, t, true);
    case Opcode::Shr:
      return shift(x, t, false);
    case Opcode::Bfe:
      return bfe(x, t);
    case Opcode::Bfi:
      return bfi(x, t);
    case Opcode::Popc:
      return unary(x, t, Type::U32, [n](u64 a) { return u64(__builtin_popcountll(zext(a, n))); });
    case Opcode::Clz:
      return unary(x, t, Type::U32, [n](u64 a) {
        const u64 v = zext(a, n);
        return v == 0 ? u64(n) : u64(__builtin_clzll(v) - (64 - n));
      });
    case Opcode::Brev:
      return unary(x, t, t, [n](u64 a) { return reverse(a, n); });
    case Opcode::Prmt:
      return prmt(x);
    default:
      x.unsupported("not a bit-manipulation opcode");
  }
}

}  // namespace warptlm::sem
