// The half-precision arithmetic forms: add, sub, mul, fma, abs, neg, min,
// max, ex2 and tanh on .f16, .bf16, .f16x2 and .bf16x2 (PTX ISA,
// "Half Precision Floating-Point Instructions"; docs/half-precision.md).
// Each form's modifiers are the ISA's: .rn is the only rounding, .ftz and
// .sat exist for the .f16 types only, .relu for fma, .NaN and .xorsign.abs
// for min/max.
#include "frontend/parser_decoder.h"

namespace warptlm::ptx {

namespace {

bool is_f16_kind(Type t) { return t == Type::F16 || t == Type::F16x2; }

// A modifier the .f16 forms take and the .bf16 forms do not.
bool take_f16_only(Decoder& d, const char* name) {
  const Modifier* m = d.mods.take_any({name});
  if (m == nullptr) return false;
  if (!is_f16_kind(d.inst.type))
    d.fail(m->loc, "'." + std::string(name) + "' on '" + d.name() + "." + type_name(d.inst.type) +
                       "' is not defined (the .bf16 forms have no ." + name + ")");
  return true;
}

// .rn or no rounding: the half forms round to nearest even only.
void take_rn(Decoder& d, bool required) {
  SourceLoc at;
  const Rounding r = d.mods.take_rounding(false, &at);
  if (r != Rounding::None && r != Rounding::Rn)
    d.fail(at, "'" + d.name() + "." + type_name(d.inst.type) + "' rounds only with .rn");
  if (required && r == Rounding::None)
    d.fail("'" + d.name() + "." + type_name(d.inst.type) + "' needs .rn");
  d.inst.rnd = Rounding::Rn;
}

void take_approx(Decoder& d) {
  if (!d.mods.take("approx"))
    d.fail("'" + d.name() + "." + type_name(d.inst.type) + "' needs .approx");
}

// Registers only: PTX has no half-precision literal (a constant is moved in
// with mov.b16 / mov.b32 from its bits).
void half_operands(Decoder& d, size_t sources) {
  const Type t = d.inst.type;
  d.no_pipe();
  d.expect_count(sources + 1);
  d.inst.ops = {d.dst(0, t)};
  for (size_t i = 1; i <= sources; ++i) {
    const RawOperand& r = d.raw(i);
    if (r.op.kind == Operand::Kind::Imm || r.op.kind == Operand::Kind::ImmF32 ||
        r.op.kind == Operand::Kind::ImmF64)
      d.fail(r.loc, "operand " + std::to_string(i + 1) + " of '" + d.name() + "." + type_name(t) +
                        "' must be a register: PTX has no half-precision literal (move the "
                        "bits in with mov.b16 or mov.b32)");
    d.inst.ops.push_back(d.src(i, t, 0));
  }
}

}  // namespace

void decode_half_arith(Decoder& d) {
  const Type t = d.inst.type;
  switch (d.inst.op) {
    case Opcode::Add:
    case Opcode::Sub:
    case Opcode::Mul:
      take_rn(d, false);
      d.inst.ftz = take_f16_only(d, "ftz");
      d.inst.sat = take_f16_only(d, "sat");
      return half_operands(d, 2);
    case Opcode::Fma:
      take_rn(d, true);
      if (const Modifier* m = d.mods.take_any({"oob"}))
        d.fail(m->loc, "'fma.oob' (sm_90) is not supported");
      d.inst.ftz = take_f16_only(d, "ftz");
      d.inst.sat = take_f16_only(d, "sat");
      if (const Modifier* m = d.mods.take_any({"relu"})) {
        if (d.inst.sat) d.fail(m->loc, "'fma' takes .sat or .relu, not both");
        d.inst.relu = true;
      }
      return half_operands(d, 3);
    case Opcode::Abs:
    case Opcode::Neg:
      d.inst.ftz = take_f16_only(d, "ftz");
      return half_operands(d, 1);
    case Opcode::Min:
    case Opcode::Max: {
      d.inst.ftz = take_f16_only(d, "ftz");
      d.inst.nan = d.mods.take("NaN");
      const Modifier* x = d.mods.take_any({"xorsign"});
      const Modifier* a = d.mods.take_any({"abs"});
      if ((x == nullptr) != (a == nullptr))
        d.fail((x ? x : a)->loc, "'" + d.name() + "' takes .xorsign and .abs together");
      d.inst.xorsign_abs = x != nullptr;
      return half_operands(d, 2);
    }
    case Opcode::Ex2:
      // ex2.approx.{f16,f16x2} and ex2.approx.ftz.{bf16,bf16x2}.
      take_approx(d);
      d.inst.approx = true;
      if (const Modifier* m = d.mods.take_any({"ftz"})) {
        if (is_f16_kind(t))
          d.fail(m->loc, "'ex2.approx." + std::string(type_name(t)) + "' has no .ftz");
        d.inst.ftz = true;
      } else if (!is_f16_kind(t)) {
        d.fail("'ex2.approx." + std::string(type_name(t)) + "' needs .ftz");
      }
      return half_operands(d, 1);
    case Opcode::Tanh:
      take_approx(d);
      d.inst.approx = true;
      return half_operands(d, 1);
    default:
      d.fail("'" + d.name() + "' has no ." + type_name(t) + " form");
  }
}

}  // namespace warptlm::ptx
