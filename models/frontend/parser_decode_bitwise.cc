// Decoders for logic and bit manipulation: and, or, xor, not, cnot, lop3,
// shl, shr, shf, bfe, bfi, bfind, bmsk, popc, clz, brev, prmt.
#include "frontend/parser_decoder.h"

namespace warptlm::ptx {

namespace {

constexpr TypeSet kLogicTypes = kBits16to64 | type_set({Type::Pred});
constexpr TypeSet kBits32or64 = type_set({Type::B32, Type::B64});

void decode_logic2(Decoder& d) {
  Type t = d.inst.type = d.one_type(kLogicTypes);
  d.no_pipe();
  d.expect_count(3);
  d.inst.ops = {d.dst(0, t), d.src(1, t), d.src(2, t)};
}

void decode_and(Decoder& d) {
  d.inst.op = Opcode::And;
  decode_logic2(d);
}

void decode_or(Decoder& d) {
  d.inst.op = Opcode::Or;
  decode_logic2(d);
}

void decode_xor(Decoder& d) {
  d.inst.op = Opcode::Xor;
  decode_logic2(d);
}

void unary(Decoder& d, Type dst_type, Type src_type) {
  d.no_pipe();
  d.expect_count(2);
  d.inst.ops = {d.dst(0, dst_type), d.src(1, src_type)};
}

void decode_not(Decoder& d) {
  d.inst.op = Opcode::Not;
  Type t = d.inst.type = d.one_type(kLogicTypes);
  unary(d, t, t);
}

void decode_cnot(Decoder& d) {
  d.inst.op = Opcode::Cnot;
  Type t = d.inst.type = d.one_type(kBits16to64);
  unary(d, t, t);
}

void shift(Decoder& d, TypeSet allowed) {
  Type t = d.inst.type = d.one_type(allowed);
  d.no_pipe();
  d.expect_count(3);
  // The shift amount is always an unsigned 32-bit value.
  d.inst.ops = {d.dst(0, t), d.src(1, t), d.src(2, Type::U32)};
}

void decode_shl(Decoder& d) {
  d.inst.op = Opcode::Shl;
  shift(d, kBits16to64);
}

void decode_shr(Decoder& d) {
  d.inst.op = Opcode::Shr;
  shift(d, kBits16to64 | kInt16to64);
}

void decode_bfe(Decoder& d) {
  d.inst.op = Opcode::Bfe;
  Type t = d.inst.type = d.one_type(type_set({Type::U32, Type::U64, Type::S32, Type::S64}));
  d.no_pipe();
  d.expect_count(4);
  d.inst.ops = {d.dst(0, t), d.src(1, t), d.src(2, Type::U32), d.src(3, Type::U32)};
}

void decode_bfi(Decoder& d) {
  d.inst.op = Opcode::Bfi;
  Type t = d.inst.type = d.one_type(kBits32or64);
  d.no_pipe();
  d.expect_count(5);
  d.inst.ops = {d.dst(0, t), d.src(1, t), d.src(2, t), d.src(3, Type::U32), d.src(4, Type::U32)};
}

void decode_popc(Decoder& d) {
  d.inst.op = Opcode::Popc;
  unary(d, Type::U32, d.inst.type = d.one_type(kBits32or64));
}

void decode_clz(Decoder& d) {
  d.inst.op = Opcode::Clz;
  unary(d, Type::U32, d.inst.type = d.one_type(kBits32or64));
}

void decode_brev(Decoder& d) {
  d.inst.op = Opcode::Brev;
  Type t = d.inst.type = d.one_type(kBits32or64);
  unary(d, t, t);
}

void decode_prmt(Decoder& d) {
  d.inst.op = Opcode::Prmt;
  Type t = d.inst.type = d.one_type(type_set({Type::B32}));
  static const struct {
    const char* name;
    PrmtMode mode;
  } kModes[] = {{"f4e", PrmtMode::F4e}, {"b4e", PrmtMode::B4e}, {"rc8", PrmtMode::Rc8},
                {"ecl", PrmtMode::Ecl}, {"ecr", PrmtMode::Ecr}, {"rc16", PrmtMode::Rc16}};
  if (const Modifier* m = d.mods.take_any({"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"})) {
    for (const auto& k : kModes)
      if (m->name == k.name) d.inst.prmt = k.mode;
  }
  d.no_pipe();
  d.expect_count(4);
  d.inst.ops = {d.dst(0, t), d.src(1, t), d.src(2, t), d.src(3, t)};
}

// .clamp or .wrap, required by shf and bmsk.
void take_clamp_wrap(Decoder& d) {
  const Modifier* m = d.mods.take_any({"clamp", "wrap"});
  if (m == nullptr) d.fail("'" + d.name() + "' needs .clamp or .wrap");
  d.inst.shift_clamp = m->name == "clamp";
}

// shf.{l,r}.{clamp,wrap}.b32 d, a, b, c: funnel shift of the 64-bit b:a.
void decode_shf(Decoder& d) {
  d.inst.op = Opcode::Shf;
  const Modifier* dir = d.mods.take_any({"l", "r"});
  if (dir == nullptr) d.fail("'shf' needs a direction (.l or .r)");
  d.inst.shift_right = dir->name == "r";
  take_clamp_wrap(d);
  Type t = d.inst.type = d.one_type(type_set({Type::B32}));
  d.no_pipe();
  d.expect_count(4);
  d.inst.ops = {d.dst(0, t), d.src(1, t), d.src(2, t), d.src(3, Type::U32)};
}

// bfind{.shiftamt}.type d, a: d is always .u32.
void decode_bfind(Decoder& d) {
  d.inst.op = Opcode::Bfind;
  d.inst.shiftamt = d.mods.take("shiftamt");
  Type t = d.inst.type = d.one_type(type_set({Type::U32, Type::U64, Type::S32, Type::S64}));
  unary(d, Type::U32, t);
}

// bmsk.{clamp,wrap}.b32 d, a, b: the mask of b bits from bit a.
void decode_bmsk(Decoder& d) {
  d.inst.op = Opcode::Bmsk;
  take_clamp_wrap(d);
  Type t = d.inst.type = d.one_type(type_set({Type::B32}));
  d.no_pipe();
  d.expect_count(3);
  d.inst.ops = {d.dst(0, t), d.src(1, Type::U32), d.src(2, Type::U32)};
}

// lop3.b32 d, a, b, c, immLut: any three-input logic function, given by its
// truth table immLut = F(0xF0, 0xCC, 0xAA).
void decode_lop3(Decoder& d) {
  d.inst.op = Opcode::Lop3;
  if (const Modifier* m = d.mods.take_any({"and", "or"}))
    d.fail(m->loc, "'lop3." + m->name + "' (predicate output) is not supported");
  Type t = d.inst.type = d.one_type(type_set({Type::B32}));
  d.no_pipe();
  d.expect_count(5);
  const Operand lut = d.src(4, Type::U32);
  if (lut.kind != Operand::Kind::Imm || lut.imm > 0xff)
    d.fail(d.raw(4).loc, "operand 5 of 'lop3' (immLut) must be an integer literal 0..255");
  d.inst.ops = {d.dst(0, t), d.src(1, t), d.src(2, t), d.src(3, t), lut};
}

}  // namespace

DecodeFn find_bitwise_decoder(const std::string& name) {
  static const struct {
    const char* name;
    DecodeFn fn;
  } kTable[] = {{"and", decode_and},   {"or", decode_or},     {"xor", decode_xor},
                {"not", decode_not},   {"cnot", decode_cnot}, {"shl", decode_shl},
                {"shr", decode_shr},   {"bfe", decode_bfe},   {"bfi", decode_bfi},
                {"popc", decode_popc}, {"clz", decode_clz},   {"brev", decode_brev},
                {"prmt", decode_prmt}, {"shf", decode_shf},   {"bfind", decode_bfind},
                {"bmsk", decode_bmsk}, {"lop3", decode_lop3}};
  for (const auto& e : kTable)
    if (name == e.name) return e.fn;
  return nullptr;
}

}  // namespace warptlm::ptx
