// Extended-precision integer arithmetic with the carry flag: add.cc, addc,
// sub.cc, subc, mad.cc, madc (.u32/.s32/.u64/.s64).
//
// PTX's condition code CC.CF is per-thread state. The parser gives it a
// hidden predicate register per function (kCarryFlagReg) and lays the
// instruction out as d, CF-out, sources..., CF-in (ir.h), so here it is read
// and written like any other operand and execute() stays a pure function of
// the registers.
//
// The flag is the carry out of the n-bit unsigned addition whatever the
// signedness of the type (as on the hardware, where signedness only matters
// for mad.hi's product). For subtraction it is the borrow: sub.cc sets it
// when a < b, and subc computes a - (b + CF) and sets it when a < b + CF.
#include <cstdint>

#include "semantics/families.h"

namespace warptlm::sem {

namespace {

using u64 = uint64_t;
using i64 = int64_t;
using u128 = unsigned __int128;
using i128 = __int128;

// High n bits of the 2n-bit product of two n-bit values (signed or not),
// as an n-bit pattern.
u64 product_hi(u64 a, u64 b, unsigned n, bool s) {
  if (n == 64) {
    if (s) return static_cast<u64>((i128(i64(a)) * i128(i64(b))) >> 64);
    return static_cast<u64>((u128(a) * u128(b)) >> 64);
  }
  if (s) return static_cast<u64>((i64(a) * i64(b)) >> 32);
  return (zext(a, 32) * zext(b, 32)) >> 32;
}

}  // namespace

void exec_carry_arith(const Exec& x) {
  const Instruction& in = x.inst;
  const Type t = in.type;
  const unsigned n = type_bits(t);
  if (t != Type::U32 && t != Type::S32 && t != Type::U64 && t != Type::S64)
    x.unsupported("the carry flag needs .u32, .s32, .u64 or .s64");
  const bool mad = in.op == Opcode::Mad;
  if (in.op != Opcode::Add && in.op != Opcode::Sub && !mad)
    x.unsupported("the carry flag is only defined for add, sub and mad");
  if (mad && in.mul != MulMode::Lo && in.mul != MulMode::Hi)
    x.unsupported("mad with the carry flag needs .lo or .hi");
  const size_t srcs = mad ? 3 : 2;
  if (in.ops.size() != srcs + 3) x.unsupported("carry operand layout expected (d, CF, ..., CF)");

  const Dest d = x.dst(0, t), cf_out = x.dst(1, Type::Pred);
  const Source a = x.src(2, t), b = x.src(3, t);
  const Source c = mad ? x.src(4, t) : Source();
  const bool has_cin = x.has(srcs + 2);
  const Source cf_in = has_cin ? x.src(srcs + 2, Type::Pred) : Source();
  const u64 mask = low_mask(n);
  const bool s = is_signed(t);
  const bool sub = in.op == Opcode::Sub;
  const bool hi = in.mul == MulMode::Hi;

  for_lanes(x.executed, [&](unsigned lane) {
    const u64 cin = has_cin ? (cf_in(lane) & 1) : 0;
    const u128 va = a(lane) & mask, vb = b(lane) & mask;
    u128 result;
    bool flag;
    if (sub) {
      // a - (b + cin) in n + 1 bits: the borrow is whether b + cin exceeds a.
      result = va - (vb + cin);
      flag = vb + cin > va;
    } else {
      u128 addend = vb;
      u128 term = va;
      if (mad) {
        const u64 p = hi ? product_hi(a(lane), b(lane), n, s) : a(lane) * b(lane);
        term = p & mask;
        addend = c(lane) & mask;
      }
      result = term + addend + cin;
      flag = (result >> n) != 0;
    }
    d(lane, static_cast<u64>(result) & mask);
    cf_out(lane, flag ? 1 : 0);
  });
}

}  // namespace warptlm::sem
