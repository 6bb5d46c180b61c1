// Comparison and selection: setp set selp slct testp.
//
// Float comparisons convert both operands to double (exact for .f16/.f32)
// after .ftz flushing. Ordered comparisons (eq ne lt le gt ge) are false when
// either operand is NaN; the unordered ones (equ .. geu) are true then; num
// and nan test for NaN operands. For integers, lt/le/gt/ge compare signed for
// .s types and unsigned otherwise; lo/ls/hi/hs always compare unsigned.
#include <cmath>
#include <cstdint>

#include "semantics/families.h"
#include "semantics/float16.h"
#include "semantics/float_util.h"

namespace warptlm::sem {

namespace {

using u64 = uint64_t;

// Reads a float operand as double, with .ftz flushing of .f16/.f32.
double as_double(u64 bits, Type t, bool ftz) {
  switch (t) {
    case Type::F16:
    case Type::BF16: {
      const HalfFormat f = half_format(t);
      const uint16_t h = static_cast<uint16_t>(bits);
      return half_to_double(f, ftz ? half_flush(f, h) : h);
    }
    case Type::F32: {
      const float f = from_bits<float>(bits);
      return ftz ? flush(f) : f;
    }
    default:
      return from_bits<double>(bits);
  }
}

// The comparison of one instruction, decoded once.
class Comparator {
 public:
  Comparator(const Exec& x, Type t) : op_(x.inst.cmp), t_(t), ftz_(x.inst.ftz) {
    fl_ = is_float(t);
    if (!fl_ && (t == Type::Pred || t == Type::None)) x.unsupported("bad comparison type");
    const bool float_only = op_ >= CmpOp::Equ;
    const bool int_only = op_ >= CmpOp::Lo && op_ <= CmpOp::Hs;
    if (op_ == CmpOp::None || (float_only && !fl_) || (int_only && fl_))
      x.unsupported("comparison not defined for this type");
    signed_ = is_signed(t);
  }
  bool operator()(u64 a, u64 b) const { return fl_ ? fcmp(a, b) : icmp(a, b); }

 private:
  bool icmp(u64 a, u64 b) const {
    const bool lt = signed_ ? int64_t(a) < int64_t(b) : a < b;
    switch (op_) {
      case CmpOp::Eq:
        return a == b;
      case CmpOp::Ne:
        return a != b;
      case CmpOp::Lt:
        return lt;
      case CmpOp::Le:
        return lt || a == b;
      case CmpOp::Gt:
        return !lt && a != b;
      case CmpOp::Ge:
        return !lt;
      case CmpOp::Lo:
        return a < b;
      case CmpOp::Ls:
        return a <= b;
      case CmpOp::Hi:
        return a > b;
      case CmpOp::Hs:
        return a >= b;
      default:
        return false;
    }
  }
  bool fcmp(u64 ab, u64 bb) const {
    return compare_floats(op_, as_double(ab, t_, ftz_), as_double(bb, t_, ftz_));
  }
  CmpOp op_;
  Type t_;
  bool ftz_, fl_ = false, signed_ = false;
};

bool combine(BoolOp op, bool t, bool c) {
  switch (op) {
    case BoolOp::And:
      return t && c;
    case BoolOp::Or:
      return t || c;
    case BoolOp::Xor:
      return t != c;
    default:
      return t;
  }
}

// r[lane] = a[lane] OP b[lane] (0/1) for the lanes of m, OP a fixed integer
// comparison, so the loop carries no switch.
template <class Op>
void compare_lanes(LaneMask m, unsigned ws, uint64_t* a, const uint64_t* b, Op op) {
  each_lane(m, ws, [&](unsigned lane) { a[lane] = op(a[lane], b[lane]); });
}

// a[lane] = cmp(a[lane], b[lane]) (0/1) for the lanes of m: integer
// comparisons through a loop per operator, float ones through the Comparator.
void compare_all(const Exec& x, const Comparator& cmp, Type t, LaneMask m, uint64_t* a,
                 const uint64_t* b) {
  const unsigned ws = x.warp_size();
  if (!is_float(t)) {
    const bool s = is_signed(t);
    auto lt = [s](u64 p, u64 q) -> u64 { return s ? int64_t(p) < int64_t(q) : p < q; };
    switch (x.inst.cmp) {
      case CmpOp::Eq:
        return compare_lanes(m, ws, a, b, [](u64 p, u64 q) -> u64 { return p == q; });
      case CmpOp::Ne:
        return compare_lanes(m, ws, a, b, [](u64 p, u64 q) -> u64 { return p != q; });
      case CmpOp::Lt:
        return compare_lanes(m, ws, a, b, lt);
      case CmpOp::Le:
        return compare_lanes(m, ws, a, b, [lt](u64 p, u64 q) -> u64 { return !lt(q, p); });
      case CmpOp::Gt:
        return compare_lanes(m, ws, a, b, [lt](u64 p, u64 q) -> u64 { return lt(q, p); });
      case CmpOp::Ge:
        return compare_lanes(m, ws, a, b, [lt](u64 p, u64 q) -> u64 { return !lt(p, q); });
      default:
        break;  // lo ls hi hs (rare): the Comparator
    }
  }
  each_lane(m, ws, [&](unsigned lane) { a[lane] = cmp(a[lane], b[lane]); });
}

// The element type of a packed pair (.f16x2 -> .f16, .bf16x2 -> .bf16).
Type element_of(Type packed) { return packed == Type::F16x2 ? Type::F16 : Type::BF16; }

// setp.f16x2 / .bf16x2 p|q, a, b[, {!}c]: p = BoolOp(cmp of the lower
// halves, c), q = BoolOp(cmp of the upper halves, c).
void setp_packed(const Exec& x) {
  const Type t = x.inst.type;
  const BoolOp bop = x.inst.boolop;
  const Comparator cmp(x, element_of(t));
  const Dest p = x.dst(0, Type::Pred), q = x.dst(1, Type::Pred);
  const Source a = x.src(2, t), b = x.src(3, t);
  const Source c = bop == BoolOp::None ? Source() : x.src(4, Type::Pred);
  for_lanes(x.executed, [&](unsigned lane) {
    const u64 av = a(lane), bv = b(lane);
    const bool cv = bop != BoolOp::None && c(lane);
    const bool lo = cmp(av & 0xffff, bv & 0xffff), hi = cmp(av >> 16, bv >> 16);
    p(lane, combine(bop, lo, cv));
    q(lane, combine(bop, hi, cv));
  });
}

// setp p[|q], a, b[, {!}c]: p = BoolOp(cmp, c), q = BoolOp(!cmp, c).
void setp(const Exec& x) {
  const Type t = x.inst.type;
  if (is_packed_half(t)) return setp_packed(x);
  const BoolOp bop = x.inst.boolop;
  const Comparator cmp(x, t);
  const Dest p = x.dst(0, Type::Pred), q = x.dst(1, Type::Pred);
  const Source a = x.src(2, t), b = x.src(3, t);
  const Source c = bop == BoolOp::None ? Source() : x.src(4, Type::Pred);
  const LaneMask m = x.executed;
  const unsigned ws = x.warp_size();
  LaneValues r, bv;
  a.gather(m, ws, r);
  b.gather(m, ws, bv);
  compare_all(x, cmp, t, m, r, bv);
  if (bop == BoolOp::None) {
    p.scatter(m, ws, r);
    each_lane(m, ws, [&](unsigned lane) { r[lane] ^= 1; });
    q.scatter(m, ws, r);
    return;
  }
  c.gather(m, ws, bv);  // the comparison is done with b
  each_lane(m, ws, [&](unsigned lane) {
    const bool rv = r[lane], cv = bv[lane];
    r[lane] = combine(bop, rv, cv);
    bv[lane] = combine(bop, !rv, cv);
  });
  p.scatter(m, ws, r);
  q.scatter(m, ws, bv);
}

// set with a packed source: each half of d is the result of its halves,
// 1.0 in the pair's format (d of the source's type) or 0xffff (.u32/.s32).
void set_packed(const Exec& x) {
  const Type dt = x.inst.type, st = x.inst.src_type;
  const BoolOp bop = x.inst.boolop;
  const Comparator cmp(x, element_of(st));
  const u64 yes = dt == st ? half_one(half_format(st)) : 0xffff;
  const Dest d = x.dst(0, Type::B32);
  const Source a = x.src(1, st), b = x.src(2, st);
  const Source c = bop == BoolOp::None ? Source() : x.src(3, Type::Pred);
  for_lanes(x.executed, [&](unsigned lane) {
    const u64 av = a(lane), bv = b(lane);
    const bool cv = bop != BoolOp::None && c(lane);
    const bool lo = combine(bop, cmp(av & 0xffff, bv & 0xffff), cv);
    const bool hi = combine(bop, cmp(av >> 16, bv >> 16), cv);
    d(lane, (lo ? yes : 0) | (hi ? yes << 16 : 0));
  });
}

// The value set writes for true: 1.0 in a float destination's format, all
// ones in an integer one.
u64 set_true_value(Type dt) {
  switch (dt) {
    case Type::F32:
      return to_bits(1.0f);
    case Type::F16:
    case Type::BF16:
      return half_one(half_format(dt));
    default:
      return low_mask(type_bits(dt));
  }
}

// set d, a, b[, {!}c]: all ones (integer d) or 1.0 (float d) when true.
void set(const Exec& x) {
  const Type dt = x.inst.type, st = x.inst.src_type;
  if (is_packed_half(st)) return set_packed(x);
  if (!(type_bits(dt) == 16 || type_bits(dt) == 32) || is_packed_half(dt))
    x.unsupported("set needs a 16- or 32-bit integer, .f16, .bf16 or .f32 destination");
  const BoolOp bop = x.inst.boolop;
  const Comparator cmp(x, st);
  const u64 yes = set_true_value(dt);
  const Dest d = x.dst(0, bits_type(type_bits(dt)));
  const Source a = x.src(1, st), b = x.src(2, st);
  const Source c = bop == BoolOp::None ? Source() : x.src(3, Type::Pred);
  const LaneMask m = x.executed;
  const unsigned ws = x.warp_size();
  LaneValues r, bv;
  a.gather(m, ws, r);
  b.gather(m, ws, bv);
  compare_all(x, cmp, st, m, r, bv);
  if (bop != BoolOp::None) c.gather(m, ws, bv);
  each_lane(m, ws, [&](unsigned lane) {
    const bool cv = bop != BoolOp::None && bv[lane];
    r[lane] = combine(bop, r[lane], cv) ? yes : 0;
  });
  d.scatter(m, ws, r);
}

// selp d, a, b, c: d = c ? a : b.
void selp(const Exec& x) {
  const Type t = x.inst.type;
  lane_ternary(x, t, t, Type::Pred, [](u64 a, u64 b, u64 c) { return c ? a : b; });
}

// slct d, a, b, c: d = c >= 0 ? a : b. For .f32 c, -0.0 >= 0 holds (IEEE),
// NaN selects b, and .ftz flushes a subnormal c to a zero first.
void slct(const Exec& x) {
  const Type t = x.inst.type, ct = x.inst.src_type;
  if (ct != Type::S32 && ct != Type::F32) x.unsupported("slct needs an .s32 or .f32 operand c");
  const bool ftz = x.inst.ftz;
  const Dest d = x.dst(0, t);
  const Source a = x.src(1, t), b = x.src(2, t), c = x.src(3, ct);
  for_lanes(x.executed, [&](unsigned lane) {
    const u64 cv = c(lane);
    const bool pick_a = ct == Type::S32 ? int64_t(cv) >= 0 : as_double(cv, ct, ftz) >= 0;
    d(lane, pick_a ? a(lane) : b(lane));
  });
}

// testp p, a. PTX counts +-0 as normal.
void testp(const Exec& x) {
  const Type t = x.inst.type;
  if (t != Type::F32 && t != Type::F64) x.unsupported("testp needs .f32 or .f64");
  const TestpOp op = x.inst.testp;
  if (op == TestpOp::None) x.unsupported("testp needs a test");
  const Dest p = x.dst(0, Type::Pred);
  const Source a = x.src(1, t);
  for_lanes(x.executed, [&](unsigned lane) {
    const int c = std::fpclassify(as_double(a(lane), t, false));
    const bool sub = t == Type::F32 ? is_subnormal(from_bits<float>(a(lane))) : c == FP_SUBNORMAL;
    bool r = false;
    switch (op) {
      case TestpOp::Finite:
        r = c != FP_INFINITE && c != FP_NAN;
        break;
      case TestpOp::Infinite:
        r = c == FP_INFINITE;
        break;
      case TestpOp::Number:
        r = c != FP_NAN;
        break;
      case TestpOp::NotANumber:
        r = c == FP_NAN;
        break;
      case TestpOp::Normal:
        r = !sub && (c == FP_NORMAL || c == FP_ZERO);
        break;
      case TestpOp::Subnormal:
        r = sub;
        break;
      case TestpOp::None:
        break;
    }
    p(lane, r);
  });
}

}  // namespace

void exec_compare_select(const Exec& x) {
  switch (x.inst.op) {
    case Opcode::Setp:
      return setp(x);
    case Opcode::Set:
      return set(x);
    case Opcode::Selp:
      return selp(x);
    case Opcode::Slct:
      return slct(x);
    case Opcode::Testp:
      return testp(x);
    default:
      x.unsupported("not a compare/select opcode");
  }
}

}  // namespace warptlm::sem
