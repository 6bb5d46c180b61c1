// Decoders for logic and bit manipulation: and, or, xor, not, cnot, shl,
// shr, bfe, bfi, popc, clz, brev, prmt.
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

}  // namespace

DecodeFn find_bitwise_decoder(const std::string& name) {
  static const struct {
    const char* name;
    DecodeFn fn;
  } kTable[] = {{"and", decode_and},   {"or", decode_or},     {"xor", decode_xor},
                {"not", decode_not},   {"cnot", decode_cnot}, {"shl", decode_shl},
                {"shr", decode_shr},   {"bfe", decode_bfe},   {"bfi", decode_bfi},
                {"popc", decode_popc}, {"clz", decode_clz},   {"brev", decode_brev},
                {"prmt", decode_prmt}};
  for (const auto& e : kTable)
    if (name == e.name) return e.fn;
  return nullptr;
}

}  // namespace warptlm::ptx
