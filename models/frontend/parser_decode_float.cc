// Decoders for floating-point functions and classification: rcp, sqrt,
// rsqrt, ex2, lg2, sin, cos, tanh, testp.
#include "frontend/parser_decoder.h"

namespace warptlm::ptx {

namespace {

void unary(Decoder& d, Type t) {
  d.no_pipe();
  d.expect_count(2);
  d.inst.ops = {d.dst(0, t), d.src(1, t)};
}

// rcp and sqrt: .f32 takes .approx or an IEEE rounding, .f64 an IEEE
// rounding (rcp.approx.ftz.f64 is the one approximate .f64 form).
void decode_rounded_or_approx(Decoder& d) {
  Type t = d.inst.type = d.one_type(kFloat);
  d.inst.approx = d.mods.take("approx");
  d.inst.rnd = d.mods.take_rounding(false);
  d.inst.ftz = d.mods.take("ftz");
  bool approx_f64_ok = d.inst.op == Opcode::Rcp && d.inst.ftz;
  if (d.inst.approx && d.inst.rnd != Rounding::None)
    d.fail("'" + d.name() + "' takes either .approx or a rounding modifier, not both");
  if (!d.inst.approx && d.inst.rnd == Rounding::None)
    d.fail("'" + d.name() + "." + type_name(t) + "' needs .approx or a rounding modifier");
  if (t == Type::F64 && d.inst.approx && !approx_f64_ok)
    d.fail("'" + d.name() + ".approx.f64' is only available as rcp.approx.ftz.f64");
  if (t == Type::F64 && d.inst.ftz && !d.inst.approx)
    d.fail("'.ftz' on '" + d.name() + "' requires .f32");
  unary(d, t);
}

void decode_rcp(Decoder& d) {
  d.inst.op = Opcode::Rcp;
  decode_rounded_or_approx(d);
}

void decode_sqrt(Decoder& d) {
  d.inst.op = Opcode::Sqrt;
  decode_rounded_or_approx(d);
}

void decode_rsqrt(Decoder& d) {
  d.inst.op = Opcode::Rsqrt;
  Type t = d.inst.type = d.one_type(kFloat);
  d.inst.approx = d.mods.take("approx");
  if (!d.inst.approx) d.fail("'rsqrt' needs .approx");
  d.inst.ftz = d.mods.take("ftz");
  unary(d, t);
}

// ex2, lg2, sin, cos: .approx{.ftz}.f32 only.
void decode_approx_f32(Decoder& d) {
  Type t = d.inst.type = d.one_type(type_set({Type::F32}));
  d.inst.approx = d.mods.take("approx");
  if (!d.inst.approx) d.fail("'" + d.name() + "' needs .approx");
  d.inst.ftz = d.mods.take("ftz");
  unary(d, t);
}

// ex2.approx{.ftz}.f32 and tanh.approx.f32 (sm_75, no .ftz), or their
// half-precision forms.
void decode_approx_or_half(Decoder& d, bool ftz_ok) {
  d.inst.type = d.one_type(type_set({Type::F32}) | kHalf);
  if (is_half(d.inst.type)) return decode_half_arith(d);
  d.inst.approx = d.mods.take("approx");
  if (!d.inst.approx) d.fail("'" + d.name() + "' needs .approx");
  if (ftz_ok) d.inst.ftz = d.mods.take("ftz");
  unary(d, d.inst.type);
}

void decode_ex2(Decoder& d) {
  d.inst.op = Opcode::Ex2;
  decode_approx_or_half(d, true);
}

void decode_tanh(Decoder& d) {
  d.inst.op = Opcode::Tanh;
  decode_approx_or_half(d, false);
}

void decode_lg2(Decoder& d) {
  d.inst.op = Opcode::Lg2;
  decode_approx_f32(d);
}

void decode_sin(Decoder& d) {
  d.inst.op = Opcode::Sin;
  decode_approx_f32(d);
}

void decode_cos(Decoder& d) {
  d.inst.op = Opcode::Cos;
  decode_approx_f32(d);
}

void decode_testp(Decoder& d) {
  d.inst.op = Opcode::Testp;
  Type t = d.inst.type = d.one_type(kFloat);
  static const struct {
    const char* name;
    TestpOp op;
  } kOps[] = {{"finite", TestpOp::Finite}, {"infinite", TestpOp::Infinite},
              {"number", TestpOp::Number}, {"notanumber", TestpOp::NotANumber},
              {"normal", TestpOp::Normal}, {"subnormal", TestpOp::Subnormal}};
  const Modifier* m =
      d.mods.take_any({"finite", "infinite", "number", "notanumber", "normal", "subnormal"});
  if (m == nullptr)
    d.fail(
        "'testp' needs a test (.finite, .infinite, .number, .notanumber, .normal, "
        ".subnormal)");
  for (const auto& k : kOps)
    if (m->name == k.name) d.inst.testp = k.op;
  d.no_pipe();
  d.expect_count(2);
  d.inst.ops = {d.dst(0, Type::Pred), d.src(1, t)};
}

}  // namespace

DecodeFn find_float_decoder(const std::string& name) {
  static const struct {
    const char* name;
    DecodeFn fn;
  } kTable[] = {{"rcp", decode_rcp}, {"sqrt", decode_sqrt},   {"rsqrt", decode_rsqrt},
                {"ex2", decode_ex2}, {"lg2", decode_lg2},     {"sin", decode_sin},
                {"cos", decode_cos}, {"testp", decode_testp}, {"tanh", decode_tanh}};
  for (const auto& e : kTable)
    if (name == e.name) return e.fn;
  return nullptr;
}

}  // namespace warptlm::ptx
