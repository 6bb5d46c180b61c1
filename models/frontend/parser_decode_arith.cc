// Decoders for integer and floating-point arithmetic: add, sub, mul, mad,
// mul24, mad24, div, rem, abs, neg, min, max, fma, copysign, and the
// extended-precision forms with the carry flag: add.cc, addc, sub.cc, subc,
// mad.cc, madc.

#include "frontend/parser_decoder.h"

namespace warptlm::ptx {

namespace {

bool is_float_type(Type t) { return t == Type::F32 || t == Type::F64; }

// A modifier valid only on .f32 (.ftz, .sat, .NaN): taken and checked here.
bool take_f32_only(Decoder& d, const char* name, Type t) {
  const Modifier* m = d.mods.take_any({name});
  if (m == nullptr) return false;
  if (t != Type::F32)
    d.fail(m->loc, "'." + std::string(name) + "' on '" + d.name() + "' requires .f32");
  return true;
}

// The .rn/.rz/.rm/.rp, .ftz and .sat of float add/sub/mul/mad/fma.
void float_modifiers(Decoder& d, Type t, bool rounding_required) {
  d.inst.rnd = d.mods.take_rounding(false);
  if (rounding_required && d.inst.rnd == Rounding::None)
    d.fail("'" + d.name() + "." + type_name(t) +
           "' needs a rounding modifier (.rn, .rz, .rm, .rp)");
  d.inst.ftz = take_f32_only(d, "ftz", t);
  d.inst.sat = take_f32_only(d, "sat", t);
}

// The carry flag's types: PTX defines .cc, addc, subc and madc for 32- and
// 64-bit integers only.
constexpr TypeSet kCarryTypes = type_set({Type::U32, Type::S32, Type::U64, Type::S64});

// .cc (write the carry flag): taken and checked against the type; true if
// present. `carry_in` is set for addc/subc/madc, which read it.
bool take_carry_out(Decoder& d, Type t, bool carry_in) {
  const Modifier* m = d.mods.take_any({"cc"});
  if (m == nullptr && !carry_in) return false;
  if (!in_set(kCarryTypes, t)) {
    const std::string what = "'" + d.name() + (m ? ".cc" : "") +
                             "' (carry flag) takes .u32, .s32, .u64 or .s64, not ." + type_name(t);
    if (m) d.fail(m->loc, what);
    d.fail(what);
  }
  return m != nullptr;
}

// Operands of a carry instruction: d, CF-out, sources..., CF-in (ir.h).
void carry_ops(Decoder& d, Type t, size_t sources) {
  d.no_pipe();
  d.expect_count(sources + 1);
  d.inst.ops = {d.dst(0, t), d.inst.carry_out ? d.carry_flag() : Operand{}};
  for (size_t i = 1; i <= sources; ++i) d.inst.ops.push_back(d.src(i, t));
  d.inst.ops.push_back(d.inst.carry_in ? d.carry_flag() : Operand{});
}

// .lo/.hi/.wide; `wide_ok` false for mul24/mad24.
MulMode take_mul_mode(Decoder& d, Type t, bool wide_ok) {
  const Modifier* m = d.mods.take_any({"lo", "hi", "wide"});
  if (m == nullptr)
    d.fail("integer '" + d.name() + "' needs .lo, .hi" + (wide_ok ? " or .wide" : ""));
  if (m->name == "lo") return MulMode::Lo;
  if (m->name == "hi") return MulMode::Hi;
  if (!wide_ok) d.fail(m->loc, "'" + d.name() + "' has no .wide form");
  if (type_bits(t) == 64) d.fail(m->loc, "'" + d.name() + ".wide' takes a 16- or 32-bit type");
  return MulMode::Wide;
}

void binary_ops(Decoder& d, Type t) {
  d.no_pipe();
  d.expect_count(3);
  d.inst.ops = {d.dst(0, t), d.src(1, t), d.src(2, t)};
}

void ternary_ops(Decoder& d, Type t) {
  d.no_pipe();
  d.expect_count(4);
  d.inst.ops = {d.dst(0, t), d.src(1, t), d.src(2, t), d.src(3, t)};
}

void decode_add_sub(Decoder& d) {
  Type t = d.inst.type = d.one_type(kInt16to64 | kFloat | kHalf);
  if (is_half(t)) return decode_half_arith(d);
  if (!is_float_type(t) && (d.inst.carry_out = take_carry_out(d, t, false))) {
    return carry_ops(d, t, 2);
  }
  if (is_float_type(t)) {
    float_modifiers(d, t, false);
  } else if (const Modifier* m = d.mods.take_any({"sat"})) {
    if (t != Type::S32) d.fail(m->loc, "'" + d.name() + ".sat' requires .s32");
    d.inst.sat = true;
  }
  binary_ops(d, t);
}

void decode_add(Decoder& d) {
  d.inst.op = Opcode::Add;
  decode_add_sub(d);
}

void decode_sub(Decoder& d) {
  d.inst.op = Opcode::Sub;
  decode_add_sub(d);
}

void decode_mul(Decoder& d) {
  d.inst.op = Opcode::Mul;
  Type t = d.inst.type = d.one_type(kInt16to64 | kFloat | kHalf);
  if (is_half(t)) return decode_half_arith(d);
  if (is_float_type(t))
    float_modifiers(d, t, false);
  else
    d.inst.mul = take_mul_mode(d, t, true);
  binary_ops(d, t);
}

void decode_mad(Decoder& d) {
  d.inst.op = Opcode::Mad;
  Type t = d.inst.type = d.one_type(kInt16to64 | kFloat);
  if (is_float_type(t)) {
    float_modifiers(d, t, true);
  } else {
    d.inst.mul = take_mul_mode(d, t, true);
    if ((d.inst.carry_out = take_carry_out(d, t, false))) {
      if (d.inst.mul == MulMode::Wide) d.fail("'mad.wide' has no .cc form");
      return carry_ops(d, t, 3);
    }
    if (const Modifier* m = d.mods.take_any({"sat"})) {
      if (t != Type::S32 || d.inst.mul != MulMode::Hi)
        d.fail(m->loc, "'mad.sat' requires .hi and .s32");
      d.inst.sat = true;
    }
  }
  ternary_ops(d, t);
}

// addc / subc {.cc}: a + b + CF, a - (b + CF).
void decode_add_sub_carry(Decoder& d) {
  Type t = d.inst.type = d.one_type(kInt16to64 | kFloat);
  d.inst.carry_in = true;
  d.inst.carry_out = take_carry_out(d, t, true);
  carry_ops(d, t, 2);
}

void decode_addc(Decoder& d) {
  d.inst.op = Opcode::Add;
  decode_add_sub_carry(d);
}

void decode_subc(Decoder& d) {
  d.inst.op = Opcode::Sub;
  decode_add_sub_carry(d);
}

// madc.hi/.lo {.cc}: (a * b).hi/lo + c + CF.
void decode_madc(Decoder& d) {
  d.inst.op = Opcode::Mad;
  Type t = d.inst.type = d.one_type(kInt16to64 | kFloat);
  d.inst.carry_in = true;
  if (const Modifier* m = d.mods.take_any({"hi", "lo"})) {
    d.inst.mul = m->name == "hi" ? MulMode::Hi : MulMode::Lo;
  } else {
    d.fail("'madc' needs .hi or .lo");
  }
  d.inst.carry_out = take_carry_out(d, t, true);
  carry_ops(d, t, 3);
}

void decode_mul24(Decoder& d) {
  d.inst.op = Opcode::Mul24;
  Type t = d.inst.type = d.one_type(type_set({Type::U32, Type::S32}));
  d.inst.mul = take_mul_mode(d, t, false);
  binary_ops(d, t);
}

void decode_mad24(Decoder& d) {
  d.inst.op = Opcode::Mad24;
  Type t = d.inst.type = d.one_type(type_set({Type::U32, Type::S32}));
  d.inst.mul = take_mul_mode(d, t, false);
  if (const Modifier* m = d.mods.take_any({"sat"})) {
    if (t != Type::S32 || d.inst.mul != MulMode::Hi)
      d.fail(m->loc, "'mad24.sat' requires .hi and .s32");
    d.inst.sat = true;
  }
  ternary_ops(d, t);
}

void decode_div(Decoder& d) {
  d.inst.op = Opcode::Div;
  Type t = d.inst.type = d.one_type(kInt16to64 | kFloat);
  if (t == Type::F32) {
    d.inst.approx = d.mods.take("approx");
    d.inst.full = d.mods.take("full");
    d.inst.rnd = d.mods.take_rounding(false);
    int chosen = int(d.inst.approx) + int(d.inst.full) + int(d.inst.rnd != Rounding::None);
    if (chosen != 1) d.fail("'div.f32' needs exactly one of .approx, .full or a rounding modifier");
    d.inst.ftz = d.mods.take("ftz");
  } else if (t == Type::F64) {
    d.inst.rnd = d.mods.take_rounding(false);
    if (d.inst.rnd == Rounding::None)
      d.fail("'div.f64' needs a rounding modifier (.rn, .rz, .rm, .rp)");
  }
  binary_ops(d, t);
}

void decode_rem(Decoder& d) {
  d.inst.op = Opcode::Rem;
  binary_ops(d, d.inst.type = d.one_type(kInt16to64));
}

void decode_abs_neg(Decoder& d) {
  Type t = d.inst.type = d.one_type(kSigned16to64 | kFloat | kHalf);
  if (is_half(t)) return decode_half_arith(d);
  if (is_float_type(t)) d.inst.ftz = take_f32_only(d, "ftz", t);
  d.no_pipe();
  d.expect_count(2);
  d.inst.ops = {d.dst(0, t), d.src(1, t)};
}

void decode_abs(Decoder& d) {
  d.inst.op = Opcode::Abs;
  decode_abs_neg(d);
}

void decode_neg(Decoder& d) {
  d.inst.op = Opcode::Neg;
  decode_abs_neg(d);
}

void decode_min_max(Decoder& d) {
  Type t = d.inst.type = d.one_type(kInt16to64 | kFloat | kHalf);
  if (is_half(t)) return decode_half_arith(d);
  if (is_float_type(t)) {
    d.inst.ftz = take_f32_only(d, "ftz", t);
    d.inst.nan = take_f32_only(d, "NaN", t);
  }
  binary_ops(d, t);
}

void decode_min(Decoder& d) {
  d.inst.op = Opcode::Min;
  decode_min_max(d);
}

void decode_max(Decoder& d) {
  d.inst.op = Opcode::Max;
  decode_min_max(d);
}

void decode_fma(Decoder& d) {
  d.inst.op = Opcode::Fma;
  Type t = d.inst.type = d.one_type(kFloat | kHalf);
  if (is_half(t)) return decode_half_arith(d);
  float_modifiers(d, t, true);
  ternary_ops(d, t);
}

void decode_copysign(Decoder& d) {
  d.inst.op = Opcode::Copysign;
  binary_ops(d, d.inst.type = d.one_type(kFloat));
}

}  // namespace

DecodeFn find_arith_decoder(const std::string& name) {
  static const struct {
    const char* name;
    DecodeFn fn;
  } kTable[] = {{"add", decode_add},   {"sub", decode_sub},           {"mul", decode_mul},
                {"mad", decode_mad},   {"mul24", decode_mul24},       {"mad24", decode_mad24},
                {"div", decode_div},   {"rem", decode_rem},           {"abs", decode_abs},
                {"neg", decode_neg},   {"min", decode_min},           {"max", decode_max},
                {"fma", decode_fma},   {"copysign", decode_copysign}, {"addc", decode_addc},
                {"subc", decode_subc}, {"madc", decode_madc}};
  for (const auto& e : kTable)
    if (name == e.name) return e.fn;
  return nullptr;
}

}  // namespace warptlm::ptx
