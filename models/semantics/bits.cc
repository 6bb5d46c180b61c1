// Bit manipulation: and or xor not cnot lop3 shl shr shf bfe bfi bfind bmsk
// popc clz brev prmt.
#include <cstdint>

#include "semantics/families.h"

namespace warptlm::sem {

namespace {

using u64 = uint64_t;

// Operands are read into LaneValues arrays first (see Source::gather).
template <class Op>
void unary(const Exec& x, Type ta, Type td, Op op) {
  const Dest d = x.dst(0, td);
  const Source a = x.src(1, ta);
  const LaneMask m = x.executed;
  const unsigned ws = x.warp_size();
  LaneValues av;
  a.gather(m, ws, av);
  each_lane(m, ws, [&](unsigned lane) { av[lane] = op(av[lane]); });
  d.scatter(m, ws, av);
}

// Shifts: the amount is an unsigned .u32 operand; amounts >= the width give
// 0 (shl, shr.u/.b) or the sign fill (shr.s).
void shift(const Exec& x, Type t, bool left) {
  const unsigned n = type_bits(t);
  if (left)
    return lane_binary(x, t, t, Type::U32, [n](u64 a, u64 b) { return b >= n ? 0 : a << b; });
  if (is_signed(t)) {  // a is sign-extended to 64 bits: shifting by 63 is the sign fill
    return lane_binary(x, t, t, Type::U32,
                       [](u64 a, u64 b) { return u64(int64_t(a) >> (b >= 63 ? 63 : b)); });
  }
  lane_binary(x, t, t, Type::U32, [n](u64 a, u64 b) { return b >= n ? 0 : a >> b; });
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

// shf: the 64-bit value b:a shifted by n = min(c, 32) (.clamp) or c & 31
// (.wrap); shf.l keeps the upper 32 bits, shf.r the lower.
void shf(const Exec& x) {
  if (type_bits(x.inst.type) != 32) x.unsupported("shf needs .b32");
  const bool right = x.inst.shift_right, clamp = x.inst.shift_clamp;
  const Dest d = x.dst(0, Type::B32);
  const Source a = x.src(1, Type::B32), b = x.src(2, Type::B32), c = x.src(3, Type::U32);
  for_lanes(x.executed, [&](unsigned lane) {
    const u64 amount = c(lane);
    const unsigned n = clamp ? unsigned(amount < 32 ? amount : 32) : unsigned(amount & 31);
    const u64 v = (b(lane) << 32) | a(lane);
    d(lane, right ? (v >> n) & 0xffffffffull : (v << n) >> 32);
  });
}

// bfind: position of the most significant non-sign bit (a 1 for unsigned or
// non-negative inputs, a 0 for negative ones), 0xffffffff if there is none;
// .shiftamt gives msb - position instead, the left shift that normalises a.
void bfind(const Exec& x, Type t) {
  const unsigned n = type_bits(t);
  if (n != 32 && n != 64) x.unsupported("bfind needs a 32- or 64-bit type");
  const bool s = is_signed(t), shiftamt = x.inst.shiftamt;
  const Dest d = x.dst(0, Type::U32);
  const Source a = x.src(1, t);
  for_lanes(x.executed, [&](unsigned lane) {
    u64 v = zext(a(lane), n);
    if (s && ((v >> (n - 1)) & 1)) v = zext(~v, n);
    if (v == 0) return d(lane, 0xffffffffull);
    const unsigned pos = 63 - static_cast<unsigned>(__builtin_clzll(v));
    d(lane, shiftamt ? (n - 1) - pos : pos);
  });
}

// lop3: bit i of d is bit (a_i << 2 | b_i << 1 | c_i) of the truth table.
void lop3(const Exec& x) {
  if (type_bits(x.inst.type) != 32) x.unsupported("lop3 needs .b32");
  const Dest d = x.dst(0, Type::B32);
  const Source a = x.src(1, Type::B32), b = x.src(2, Type::B32), c = x.src(3, Type::B32);
  const Operand& lut_op = x.op(4);
  if (lut_op.kind != Operand::Kind::Imm) x.unsupported("lop3 needs an immediate truth table");
  const unsigned lut = static_cast<unsigned>(lut_op.imm & 0xff);
  for_lanes(x.executed, [&](unsigned lane) {
    const u64 va = a(lane), vb = b(lane), vc = c(lane);
    u64 r = 0;
    for (unsigned i = 0; i < 8; ++i) {
      if (!((lut >> i) & 1)) continue;
      r |= ((i & 4) ? va : ~va) & ((i & 2) ? vb : ~vb) & ((i & 1) ? vc : ~vc);
    }
    d(lane, r & 0xffffffffull);
  });
}

// bmsk: b bits set from bit a (PTX ISA pseudo-code). .wrap takes both
// operands mod 32; .clamp gives 0 for a >= 32 and all bits from a up for
// b >= 32. A field running past bit 31 is cut off there.
void bmsk(const Exec& x) {
  if (type_bits(x.inst.type) != 32) x.unsupported("bmsk needs .b32");
  const bool clamp = x.inst.shift_clamp;
  const Dest d = x.dst(0, Type::B32);
  const Source a = x.src(1, Type::U32), b = x.src(2, Type::U32);
  for_lanes(x.executed, [&](unsigned lane) {
    const u64 va = a(lane), vb = b(lane);
    const unsigned a1 = unsigned(va & 31), b1 = unsigned(vb & 31);
    u64 mask0 = (0xffffffffull << a1) & 0xffffffffull;
    const bool pos_over = clamp && va >= 32, width_over = clamp && vb >= 32;
    if (pos_over) mask0 = 0;
    u64 mask1;
    if (a1 + b1 >= 32 || pos_over || width_over)
      mask1 = 0;
    else if (b1 == 0)
      mask1 = 0xffffffffull;
    else
      mask1 = (0xffffffffull << (a1 + b1)) & 0xffffffffull;
    d(lane, mask0 & ~mask1 & 0xffffffffull);
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
      return lane_binary(x, t, t, t, [](u64 a, u64 b) { return a & b; });
    case Opcode::Or:
      return lane_binary(x, t, t, t, [](u64 a, u64 b) { return a | b; });
    case Opcode::Xor:
      return lane_binary(x, t, t, t, [](u64 a, u64 b) { return a ^ b; });
    case Opcode::Not:
      return unary(x, t, t, [](u64 a) { return ~a; });
    case Opcode::Lop3:
      return lop3(x);
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
    case Opcode::Shf:
      return shf(x);
    case Opcode::Bfind:
      return bfind(x, t);
    case Opcode::Bmsk:
      return bmsk(x);
    default:
      x.unsupported("not a bit-manipulation opcode");
  }
}

}  // namespace warptlm::sem
