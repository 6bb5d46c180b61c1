// Typed operand access for the semantics: an instruction is decoded once into
// Sources and Dests, then the per-family code loops over the executed lanes.
//
// Value convention: a value of type T travels as a uint64_t holding T's bits,
// sign-extended to 64 bits for signed integer types and zero-extended for all
// others (unsigned, bit, float bits, predicates as 0/1). With this convention
// one 64-bit integer routine serves every integer width: the Dest truncates.
#pragma once

#include <cstdint>
#include <string>

#include "semantics/semantics.h"

namespace warptlm::sem {

inline uint64_t low_mask(unsigned bits) {
  return bits >= 64 ? ~uint64_t(0) : ((uint64_t(1) << bits) - 1);
}
inline uint64_t zext(uint64_t v, unsigned bits) { return v & low_mask(bits); }
inline uint64_t sext(uint64_t v, unsigned bits) {
  if (bits == 0 || bits >= 64) return v;
  const unsigned s = 64 - bits;
  return static_cast<uint64_t>(static_cast<int64_t>(v << s) >> s);
}
// Brings raw bits into the value convention for type t.
inline uint64_t extend(uint64_t v, Type t) {
  return is_signed(t) ? sext(v, type_bits(t)) : zext(v, type_bits(t));
}
// The bit type of a width (8/16/32/64), for packing and memory elements.
Type bits_type(unsigned bits);
// The type of twice the width and the same signedness (mul.wide / mad.wide).
Type wide_type(Type t);

// Calls f(lane) for every set bit of m, in increasing lane order.
template <class F>
inline void for_lanes(LaneMask m, F&& f) {
  while (m) {
    const unsigned lane = static_cast<unsigned>(__builtin_ctzll(m));
    m &= m - 1;
    f(lane);
  }
}

// Calls f(lane) for lanes 0..ws-1. The 32-lane warp (every preset's) gets a
// loop with a constant trip count, which GCC unrolls and may vectorise at
// -O2 (its "very cheap" cost model allows no epilogue for a variable count).
template <class F>
inline void warp_loop(unsigned ws, F&& f) {
  if (ws == 32) {
    for (unsigned lane = 0; lane < 32; ++lane) f(lane);
  } else {
    for (unsigned lane = 0; lane < ws; ++lane) f(lane);
  }
}

// Calls f(lane) for every lane of m; when m holds every lane of the warp
// (the common case) as a counted loop (warp_loop) instead of a scan of the
// mask.
template <class F>
inline void each_lane(LaneMask m, unsigned ws, F&& f) {
  if (m == full_mask(ws)) {
    warp_loop(ws, f);
  } else {
    for_lanes(m, f);
  }
}

// One value per lane of a warp, on the stack: the operands of an instruction
// are read into these once, so the per-lane loops of the semantics do not
// decode the operand kind for every lane.
using LaneValues = uint64_t[kMaxWarpSize];

struct Exec;

// Branchless extension from a width: ((v & mask) ^ sbit) - sbit, with sbit
// the sign bit of the width for sign extension and 0 for zero extension.
struct Extender {
  uint64_t mask = ~uint64_t(0);
  uint64_t sbit = 0;
  Extender() = default;
  Extender(unsigned bits, bool sign)
      : mask(low_mask(bits)), sbit(sign && bits ? uint64_t(1) << (bits - 1) : 0) {}
  uint64_t operator()(uint64_t v) const { return ((v & mask) ^ sbit) - sbit; }
};

// out[lane] = e(in[lane]) ^ flip for lanes [0, ws), `in` a register's lanes
// (uint64_t or uint32_t). A plain function with its operands by value: GCC's
// -O2 vectoriser takes this loop (for ws 32) but not the same loop written
// in a member with a lambda. `out` is a LaneValues, never a register, hence
// __restrict.
template <class T>
inline void read_lanes(const T* in, uint64_t* __restrict out, Extender e, uint64_t flip,
                       unsigned ws) {
  if (ws == 32) {
    for (unsigned lane = 0; lane < 32; ++lane) out[lane] = e(uint64_t(in[lane])) ^ flip;
  } else {
    for (unsigned lane = 0; lane < ws; ++lane) out[lane] = e(uint64_t(in[lane])) ^ flip;
  }
}
// The same for a predicate: lane l's value is bit l of `bits`.
inline void read_pred_lanes(LaneMask bits, uint64_t* __restrict out, Extender e, uint64_t flip,
                            unsigned ws) {
  if (ws == 32) {
    for (unsigned lane = 0; lane < 32; ++lane) out[lane] = e((bits >> lane) & 1) ^ flip;
  } else {
    for (unsigned lane = 0; lane < ws; ++lane) out[lane] = e((bits >> lane) & 1) ^ flip;
  }
}
// out[lane] = e(v[lane]) & reg_mask for lanes [0, ws), stored as T (see
// read_lanes).
template <class T>
inline void write_lanes(const uint64_t* v, T* __restrict out, Extender e, uint64_t reg_mask,
                        unsigned ws) {
  if (ws == 32) {
    for (unsigned lane = 0; lane < 32; ++lane) out[lane] = static_cast<T>(e(v[lane]) & reg_mask);
  } else {
    for (unsigned lane = 0; lane < ws; ++lane) out[lane] = static_cast<T>(e(v[lane]) & reg_mask);
  }
}
// The predicate bits of e(v[lane]) for the lanes of m (bit 0 of the value).
inline LaneMask pred_bits(LaneMask m, unsigned ws, const uint64_t* v, Extender e) {
  LaneMask bits = 0;
  each_lane(m, ws, [&](unsigned lane) { bits |= LaneMask(e(v[lane]) & 1) << lane; });
  return bits;
}

// A source operand resolved for one instruction. Reading it for a lane gives
// the value in the convention above, converted to the requested type.
// Registers (of each storage kind) and constants are read inline; specials
// and symbol addresses go through the environment.
class Source {
 public:
  Source() = default;
  inline Source(const Exec& x, const Operand& op, Type t);  // below Exec
  uint64_t operator()(unsigned lane) const {
    switch (kind_) {
      case Kind::Wide:
        return ext_(static_cast<const uint64_t*>(reg_)[lane]) ^ flip_;
      case Kind::Narrow:
        return ext_(static_cast<const uint32_t*>(reg_)[lane]) ^ flip_;
      case Kind::Pred:
        return ext_((*static_cast<const LaneMask*>(reg_) >> lane) & 1) ^ flip_;
      case Kind::Const:
        return value_;
      default:
        return ext_(fetch(lane)) ^ flip_;
    }
  }
  // Reads the operand into out[lane] for the lanes of m; the other entries
  // are left alone and must not be read (each_lane and Dest::scatter touch
  // only the lanes of m). A whole warp reads registers and constants in a
  // straight loop that vectorises; specials ask the environment lane by
  // lane, in increasing lane order, a symbol's address once.
  void gather(LaneMask m, unsigned ws, uint64_t* out) const {
    switch (kind_) {
      case Kind::Wide:
        return gather_reg(static_cast<const uint64_t*>(reg_), m, ws, out);
      case Kind::Narrow:
        return gather_reg(static_cast<const uint32_t*>(reg_), m, ws, out);
      case Kind::Pred: {
        const LaneMask bits = *static_cast<const LaneMask*>(reg_);
        if (m == full_mask(ws)) return read_pred_lanes(bits, out, ext_, flip_, ws);
        const Extender e = ext_;
        const uint64_t f = flip_;
        return for_lanes(m, [&](unsigned lane) { out[lane] = e((bits >> lane) & 1) ^ f; });
      }
      case Kind::Const: {
        const uint64_t v = value_;
        return each_lane(m, ws, [&](unsigned lane) { out[lane] = v; });
      }
      default:
        return gather_fetched(m, out);
    }
  }

 private:
  // The register kinds first, numbered as RegKind.
  enum class Kind : uint8_t { Wide, Narrow, Pred, Const, Special, Symbol };
  template <class T>
  void gather_reg(const T* in, LaneMask m, unsigned ws, uint64_t* out) const {
    if (m == full_mask(ws)) return read_lanes(in, out, ext_, flip_, ws);
    const Extender e = ext_;
    const uint64_t f = flip_;
    for_lanes(m, [&](unsigned lane) { out[lane] = e(uint64_t(in[lane])) ^ f; });
  }
  void set_reg(const WarpRegisters& regs, uint32_t reg) {
    const RegSlot s = regs.slots[reg];
    kind_ = static_cast<Kind>(s.kind);
    reg_ = regs.data + s.offset;
  }
  // Every operand but a plain register (and every error), out of line.
  void decode(const Exec& x, const Operand& op, Type t);
  uint64_t fetch(unsigned lane) const;  // special register or symbol address
  void gather_fetched(LaneMask m, uint64_t* out) const;
  Kind kind_ = Kind::Const;
  Extender ext_;
  uint64_t flip_ = 0;  // 1 for a negated predicate `!p`
  uint64_t value_ = 0;
  const void* reg_ = nullptr;  // a register's storage (Kind says which form)
  WarpEnvironment* env_ = nullptr;
  SpecialReg sreg_ = SpecialReg::Tid;
  uint8_t comp_ = 0;
  uint32_t symbol_ = 0;
  int64_t offset_ = 0;
};

// A destination register (or a `_` sink / absent optional operand, which
// discards). Writing a value of the instruction type T into a register
// declared R: sign-extend if T is signed and narrower than R, else
// zero-extend, then truncate to R's width (and a predicate to bit 0).
class Dest {
 public:
  Dest() = default;
  inline Dest(const Exec& x, const Operand& op, Type t);  // below Exec
  void operator()(unsigned lane, uint64_t v) const {
    const uint64_t r = ext_(v) & reg_mask_;
    switch (kind_) {
      case Kind::Wide:
        static_cast<uint64_t*>(reg_)[lane] = r;
        return;
      case Kind::Narrow:
        static_cast<uint32_t*>(reg_)[lane] = static_cast<uint32_t>(r);
        return;
      case Kind::Pred: {
        LaneMask* p = static_cast<LaneMask*>(reg_);
        *p = (*p & ~(LaneMask(1) << lane)) | (LaneMask(r & 1) << lane);
        return;
      }
      default:
        return;  // discarded
    }
  }
  // The errors: `op` is not a register, or the instruction has no type.
  [[noreturn]] static void invalid(const Exec& x, const Operand& op);
  // Writes v[lane] for every lane of m; the other lanes keep their values.
  void scatter(LaneMask m, unsigned ws, const uint64_t* v) const {
    switch (kind_) {
      case Kind::Wide:
        return scatter_reg(static_cast<uint64_t*>(reg_), m, ws, v);
      case Kind::Narrow:
        return scatter_reg(static_cast<uint32_t*>(reg_), m, ws, v);
      case Kind::Pred: {
        // reg_mask_ keeps bit 0 of a predicate's value: no need to apply it.
        LaneMask* p = static_cast<LaneMask*>(reg_);
        *p = (*p & ~m) | pred_bits(m, ws, v, ext_);
        return;
      }
      default:
        return;  // discarded
    }
  }

 private:
  // The register kinds numbered as RegKind; None discards.
  enum class Kind : uint8_t { Wide, Narrow, Pred, None };
  template <class T>
  void scatter_reg(T* out, LaneMask m, unsigned ws, const uint64_t* v) const {
    if (m == full_mask(ws)) return write_lanes(v, out, ext_, reg_mask_, ws);
    const Extender e = ext_;
    const uint64_t rm = reg_mask_;
    for_lanes(m, [&](unsigned lane) { out[lane] = static_cast<T>(e(v[lane]) & rm); });
  }
  Kind kind_ = Kind::None;
  void* reg_ = nullptr;
  Extender ext_;
  uint64_t reg_mask_ = ~uint64_t(0);
};

// Everything one execution of an instruction needs.
struct Exec {
  const Module& module;
  const Instruction& inst;
  const WarpRegisters& regs;
  WarpEnvironment& env;
  LaneMask executed;

  unsigned warp_size() const { return regs.warp_size; }
  // Operand i; throws UnsupportedInstruction when the layout lacks it.
  const Operand& op(size_t i) const {
    if (i >= inst.ops.size()) missing_operand(i);
    return inst.ops[i];
  }
  // Operand i exists and is not an absent optional operand.
  bool has(size_t i) const {
    return i < inst.ops.size() && inst.ops[i].kind != Operand::Kind::None;
  }
  Source src(size_t i, Type t) const { return Source(*this, op(i), t); }
  Dest dst(size_t i, Type t) const { return Dest(*this, op(i), t); }
  // Throws UnsupportedInstruction naming the opcode, types and source text.
  [[noreturn]] void unsupported(const std::string& why) const;
  // Throws UnsupportedInstruction: the layout has no operand i.
  [[noreturn]] void missing_operand(size_t i) const;
};

// The operand constructors run for every executed instruction: inline for
// registers and integer literals of integer operands, the usual cases.
inline Source::Source(const Exec& x, const Operand& op, Type t) {
  const bool plain = !op.negated && t != Type::None;
  if (plain && op.kind == Operand::Kind::Reg) {
    ext_ = Extender(type_bits(t), is_signed(t));
    set_reg(x.regs, op.reg);
  } else if (plain && op.kind == Operand::Kind::Imm && t != Type::Pred && !is_float(t)) {
    ext_ = Extender(type_bits(t), is_signed(t));
    value_ = extend(op.imm, t);  // kind_ is Const
  } else {
    decode(x, op, t);
  }
}

inline Dest::Dest(const Exec& x, const Operand& op, Type t) {
  if (op.kind == Operand::Kind::Sink || op.kind == Operand::Kind::None) return;
  if (op.kind != Operand::Kind::Reg || t == Type::None) invalid(x, op);
  const Type reg = op.reg_type == Type::None ? t : op.reg_type;
  const unsigned tbits = type_bits(t), rbits = type_bits(reg);
  const RegSlot s = x.regs.slots[op.reg];
  kind_ = static_cast<Kind>(s.kind);
  reg_ = x.regs.data + s.offset;
  ext_ = Extender(tbits, is_signed(t) && tbits < rbits);
  reg_mask_ = low_mask(rbits);
}

// d = op(a, b) over the executed lanes, operands 1 and 2 read as ta and tb,
// operand 0 written as td: the lane loop of every two-source family. All
// operands are read before any lane is written, so a destination that is
// also a source stays exact.
template <class Op>
void lane_binary(const Exec& x, Type td, Type ta, Type tb, Op op) {
  const Dest d = x.dst(0, td);
  const Source a = x.src(1, ta), b = x.src(2, tb);
  const LaneMask m = x.executed;
  const unsigned ws = x.warp_size();
  LaneValues av, bv;
  a.gather(m, ws, av);
  b.gather(m, ws, bv);
  each_lane(m, ws, [&](unsigned lane) { av[lane] = op(av[lane], bv[lane]); });
  d.scatter(m, ws, av);
}

// d = op(a, b, c) over the executed lanes: a and b read as tab, c as tc,
// d written as td (mad and its kin, selp).
template <class Op>
void lane_ternary(const Exec& x, Type td, Type tab, Type tc, Op op) {
  const Dest d = x.dst(0, td);
  const Source a = x.src(1, tab), b = x.src(2, tab), c = x.src(3, tc);
  const LaneMask m = x.executed;
  const unsigned ws = x.warp_size();
  LaneValues av, bv, cv;
  a.gather(m, ws, av);
  b.gather(m, ws, bv);
  c.gather(m, ws, cv);
  each_lane(m, ws, [&](unsigned lane) { av[lane] = op(av[lane], bv[lane], cv[lane]); });
  d.scatter(m, ws, av);
}

}  // namespace warptlm::sem
