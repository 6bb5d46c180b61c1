// Half-precision arithmetic: add sub mul fma abs neg min max ex2 tanh on
// .f16, .bf16 and the packed pairs .f16x2, .bf16x2 (element 0 in bits 0-15),
// each element on its own (docs/half-precision.md).
//
// Exactness: an element is read as a double (exact). Sums and products of
// two halves are rounded once to double and then to the half format; as a
// double has more than 2p + 2 bits for both formats (p = 11, 8), that double
// rounding gives the correctly rounded result (Figueroa, "When is double
// rounding innocuous?", 1995). fma's product is exact in double; its sum is
// made exact-or-sticky with TwoSum (the double sum moved one ulp toward its
// rounding error), so its one rounding to half is correct too.
//
// PTX writes these with .rn only (the parser refuses the rest); the
// directed modes work here as well (directed roundings compose exactly, and
// fma's sticky double decides them), for code generated past the parser.
//
// .ftz (.f16 forms) flushes subnormal inputs and results to zeros of the
// same sign; .sat clamps to [0, 1] with NaN -> +0; .relu turns a negative
// result (-0 included) into +0 and keeps NaN. NaN results are the canonical
// NaN 0x7fff. abs/neg act on the sign bit. ex2 and tanh (.approx) compute
// the host's double function and round to nearest: at least as accurate as
// the ISA's bounds, not the hardware's bits.
#include <cmath>
#include <cstdint>

#include "semantics/families.h"
#include "semantics/float16.h"
#include "semantics/float_util.h"

namespace warptlm::sem {

namespace {

using u64 = uint64_t;

// The element-level operations of one instruction, decoded once.
class HalfElements {
 public:
  explicit HalfElements(const Instruction& in)
      : f_(half_format(in.type)),
        r_(in.rnd == Rounding::None ? Rounding::Rn : in.rnd),
        ftz_(in.ftz),
        sat_(in.sat),
        relu_(in.relu) {}

  uint16_t get(uint16_t h) const { return ftz_ ? half_flush(f_, h) : h; }
  double value(uint16_t h) const { return half_to_double(f_, get(h)); }
  bool is_nan(uint16_t h) const { return half_is_nan(f_, h); }
  // An exact or once-rounded double result to the format, with .sat, .relu
  // and .ftz.
  uint16_t out(double v) const {
    if (sat_) v = std::isnan(v) ? 0.0 : saturate(v);
    uint16_t h = half_from_double(f_, v, r_);
    if (relu_ && (h & 0x8000) && !is_nan(h)) h = 0;
    return ftz_ ? half_flush(f_, h) : h;
  }

  uint16_t add(uint16_t a, uint16_t b) const { return out(sum(value(a), value(b))); }
  uint16_t sub(uint16_t a, uint16_t b) const { return out(sum(value(a), -value(b))); }
  uint16_t mul(uint16_t a, uint16_t b) const { return out(value(a) * value(b)); }
  uint16_t fma(uint16_t a, uint16_t b, uint16_t c) const {
    const double p = value(a) * value(b), q = value(c);  // p exact
    const double s = sum(p, q), bb = s - p;
    const double err = (p - (s - bb)) + (q - bb);  // the exact error of s (TwoSum)
    const double v = (err == 0 || !std::isfinite(s)) ? s : std::nextafter(s, err * HUGE_VAL);
    return out(v);
  }
  // min/max: a NaN loses to a number unless .NaN; -0 < +0. .xorsign.abs:
  // the min/max of the magnitudes with the XOR of the signs.
  uint16_t min_max(uint16_t a, uint16_t b, bool is_max, bool nan_wins, bool xorsign) const {
    a = get(a);
    b = get(b);
    const uint16_t sign = xorsign ? ((a ^ b) & 0x8000) : 0;
    if (xorsign) {
      a &= 0x7fff;
      b &= 0x7fff;
    }
    const bool na = is_nan(a), nb = is_nan(b);
    if (na || nb) {
      if (nan_wins || (na && nb)) return kHalfCanonicalNan;
      return (na ? b : a) | sign;
    }
    const double p = half_to_double(f_, a), q = half_to_double(f_, b);
    uint16_t pick;
    if (p == q)
      pick = (((a & 0x8000) != 0) != is_max) ? a : b;
    else
      pick = ((p < q) != is_max) ? a : b;
    return pick | sign;
  }
  uint16_t sign_op(uint16_t a, bool neg) const {
    a = get(a);
    return neg ? a ^ 0x8000 : a & 0x7fff;
  }
  template <class Fn>
  uint16_t function(uint16_t a, Fn fn) const {
    return out(fn(value(a)));
  }

 private:
  // p + q in double with the sign IEEE gives an exact zero sum under the
  // rounding: -0 in .rm unless both are +0.
  double sum(double p, double q) const {
    const double s = p + q;
    if (s != 0 || r_ != Rounding::Rm) return s;
    return (p == 0 && q == 0 && !std::signbit(p) && !std::signbit(q)) ? 0.0 : -0.0;
  }

  HalfFormat f_;
  Rounding r_;
  bool ftz_, sat_, relu_;
};

// d = op(elements of the sources) over the executed lanes and the one or
// two elements of each operand. All sources are read before d is written.
template <unsigned kSources, class Op>
void each_element(const Exec& x, Op op) {
  const Type t = x.inst.type;
  const unsigned elements = is_packed_half(t) ? 2 : 1;
  const Dest d = x.dst(0, t);
  Source s[kSources];
  for (unsigned i = 0; i < kSources; ++i) s[i] = x.src(1 + i, t);
  for_lanes(x.executed, [&](unsigned lane) {
    u64 v[kSources];
    for (unsigned i = 0; i < kSources; ++i) v[i] = s[i](lane);
    u64 r = 0;
    for (unsigned e = 0; e < elements; ++e) {
      uint16_t in[kSources];
      for (unsigned i = 0; i < kSources; ++i) in[i] = static_cast<uint16_t>(v[i] >> (16 * e));
      r |= u64(op(in)) << (16 * e);
    }
    d(lane, r);
  });
}

}  // namespace

void exec_half_arith(const Exec& x) {
  const Instruction& in = x.inst;
  const HalfElements h(in);
  if (in.rnd >= Rounding::Rni) x.unsupported("integer rounding on float arithmetic");
  switch (in.op) {
    case Opcode::Add:
      return each_element<2>(x, [&](const uint16_t* a) { return h.add(a[0], a[1]); });
    case Opcode::Sub:
      return each_element<2>(x, [&](const uint16_t* a) { return h.sub(a[0], a[1]); });
    case Opcode::Mul:
      if (in.mul != MulMode::None) x.unsupported(".lo/.hi/.wide on a float type");
      return each_element<2>(x, [&](const uint16_t* a) { return h.mul(a[0], a[1]); });
    case Opcode::Fma:
      return each_element<3>(x, [&](const uint16_t* a) { return h.fma(a[0], a[1], a[2]); });
    case Opcode::Abs:
    case Opcode::Neg: {
      const bool neg = in.op == Opcode::Neg;
      return each_element<1>(x, [&](const uint16_t* a) { return h.sign_op(a[0], neg); });
    }
    case Opcode::Min:
    case Opcode::Max: {
      const bool is_max = in.op == Opcode::Max, nan_wins = in.nan, xs = in.xorsign_abs;
      return each_element<2>(
          x, [&](const uint16_t* a) { return h.min_max(a[0], a[1], is_max, nan_wins, xs); });
    }
    case Opcode::Ex2:
      return each_element<1>(x, [&](const uint16_t* a) {
        return h.function(a[0], [](double v) { return std::exp2(v); });
      });
    case Opcode::Tanh:
      return each_element<1>(x, [&](const uint16_t* a) {
        return h.function(a[0], [](double v) { return std::tanh(v); });
      });
    default:
      x.unsupported("not defined for half-precision types");
  }
}

}  // namespace warptlm::sem
