#include "semantics/predecoded.h"

#include "memory/address_map.h"
#include "semantics/predecoded_handlers.h"
#include "semantics/predecoded_memory.h"

namespace warptlm {

namespace {

using namespace predecoded;  // the handler templates

// What decoding needs of one instruction's operands.
class Operands {
 public:
  Operands(const Instruction& in, const RegSlot* slots) : in_(in), slots_(slots) {}
  size_t count() const { return in_.ops.size(); }
  // Operand i is a plain register stored as `kind`; its offset in `off`.
  bool reg(size_t i, RegKind kind, uint32_t& off) const {
    if (i >= in_.ops.size()) return false;
    const Operand& op = in_.ops[i];
    if (op.kind != Operand::Kind::Reg || op.negated || slots_[op.reg].kind != kind) return false;
    off = slots_[op.reg].offset;
    return true;
  }
  // Operand i is a register that a result of type t fills exactly: stored
  // as t is and declared with t's width (a wider or narrower declaration
  // makes execute() extend or truncate).
  bool dest(size_t i, Type t, uint32_t& off) const {
    if (!reg(i, reg_kind(t), off)) return false;
    const Type declared = in_.ops[i].reg_type;
    return declared == Type::None || type_bits(declared) == type_bits(t);
  }
  // Operand i is an [address] made of a register (not a predicate, not a
  // variable) and an offset: the register's offset in `off`, its storage in
  // `narrow`.
  bool reg_address(size_t i, uint32_t& off, bool& narrow) const {
    if (i >= in_.ops.size()) return false;
    const Operand& op = in_.ops[i];
    if (op.kind != Operand::Kind::Address || !op.has_reg || op.has_symbol) return false;
    const RegSlot s = slots_[op.reg];
    if (s.kind == RegKind::Pred) return false;
    off = s.offset;
    narrow = s.kind == RegKind::Narrow;
    return true;
  }
  // Operand i is an [address] made of a variable (no register) and an
  // offset: the variable's symbol index in `symbol`.
  bool variable_address(size_t i, uint32_t& symbol) const {
    if (i >= in_.ops.size()) return false;
    const Operand& op = in_.ops[i];
    if (op.kind != Operand::Kind::Address || op.has_reg || !op.has_symbol) return false;
    symbol = op.symbol;
    return true;
  }
  // Operand i is an integer literal.
  bool imm(size_t i, uint64_t& v) const {
    if (i >= in_.ops.size() || in_.ops[i].kind != Operand::Kind::Imm) return false;
    v = in_.ops[i].imm;
    return true;
  }
  // Operand i is a register stored as `kind` (imm = false) or an integer
  // literal (imm = true, its value in `v`).
  bool reg_or_imm(size_t i, RegKind kind, uint32_t& off, bool& is_imm, uint64_t& v) const {
    is_imm = imm(i, v);
    return is_imm || reg(i, kind, off);
  }

 private:
  const Instruction& in_;
  const RegSlot* slots_;
};

template <class U, class TB, class Op>
PredecodedHandler binary_handler(bool imm) {
  return imm ? binary<U, TB, true, Op> : binary<U, TB, false, Op>;
}
template <class Op>
PredecodedHandler int_binary(unsigned bits, bool imm) {
  return bits == 32 ? binary_handler<u32, u32, Op>(imm) : binary_handler<u64, u64, Op>(imm);
}
template <class Op>
PredecodedHandler shift_binary(unsigned bits, bool imm) {
  return bits == 32 ? binary_handler<u32, u32, Op>(imm) : binary_handler<u64, u32, Op>(imm);
}

// The integer type of a 32- or 64-bit integer form (its width), or 0.
unsigned int_bits(Type t) {
  if (t == Type::Pred || t == Type::None || is_float(t) || is_packed_half(t)) return 0;
  const unsigned n = type_bits(t);
  return n == 32 || n == 64 ? n : 0;
}

// d, a, b of a two-source form of type t (b of type tb) into p; b may be an
// immediate.
bool two_sources(const Operands& ops, Type t, RegKind kb, P& p, bool& imm) {
  return ops.count() == 3 && ops.dest(0, t, p.d) && ops.reg(1, reg_kind(t), p.a) &&
         ops.reg_or_imm(2, kb, p.b, imm, p.imm);
}

PredecodedHandler arith(const Instruction& in, const Operands& ops, P& p) {
  const Type t = in.type;
  const unsigned n = int_bits(t);
  if (in.sat || in.carry_in || in.carry_out) return nullptr;
  bool imm = false;
  if (n == 0) {
    // f32 add/sub/mul, round to nearest, registers only.
    if (t != Type::F32 || in.ftz || (in.rnd != Rounding::None && in.rnd != Rounding::Rn) ||
        in.mul != MulMode::None || !two_sources(ops, t, RegKind::Narrow, p, imm) || imm)
      return nullptr;
    if (in.op == Opcode::Add) return f32_binary<FAdd>;
    if (in.op == Opcode::Sub) return f32_binary<FSub>;
    if (in.op == Opcode::Mul) return f32_binary<FMul>;
    return nullptr;
  }
  const RegKind k = reg_kind(t);
  switch (in.op) {
    case Opcode::Add:
      return two_sources(ops, t, k, p, imm) ? int_binary<Add>(n, imm) : nullptr;
    case Opcode::Sub:
      return two_sources(ops, t, k, p, imm) ? int_binary<Sub>(n, imm) : nullptr;
    case Opcode::Min:
    case Opcode::Max: {
      if (!two_sources(ops, t, k, p, imm)) return nullptr;
      const bool s = is_signed(t), mx = in.op == Opcode::Max;
      if (s)
        return mx ? int_binary<MinMax<true, true>>(n, imm)
                  : int_binary<MinMax<true, false>>(n, imm);
      return mx ? int_binary<MinMax<false, true>>(n, imm)
                : int_binary<MinMax<false, false>>(n, imm);
    }
    case Opcode::Div:
    case Opcode::Rem: {
      if (!two_sources(ops, t, k, p, imm)) return nullptr;
      const bool s = is_signed(t);
      if (in.op == Opcode::Div)
        return s ? int_binary<Div<true>>(n, imm) : int_binary<Div<false>>(n, imm);
      return s ? int_binary<Rem<true>>(n, imm) : int_binary<Rem<false>>(n, imm);
    }
    case Opcode::Mul:
      if (in.mul == MulMode::None || in.mul == MulMode::Lo)
        return two_sources(ops, t, k, p, imm) ? int_binary<MulLo>(n, imm) : nullptr;
      if (in.mul == MulMode::Wide && n == 32 && ops.count() == 3 &&
          ops.dest(0, is_signed(t) ? Type::S64 : Type::U64, p.d) &&
          ops.reg(1, RegKind::Narrow, p.a) && ops.reg_or_imm(2, RegKind::Narrow, p.b, imm, p.imm)) {
        if (is_signed(t)) return imm ? mul_wide<true, true> : mul_wide<true, false>;
        return imm ? mul_wide<false, true> : mul_wide<false, false>;
      }
      return nullptr;
    case Opcode::Mad:
      if ((in.mul != MulMode::None && in.mul != MulMode::Lo) || ops.count() != 4 ||
          !ops.dest(0, t, p.d) || !ops.reg(1, k, p.a) || !ops.reg_or_imm(2, k, p.b, imm, p.imm) ||
          !ops.reg(3, k, p.c))
        return nullptr;
      if (n == 32) return imm ? mad_lo<u32, true> : mad_lo<u32, false>;
      return imm ? mad_lo<u64, true> : mad_lo<u64, false>;
    default:
      return nullptr;
  }
}

// bfe with at least one register among pos and len (bfe_constants() takes
// two literals).
template <class U>
PredecodedHandler bfe_of(bool s, bool imm_b, bool imm_c) {
  if (s) {
    if (imm_b) return bit_field_extract<U, true, true, false>;
    return imm_c ? bit_field_extract<U, true, false, true>
                 : bit_field_extract<U, true, false, false>;
  }
  if (imm_b) return bit_field_extract<U, false, true, false>;
  return imm_c ? bit_field_extract<U, false, false, true>
               : bit_field_extract<U, false, false, false>;
}

PredecodedHandler bits(const Instruction& in, const Operands& ops, P& p) {
  const Type t = in.type;
  bool imm = false;
  if (t == Type::Pred) {
    switch (in.op) {
      case Opcode::And:
      case Opcode::Or:
      case Opcode::Xor:
        if (ops.count() != 3 || !ops.dest(0, t, p.d) || !ops.reg(1, RegKind::Pred, p.a) ||
            !ops.reg(2, RegKind::Pred, p.b))
          return nullptr;
        if (in.op == Opcode::And) return pred_binary<And>;
        return in.op == Opcode::Or ? pred_binary<Or> : pred_binary<Xor>;
      case Opcode::Not:
        return ops.count() == 2 && ops.dest(0, t, p.d) && ops.reg(1, RegKind::Pred, p.a) ? pred_not
                                                                                         : nullptr;
      default:
        return nullptr;
    }
  }
  const unsigned n = int_bits(t);
  if (n == 0) return nullptr;
  const RegKind k = reg_kind(t);
  switch (in.op) {
    case Opcode::And:
      return two_sources(ops, t, k, p, imm) ? int_binary<And>(n, imm) : nullptr;
    case Opcode::Or:
      return two_sources(ops, t, k, p, imm) ? int_binary<Or>(n, imm) : nullptr;
    case Opcode::Xor:
      return two_sources(ops, t, k, p, imm) ? int_binary<Xor>(n, imm) : nullptr;
    case Opcode::Not:
      if (ops.count() != 2 || !ops.dest(0, t, p.d) || !ops.reg(1, k, p.a)) return nullptr;
      return n == 32 ? bit_not<u32> : bit_not<u64>;
    case Opcode::Shl:
      return two_sources(ops, t, RegKind::Narrow, p, imm) ? shift_binary<Shl>(n, imm) : nullptr;
    case Opcode::Shr:
      if (!two_sources(ops, t, RegKind::Narrow, p, imm)) return nullptr;
      return is_signed(t) ? shift_binary<ShrS>(n, imm) : shift_binary<ShrU>(n, imm);
    case Opcode::Bfe: {
      bool imm_c = false;
      if (ops.count() != 4 || !ops.dest(0, t, p.d) || !ops.reg(1, k, p.a) ||
          !ops.reg_or_imm(2, RegKind::Narrow, p.b, imm, p.imm) ||
          !ops.reg_or_imm(3, RegKind::Narrow, p.c, imm_c, p.imm2))
        return nullptr;
      if (imm && imm_c) {  // the usual form: the field known at decode
        const bool s = is_signed(t);
        const u32 pos = static_cast<u32>(p.imm), len = static_cast<u32>(p.imm2);
        if (n == 32) {
          bfe_constants<u32>(p, s, pos, len);
          return bit_field_extract_const<u32>;
        }
        bfe_constants<u64>(p, s, pos, len);
        return bit_field_extract_const<u64>;
      }
      return n == 32 ? bfe_of<u32>(is_signed(t), imm, imm_c)
                     : bfe_of<u64>(is_signed(t), imm, imm_c);
    }
    default:
      return nullptr;
  }
}

template <class U, bool kSigned, bool kImm>
PredecodedHandler setp_for(CmpOp op) {
  switch (op) {
    case CmpOp::Eq:
      return setp<U, CmpOp::Eq, kSigned, kImm>;
    case CmpOp::Ne:
      return setp<U, CmpOp::Ne, kSigned, kImm>;
    case CmpOp::Lt:
      return setp<U, CmpOp::Lt, kSigned, kImm>;
    case CmpOp::Le:
      return setp<U, CmpOp::Le, kSigned, kImm>;
    case CmpOp::Gt:
      return setp<U, CmpOp::Gt, kSigned, kImm>;
    case CmpOp::Ge:
      return setp<U, CmpOp::Ge, kSigned, kImm>;
    case CmpOp::Lo:
      return setp<U, CmpOp::Lo, kSigned, kImm>;
    case CmpOp::Ls:
      return setp<U, CmpOp::Ls, kSigned, kImm>;
    case CmpOp::Hi:
      return setp<U, CmpOp::Hi, kSigned, kImm>;
    case CmpOp::Hs:
      return setp<U, CmpOp::Hs, kSigned, kImm>;
    default:
      return nullptr;  // the float-only comparisons
  }
}

template <class U>
PredecodedHandler setp_of(CmpOp op, bool s, bool imm) {
  if (s) return imm ? setp_for<U, true, true>(op) : setp_for<U, true, false>(op);
  return imm ? setp_for<U, false, true>(op) : setp_for<U, false, false>(op);
}

PredecodedHandler select_handler(const Instruction& in, const Operands& ops, P& p) {
  // Any 32- or 64-bit type (selp picks bits); integer literals for integer
  // types only.
  const Type t = in.type;
  const unsigned n = type_bits(t);
  if ((n != 32 && n != 64) || is_packed_half(t) || ops.count() != 4 || !ops.dest(0, t, p.d) ||
      !ops.reg(3, RegKind::Pred, p.c))
    return nullptr;
  const RegKind k = reg_kind(t);
  bool imm_a = false, imm_b = false;
  if (is_float(t)) {
    if (!ops.reg(1, k, p.a) || !ops.reg(2, k, p.b)) return nullptr;
  } else if (!ops.reg_or_imm(1, k, p.a, imm_a, p.imm) ||
             !ops.reg_or_imm(2, k, p.b, imm_b, p.imm2)) {
    return nullptr;
  }
  if (n == 32) {
    if (imm_a) return imm_b ? select<u32, true, true> : select<u32, true, false>;
    return imm_b ? select<u32, false, true> : select<u32, false, false>;
  }
  if (imm_a) return imm_b ? select<u64, true, true> : select<u64, true, false>;
  return imm_b ? select<u64, false, true> : select<u64, false, false>;
}

template <class F, bool kFtz, bool kImm>
PredecodedHandler setp_float_for(CmpOp op) {
  switch (op) {
    case CmpOp::Eq:
      return setp_float<F, CmpOp::Eq, kFtz, kImm>;
    case CmpOp::Ne:
      return setp_float<F, CmpOp::Ne, kFtz, kImm>;
    case CmpOp::Lt:
      return setp_float<F, CmpOp::Lt, kFtz, kImm>;
    case CmpOp::Le:
      return setp_float<F, CmpOp::Le, kFtz, kImm>;
    case CmpOp::Gt:
      return setp_float<F, CmpOp::Gt, kFtz, kImm>;
    case CmpOp::Ge:
      return setp_float<F, CmpOp::Ge, kFtz, kImm>;
    case CmpOp::Equ:
      return setp_float<F, CmpOp::Equ, kFtz, kImm>;
    case CmpOp::Neu:
      return setp_float<F, CmpOp::Neu, kFtz, kImm>;
    case CmpOp::Ltu:
      return setp_float<F, CmpOp::Ltu, kFtz, kImm>;
    case CmpOp::Leu:
      return setp_float<F, CmpOp::Leu, kFtz, kImm>;
    case CmpOp::Gtu:
      return setp_float<F, CmpOp::Gtu, kFtz, kImm>;
    case CmpOp::Geu:
      return setp_float<F, CmpOp::Geu, kFtz, kImm>;
    case CmpOp::Num:
      return setp_float<F, CmpOp::Num, kFtz, kImm>;
    case CmpOp::Nan:
      return setp_float<F, CmpOp::Nan, kFtz, kImm>;
    default:
      return nullptr;  // lo ls hi hs: execute() reports them
  }
}

// setp{.ftz}.{f32,f64} p, a, b with b a register or a float literal of the
// type's width (0f for .f32, 0d for .f64; an integer literal, converted by
// execute(), stays there).
PredecodedHandler setp_float_handler(const Instruction& in, const Operands& ops, P& p) {
  const Type t = in.type;
  const RegKind k = reg_kind(t);
  const Operand::Kind lit = t == Type::F32 ? Operand::Kind::ImmF32 : Operand::Kind::ImmF64;
  const bool imm = ops.count() == 4 && in.ops[3].kind == lit;
  if (!ops.reg(2, k, p.a) || (!imm && !ops.reg(3, k, p.b))) return nullptr;
  if (t == Type::F64) {
    p.imm = imm ? in.ops[3].imm : 0;
    return imm ? setp_float_for<double, false, true>(in.cmp)
               : setp_float_for<double, false, false>(in.cmp);
  }
  const u32 bits = imm ? static_cast<u32>(in.ops[3].imm) : 0;
  // .ftz flushes the literal as it does every operand.
  p.imm = in.ftz && (bits & 0x7fffffffu) < 0x00800000u ? bits & 0x80000000u : bits;
  if (in.ftz)
    return imm ? setp_float_for<float, true, true>(in.cmp)
               : setp_float_for<float, true, false>(in.cmp);
  return imm ? setp_float_for<float, false, true>(in.cmp)
             : setp_float_for<float, false, false>(in.cmp);
}

PredecodedHandler setp_handler(const Instruction& in, const Operands& ops, P& p) {
  const Type t = in.type;
  // setp p, a, b: no |q (operand 1 absent), no boolean combine.
  if (in.boolop != BoolOp::None || ops.count() != 4 || in.ops[1].kind != Operand::Kind::None ||
      !ops.dest(0, Type::Pred, p.d))
    return nullptr;
  if (t == Type::F32 || t == Type::F64) return setp_float_handler(in, ops, p);
  const unsigned n = int_bits(t);
  const RegKind k = reg_kind(t);
  bool imm = false;
  if (n == 0 || !ops.reg(2, k, p.a) || !ops.reg_or_imm(3, k, p.b, imm, p.imm)) return nullptr;
  return n == 32 ? setp_of<u32>(in.cmp, is_signed(t), imm)
                 : setp_of<u64>(in.cmp, is_signed(t), imm);
}

// cvta.to.<space> d, a is a - the space's window base, cvta.<space> d, a
// is a + base, both wrapping at the type's width (convert.cc).
PredecodedHandler window_convert(const Instruction& in, const Operands& ops, P& p) {
  const Type t = in.type;
  const unsigned n = int_bits(t);
  if (n == 0 || is_signed(t) || in.space == Space::Generic || ops.count() != 2 ||
      !ops.dest(0, t, p.d) || !ops.reg(1, reg_kind(t), p.a))
    return nullptr;
  p.imm = address_map::window_base(in.space);
  if (in.cvta_to) return n == 32 ? binary<u32, u32, true, Sub> : binary<u64, u64, true, Sub>;
  return n == 32 ? binary<u32, u32, true, Add> : binary<u64, u64, true, Add>;
}

PredecodedHandler move_or_convert(const Instruction& in, const Operands& ops, P& p) {
  const Type t = in.type;
  if (in.op == Opcode::Mov) {
    if (ops.count() != 2) return nullptr;
    if (t == Type::Pred)
      return ops.dest(0, t, p.d) && ops.reg(1, RegKind::Pred, p.a) ? pred_move : nullptr;
    // Any 32- or 64-bit type: mov copies the bits.
    const unsigned n = type_bits(t);
    if ((n != 32 && n != 64) || is_packed_half(t) || !ops.dest(0, t, p.d)) return nullptr;
    const Operand& src = in.ops[1];
    if (src.kind == Operand::Kind::Special && !src.negated && !is_float(t)) {
      p.sreg = src.sreg;
      p.comp = src.comp;
      return n == 32 ? move_special<u32> : move_special<u64>;
    }
    bool imm = false;
    if (is_float(t)) {
      if (!ops.reg(1, reg_kind(t), p.a)) return nullptr;  // float literals: execute()
    } else if (!ops.reg_or_imm(1, reg_kind(t), p.a, imm, p.imm)) {
      return nullptr;
    }
    if (n == 32) return imm ? move_imm<u32> : move<u32>;
    return imm ? move_imm<u64> : move<u64>;
  }
  // cvt between 32- and 64-bit integer types, without modifiers.
  const Type st = in.src_type;
  const unsigned nd = int_bits(t), ns = int_bits(st);
  if (in.op != Opcode::Cvt || nd == 0 || ns == 0 || in.sat || in.ftz || in.rnd != Rounding::None ||
      in.relu || in.satfinite || in.tf32 || ops.count() != 2 || !ops.dest(0, t, p.d) ||
      !ops.reg(1, reg_kind(st), p.a))
    return nullptr;
  const bool s = is_signed(st);
  if (nd == 32) {
    if (ns == 32) return s ? convert<u32, u32, true> : convert<u32, u32, false>;
    return s ? convert<u32, u64, true> : convert<u32, u64, false>;
  }
  if (ns == 32) return s ? convert<u64, u32, true> : convert<u64, u32, false>;
  return s ? convert<u64, u64, true> : convert<u64, u64, false>;
}

template <class R, template <class, class> class Form>
PredecodedHandler memory_of(bool variable, bool narrow_base, bool wrap32) {
  if (variable) return Form<R, VariableAddress>::handler;
  if (narrow_base)
    return wrap32 ? Form<R, RegisterAddress<u32, true>>::handler
                  : Form<R, RegisterAddress<u32, false>>::handler;
  return wrap32 ? Form<R, RegisterAddress<u64, true>>::handler
                : Form<R, RegisterAddress<u64, false>>::handler;
}
template <class R, class Address>
struct LoadForm {
  static constexpr PredecodedHandler handler = load<R, Address>;
};
template <class R, class Address>
struct StoreForm {
  static constexpr PredecodedHandler handler = store<R, Address>;
};

// ld d, [a + offset] and st [a + offset], b of a 32- or 64-bit type: a
// scalar data register declared with the type's width, and the address of a
// register or of a variable (kernel parameters: ld.param d, [param]) plus an
// offset. Vectors, narrower elements, wider or narrower data registers, `_`
// and literal sources go through execute().
PredecodedHandler memory_access(const Instruction& in, const Operands& ops, P& p) {
  const Type t = in.type;
  const unsigned n = type_bits(t);
  const bool load_op = in.op == Opcode::Ld;
  if ((n != 32 && n != 64) || t == Type::Pred || is_packed_half(t) || in.vec != 1 ||
      ops.count() != 2)
    return nullptr;
  const size_t at = load_op ? 1 : 0;
  uint32_t base = 0;
  bool narrow_base = false;
  const bool variable = ops.variable_address(at, p.var);
  if (!variable && !ops.reg_address(at, base, narrow_base)) return nullptr;
  const Operand& addr = in.ops[at];
  // The data register: ld's destination, st's source, filled exactly by t.
  uint32_t data = 0;
  if (!ops.dest(load_op ? 0 : 1, t, data)) return nullptr;
  p.a = base;
  p.imm = static_cast<uint64_t>(addr.offset);
  const bool wrap32 = addr.reg_type != Type::None && type_bits(addr.reg_type) <= 32;
  p.memory = true;
  p.space = in.space;
  p.inst = &in;
  if (load_op) {
    p.d = data;
    return n == 32 ? memory_of<u32, LoadForm>(variable, narrow_base, wrap32)
                   : memory_of<u64, LoadForm>(variable, narrow_base, wrap32);
  }
  p.b = data;
  return n == 32 ? memory_of<u32, StoreForm>(variable, narrow_base, wrap32)
                 : memory_of<u64, StoreForm>(variable, narrow_base, wrap32);
}

}  // namespace

PredecodedInstruction predecode(const Instruction& in, const RegSlot* slots) {
  P p;
  if (in.has_guard) {
    if (slots[in.guard_reg].kind != RegKind::Pred) return P{};
    p.has_guard = true;
    p.guard = slots[in.guard_reg].offset;
    p.guard_flip = in.guard_negated ? ~LaneMask(0) : 0;
  }
  const Operands ops(in, slots);
  switch (in.op) {
    case Opcode::Bra:
      if (in.ops.empty() || in.ops[0].kind != Operand::Kind::Label) return P{};
      p.branch = true;
      p.target = in.ops[0].target;
      return p;
    case Opcode::Add:
    case Opcode::Sub:
    case Opcode::Mul:
    case Opcode::Mad:
    case Opcode::Div:
    case Opcode::Rem:
    case Opcode::Min:
    case Opcode::Max:
      p.run = arith(in, ops, p);
      break;
    case Opcode::And:
    case Opcode::Or:
    case Opcode::Xor:
    case Opcode::Not:
    case Opcode::Shl:
    case Opcode::Shr:
    case Opcode::Bfe:
      p.run = bits(in, ops, p);
      break;
    case Opcode::Setp:
      p.run = setp_handler(in, ops, p);
      break;
    case Opcode::Selp:
      p.run = select_handler(in, ops, p);
      break;
    case Opcode::Mov:
    case Opcode::Cvt:
      p.run = move_or_convert(in, ops, p);
      break;
    case Opcode::Cvta:
      p.run = window_convert(in, ops, p);
      break;
    case Opcode::Ld:
    case Opcode::St:
      p.run = memory_access(in, ops, p);
      break;
    default:
      break;
  }
  return p.run ? p : P{};
}

}  // namespace warptlm
