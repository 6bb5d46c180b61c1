#include "semantics/operands.h"

#include <sstream>

#include "semantics/float16.h"
#include "semantics/float_util.h"

namespace warptlm::sem {

Type bits_type(unsigned bits) {
  switch (bits) {
    case 8:
      return Type::B8;
    case 16:
      return Type::B16;
    case 32:
      return Type::B32;
    case 64:
      return Type::B64;
    default:
      return Type::None;
  }
}

Type wide_type(Type t) {
  switch (t) {
    case Type::U16:
      return Type::U32;
    case Type::U32:
      return Type::U64;
    case Type::S16:
      return Type::S32;
    case Type::S32:
      return Type::S64;
    case Type::B16:
      return Type::B32;
    case Type::B32:
      return Type::B64;
    default:
      return Type::None;
  }
}

namespace {

// A floating-point literal's value as the IEEE encoding of the given width
// (16, 32 or 64 bits; 16 is .bf16's for t == .bf16 and .f16's otherwise),
// rounding to nearest when the literal is wider.
uint64_t float_encoding(double v, unsigned bits, Type t) {
  switch (bits) {
    case 16:
      return half_from_double(t == Type::BF16 ? HalfFormat::BF16 : HalfFormat::F16, v,
                              Rounding::Rn);
    case 32:
      return to_bits(static_cast<float>(v));
    default:
      return to_bits(v);
  }
}

// An immediate converted to operand type t. PTX: floating-point literals
// take the instruction's float type (rounded to nearest); an integer literal
// used as a float operand stands for that integer's value converted to the
// float type (PTX's constant-expression rules convert an integer constant in
// a floating-point context). In an integer or bit-typed instruction a
// float literal stands for its IEEE encoding at the instruction's width, so
// mov.b32 r, 0f3F800000 moves the bits of 1.0f; a literal whose exact bits
// match the width (0f for 32, 0d for 64) keeps its bits, NaN payloads too.
uint64_t immediate(const Exec& x, const Operand& op, Type t) {
  const unsigned bits = type_bits(t);
  if (t == Type::Pred) {
    if (op.kind != Operand::Kind::Imm) x.unsupported("float literal as a predicate");
    return op.imm != 0;
  }
  if (op.kind == Operand::Kind::Imm) {
    if (!is_float(t)) return extend(op.imm, t);
    return float_encoding(static_cast<double>(static_cast<int64_t>(op.imm)), bits, t);
  }
  if (bits != 16 && bits != 32 && bits != 64)
    x.unsupported("float literal for a " + std::to_string(bits) + "-bit operand");
  if (op.kind == Operand::Kind::ImmF32) {
    if (bits == 32) return op.imm & 0xffffffffull;
    return float_encoding(from_bits<float>(op.imm), bits, t);
  }
  if (bits == 64) return op.imm;
  return float_encoding(from_bits<double>(op.imm), bits, t);
}

}  // namespace

void Source::decode(const Exec& x, const Operand& op, Type t) {
  if (t == Type::None) x.unsupported("instruction has no operand type");
  ext_ = Extender(type_bits(t), is_signed(t));
  if (op.negated) {
    if (t != Type::Pred) x.unsupported("`!` on a non-predicate operand");
    flip_ = 1;
  }
  switch (op.kind) {
    case Operand::Kind::Reg:
      set_reg(x.regs, op.reg);
      break;
    case Operand::Kind::Imm:
    case Operand::Kind::ImmF32:
    case Operand::Kind::ImmF64:
      kind_ = Kind::Const;
      value_ = immediate(x, op, t) ^ flip_;
      break;
    case Operand::Kind::Special:
      kind_ = Kind::Special;
      env_ = &x.env;
      sreg_ = op.sreg;
      comp_ = op.comp;
      break;
    case Operand::Kind::Symbol:
      kind_ = Kind::Symbol;
      env_ = &x.env;
      symbol_ = op.symbol;
      offset_ = op.offset;
      break;
    default:
      x.unsupported("this operand kind cannot be a source here");
  }
}

uint64_t Source::fetch(unsigned lane) const {
  if (kind_ == Kind::Special) return env_->special(sreg_, comp_, lane);
  return env_->symbol_address(symbol_) + static_cast<uint64_t>(offset_);
}

void Source::gather_fetched(LaneMask m, uint64_t* out) const {
  if (kind_ == Kind::Symbol) {  // the same for every lane: asked once
    if (!m) return;
    const uint64_t v = ext_(fetch(0)) ^ flip_;
    for_lanes(m, [&](unsigned lane) { out[lane] = v; });
    return;
  }
  env_->special_lanes(sreg_, comp_, m, out);
  for_lanes(m, [&](unsigned lane) { out[lane] = ext_(out[lane]) ^ flip_; });
}

void Dest::invalid(const Exec& x, const Operand& op) {
  if (op.kind != Operand::Kind::Reg) x.unsupported("destination is not a register");
  x.unsupported("instruction has no operand type");
}

void Exec::missing_operand(size_t i) const {
  unsupported("expected at least " + std::to_string(i + 1) + " operands, got " +
              std::to_string(inst.ops.size()));
}

void Exec::unsupported(const std::string& why) const {
  std::ostringstream s;
  s << "unsupported instruction " << opcode_name(inst.op);
  if (inst.type != Type::None) s << '.' << type_name(inst.type);
  if (inst.src_type != Type::None) s << '.' << type_name(inst.src_type);
  s << " '" << inst.text << "'";
  if (inst.loc.line) s << " at line " << inst.loc.line;
  s << ": " << why;
  throw UnsupportedInstruction(s.str());
}

}  // namespace warptlm::sem
