// Decoders for moves, conversions, comparisons and selects: mov, cvt, cvta,
// setp, set, selp, slct.
#include "frontend/parser_decoder.h"

namespace warptlm::ptx {

namespace {

constexpr TypeSet kCvtTypes =
    type_set({Type::U8, Type::U16, Type::U32, Type::U64, Type::S8, Type::S16, Type::S32, Type::S64,
              Type::F16, Type::BF16, Type::F32, Type::F64});
constexpr TypeSet kSelectTypes = kBits16to64 | kInt16to64 | kFloat;
constexpr TypeSet kCompareTypes = kBits16to64 | kInt16to64 | kFloat | kHalf;

bool is_float_type(Type t) { return is_float(t); }

// The comparison of setp/set, checked against the operand type.
void take_compare(Decoder& d, Type t) {
  static const struct {
    const char* name;
    CmpOp op;
    unsigned classes;  // 1 bits, 2 unsigned, 4 signed, 8 float
  } kCmps[] = {{"eq", CmpOp::Eq, 15},  {"ne", CmpOp::Ne, 15},  {"lt", CmpOp::Lt, 14},
               {"le", CmpOp::Le, 14},  {"gt", CmpOp::Gt, 14},  {"ge", CmpOp::Ge, 14},
               {"lo", CmpOp::Lo, 2},   {"ls", CmpOp::Ls, 2},   {"hi", CmpOp::Hi, 2},
               {"hs", CmpOp::Hs, 2},   {"equ", CmpOp::Equ, 8}, {"neu", CmpOp::Neu, 8},
               {"ltu", CmpOp::Ltu, 8}, {"leu", CmpOp::Leu, 8}, {"gtu", CmpOp::Gtu, 8},
               {"geu", CmpOp::Geu, 8}, {"num", CmpOp::Num, 8}, {"nan", CmpOp::Nan, 8}};
  const Modifier* m = d.mods.take_any({"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
                                       "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"});
  if (m == nullptr) d.fail("'" + d.name() + "' needs a comparison such as .eq or .lt");
  unsigned cls = is_bits(t) ? 1 : (is_float(t) || is_half(t)) ? 8 : is_signed(t) ? 4 : 2;
  for (const auto& k : kCmps) {
    if (m->name != k.name) continue;
    if (!(k.classes & cls))
      d.fail(m->loc, "comparison '." + m->name + "' is not valid for ." + type_name(t));
    d.inst.cmp = k.op;
  }
  if (const Modifier* b = d.mods.take_any({"and", "or", "xor"}))
    d.inst.boolop = b->name == "and" ? BoolOp::And : b->name == "or" ? BoolOp::Or : BoolOp::Xor;
  if (const Modifier* f = d.mods.take_any({"ftz"})) {
    if (t != Type::F32 && t != Type::F16 && t != Type::F16x2)
      d.fail(f->loc, "'.ftz' on '" + d.name() + "' requires .f32, .f16 or .f16x2");
    d.inst.ftz = true;
  }
}

void decode_setp(Decoder& d) {
  d.inst.op = Opcode::Setp;
  Type t = d.inst.type = d.one_type(kCompareTypes);
  take_compare(d, t);
  // The packed forms compare both halves: p|q is required.
  if (is_packed_half(t) && !d.has_pipe())
    d.fail("'setp." + std::string(type_name(t)) + "' writes two predicates (p|q), one per half");
  size_t dsts = d.has_pipe() ? 2 : 1;
  size_t srcs = d.inst.boolop == BoolOp::None ? 2 : 3;
  d.expect_count(dsts + srcs);
  Operand q;  // Kind::None without `|q`
  if (d.has_pipe()) q = d.dst(1, Type::Pred);
  d.inst.ops = {d.dst(0, Type::Pred), q, d.src(dsts, t), d.src(dsts + 1, t)};
  if (srcs == 3) d.inst.ops.push_back(d.src(dsts + 2, Type::Pred, kAllowImm | kAllowNegate));
}

void decode_set(Decoder& d) {
  d.inst.op = Opcode::Set;
  Type dt, st;
  d.two_types(type_set({Type::U16, Type::S16, Type::U32, Type::S32, Type::F32}) | kHalf,
              kCompareTypes, &dt, &st);
  d.inst.type = dt;
  d.inst.src_type = st;
  // PTX's destinations per source: a packed pair gives a pair (or .u32/.s32
  // with a 0xffff per half); .f16/.bf16 results take any source; .u16/.s16
  // results need a .f16/.bf16 source.
  const std::string pair = std::string(".") + type_name(dt) + "." + type_name(st);
  if (is_packed_half(st)
          ? !(dt == st || dt == Type::U32 || dt == Type::S32)
          : (is_packed_half(dt) || ((dt == Type::U16 || dt == Type::S16) && !is_half(st))))
    d.fail("'set" + pair + "' is not a form of set");
  take_compare(d, st);
  d.no_pipe();
  size_t n = d.inst.boolop == BoolOp::None ? 3 : 4;
  d.expect_count(n);
  d.inst.ops = {d.dst(0, dt), d.src(1, st), d.src(2, st)};
  if (n == 4) d.inst.ops.push_back(d.src(3, Type::Pred, kAllowImm | kAllowNegate));
}

void decode_selp(Decoder& d) {
  d.inst.op = Opcode::Selp;
  Type t = d.inst.type = d.one_type(kSelectTypes);
  d.no_pipe();
  d.expect_count(4);
  d.inst.ops = {d.dst(0, t), d.src(1, t), d.src(2, t), d.src(3, Type::Pred)};
}

void decode_slct(Decoder& d) {
  d.inst.op = Opcode::Slct;
  Type dt, st;
  d.two_types(kSelectTypes, type_set({Type::S32, Type::F32}), &dt, &st);
  d.inst.type = dt;
  d.inst.src_type = st;
  if (const Modifier* f = d.mods.take_any({"ftz"})) {
    if (st != Type::F32) d.fail(f->loc, "'slct.ftz' requires a .f32 selector");
    d.inst.ftz = true;
  }
  d.no_pipe();
  d.expect_count(4);
  d.inst.ops = {d.dst(0, dt), d.src(1, dt), d.src(2, dt), d.src(3, st)};
}

// cvt.frnd2{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b: two f32 values
// rounded (.rn or .rz) into one packed pair, a into the upper half.
void decode_cvt_packed(Decoder& d, Type dt, Type st) {
  const std::string pair = std::string(".") + type_name(dt) + "." + type_name(st);
  if (st != Type::F32) d.fail("'cvt" + pair + "' is not a conversion (a pair is made from .f32)");
  SourceLoc rloc;
  const Rounding r = d.inst.rnd = d.mods.take_rounding(false, &rloc);
  if (r == Rounding::None) d.fail("'cvt" + pair + "' needs .rn or .rz");
  if (r != Rounding::Rn && r != Rounding::Rz)
    d.fail(rloc, "'cvt" + pair + "' rounds with .rn or .rz only");
  d.inst.relu = d.mods.take("relu");
  d.inst.satfinite = d.mods.take("satfinite");
  d.no_pipe();
  d.expect_count(3);
  d.inst.ops = {d.dst(0, dt), d.src(1, st, kAllowImm), d.src(2, st, kAllowImm)};
}

// cvt.rna{.satfinite}.tf32.f32 d, a (sm_80) and cvt.{rn,rz}{.relu}{.satfinite}
// .tf32.f32 d, a (sm_90): an f32 rounded to tf32's 10 fraction bits, in a .b32
// register as the f32 with those bits (the tensor cores' input format).
void decode_cvt_tf32(Decoder& d, SourceLoc tf32_at) {
  d.inst.type = Type::B32;
  d.inst.tf32 = true;
  auto types = d.mods.types();
  const bool before =
      !types.empty() && (types[0]->loc.line < tf32_at.line ||
                         (types[0]->loc.line == tf32_at.line && types[0]->loc.col < tf32_at.col));
  if (types.size() != 1 || type_from_name(types[0]->name) != Type::F32 || before)
    d.fail(tf32_at, "'cvt' makes a .tf32 from an .f32 only: cvt.rna.tf32.f32 d, a");
  types[0]->used = true;
  d.inst.src_type = Type::F32;
  if (d.mods.take("rna")) {
    d.inst.rnd = Rounding::Rna;
  } else {
    SourceLoc rloc;
    d.inst.rnd = d.mods.take_rounding(false, &rloc);
    if (d.inst.rnd == Rounding::None) d.fail("'cvt.tf32.f32' needs a rounding: .rna, .rn or .rz");
    if (d.inst.rnd != Rounding::Rn && d.inst.rnd != Rounding::Rz)
      d.fail(rloc, "'cvt.tf32.f32' rounds with .rna, .rn or .rz only");
  }
  const Modifier* relu = d.mods.take_any({"relu"});
  if (relu != nullptr && d.inst.rnd == Rounding::Rna)
    d.fail(relu->loc, "'cvt.rna.tf32.f32' takes no .relu (.rn and .rz do)");
  d.inst.relu = relu != nullptr;
  d.inst.satfinite = d.mods.take("satfinite");
  d.no_pipe();
  d.expect_count(2);
  d.inst.ops = {d.dst(0, Type::B32), d.src(1, Type::F32, kAllowImm)};
}

void decode_cvt(Decoder& d) {
  d.inst.op = Opcode::Cvt;
  if (const Modifier* tf32 = d.mods.take_any({"tf32"})) return decode_cvt_tf32(d, tf32->loc);
  Type dt, st;
  d.two_types(kCvtTypes | type_set({Type::F16x2, Type::BF16x2}), kCvtTypes, &dt, &st);
  d.inst.type = dt;
  d.inst.src_type = st;
  if (is_packed_half(dt)) return decode_cvt_packed(d, dt, st);
  SourceLoc rloc;
  Rounding r = d.inst.rnd = d.mods.take_rounding(true, &rloc);
  bool integer_rounding =
      r == Rounding::Rni || r == Rounding::Rzi || r == Rounding::Rmi || r == Rounding::Rpi;
  bool fd = is_float_type(dt), fs = is_float_type(st);
  std::string pair = std::string(".") + type_name(dt) + "." + type_name(st);
  // PTX's rules: float->int needs an integer rounding, int->float and
  // narrowing float->float an IEEE rounding (so does .f16 <-> .bf16, which
  // loses range one way and precision the other), float->float of one type
  // may round to an integral value, widening and int->int take none.
  if (fs && !fd) {
    if (!integer_rounding)
      d.fail("'cvt" + pair + "' needs an integer rounding (.rni, .rzi, .rmi, .rpi)");
  } else if (!fs && fd) {
    if (r == Rounding::None || integer_rounding)
      d.fail("'cvt" + pair + "' needs a rounding modifier (.rn, .rz, .rm, .rp)");
  } else if (fs && fd) {
    unsigned db = type_bits(dt), sb = type_bits(st);
    const bool narrowing = db < sb || (db == sb && dt != st);
    if (narrowing && (r == Rounding::None || integer_rounding))
      d.fail("'cvt" + pair + "' needs a rounding modifier (.rn, .rz, .rm, .rp)");
    if (db > sb && r != Rounding::None)
      d.fail(rloc, "'cvt" + pair + "' is exact and takes no rounding modifier");
    if (dt == st && r != Rounding::None && !integer_rounding)
      d.fail(rloc, "'cvt" + pair + "' only takes an integer rounding (.rni, .rzi, .rmi, .rpi)");
  } else if (r != Rounding::None) {
    d.fail(rloc, "integer 'cvt" + pair + "' takes no rounding modifier");
  }
  if (const Modifier* f = d.mods.take_any({"ftz"})) {
    if (dt != Type::F32 && st != Type::F32)
      d.fail(f->loc, "'.ftz' on 'cvt' requires a .f32 source or destination");
    d.inst.ftz = true;
  }
  d.inst.sat = d.mods.take("sat");
  // .relu and .satfinite: f32 to a 16-bit float only (PTX ISA, cvt).
  for (const char* name : {"relu", "satfinite"}) {
    const Modifier* m = d.mods.take_any({name});
    if (m == nullptr) continue;
    if (st != Type::F32 || (dt != Type::F16 && dt != Type::BF16))
      d.fail(m->loc, "'cvt." + std::string(name) + "' converts .f32 to .f16 or .bf16 only");
    (name[0] == 'r' ? d.inst.relu : d.inst.satfinite) = true;
  }
  d.no_pipe();
  d.expect_count(2);
  d.inst.ops = {d.dst(0, dt), d.src(1, st, kAllowImm | kAllowSpecial)};
}

void decode_cvta(Decoder& d) {
  d.inst.op = Opcode::Cvta;
  d.inst.cvta_to = d.mods.take("to");
  SourceLoc sloc;
  d.inst.space = d.mods.take_space(&sloc);
  if (d.inst.space == Space::Generic)
    d.fail("'cvta' needs a state space (.global, .shared, .local, .const or .param)");
  Type t = d.inst.type = d.one_type(type_set({Type::U32, Type::U64}));
  d.no_pipe();
  d.expect_count(2);
  d.inst.ops = {d.dst(0, t), d.src(1, t, kAllowSymbol)};
}

void decode_mov(Decoder& d) {
  d.inst.op = Opcode::Mov;
  Type t = d.inst.type = d.one_type(kSelectTypes | type_set({Type::Pred}));
  d.no_pipe();
  d.expect_count(2);
  bool dst_vec = d.raw(0).op.kind == Operand::Kind::Vector;
  bool src_vec = d.raw(1).op.kind == Operand::Kind::Vector;
  if (dst_vec || src_vec) {
    // Unpacking mov.b64 {%r1, %r2}, %rd1 or packing mov.b64 %rd1, {%r1, %r2}.
    size_t v = dst_vec ? 0 : 1;
    if (dst_vec && src_vec) d.fail(d.raw(1).loc, "'mov' cannot have vectors on both sides");
    if (!is_bits(t) || t == Type::B8) d.fail("vector 'mov' needs a .b16, .b32 or .b64 type");
    size_t n = d.raw(v).op.elems.size();
    if (n != 2 && n != 4) d.fail(d.raw(v).loc, "a vector in 'mov' has 2 or 4 elements");
    if (n == 4 && t == Type::B16) d.fail(d.raw(v).loc, "'mov.b16' packs 2 bytes, not 4");
    Operand packed = dst_vec ? d.src(1, t, 0) : d.dst(0, t, false);
    Operand vec = d.vector(v, static_cast<unsigned>(n), Type::B8, dst_vec);
    d.inst.ops = dst_vec ? std::vector<Operand>{vec, packed} : std::vector<Operand>{packed, vec};
    return;
  }
  if (d.raw(1).op.kind == Operand::Kind::Function) {
    // A function's address (a function pointer); the parser fills it in.
    if (type_bits(t) != 64 || is_float(t))
      d.fail(d.raw(1).loc, "a function's address is 64 bits: mov.u64 or mov.b64");
    d.inst.ops = {d.dst(0, t), d.raw(1).op};
    return;
  }
  unsigned allow = kAllowImm | kAllowSpecial;
  if (t == Type::U32 || t == Type::U64 || t == Type::B32 || t == Type::B64 || t == Type::S64 ||
      t == Type::S32)
    allow |= kAllowSymbol;
  d.inst.ops = {d.dst(0, t), d.src(1, t, allow)};
}

}  // namespace

DecodeFn find_convert_decoder(const std::string& name) {
  static const struct {
    const char* name;
    DecodeFn fn;
  } kTable[] = {{"mov", decode_mov},   {"cvt", decode_cvt}, {"cvta", decode_cvta},
                {"setp", decode_setp}, {"set", decode_set}, {"selp", decode_selp},
                {"slct", decode_slct}};
  for (const auto& e : kTable)
    if (name == e.name) return e.fn;
  return nullptr;
}

}  // namespace warptlm::ptx
