// Decoders for the tensor-core instructions (docs/tensor-cores.md): wmma.load,
// wmma.store and wmma.mma for every shape and type of sm_70..sm_90 but the
// sub-byte ones, mma.sync for the m16n8 and m8n8 shapes whose fragment
// layouts the PTX ISA gives per thread, and ldmatrix.m8n8. The fragment
// sizes are checked here, so the semantics can rely on them.
#include <array>

#include "frontend/matrix_shape.h"
#include "frontend/parser_decoder.h"

namespace warptlm::ptx {

namespace {

// The element types of A/B ("ab") and of C/D ("cd") as written, in order;
// tf32 (no IR type) is F32 with MmaInfo::a_tf32 set.
struct MmaTypes {
  Type d = Type::None, a = Type::None, b = Type::None, c = Type::None;
  bool tf32 = false;
};

// dtype.ctype (wmma's f16 form) or dtype.atype.btype.ctype.
MmaTypes take_mma_types(Decoder& d, bool two_allowed) {
  MmaTypes t;
  unsigned tf32 = 0;
  while (d.mods.take("tf32")) ++tf32;
  std::vector<Modifier*> types = d.mods.types();
  for (Modifier* m : types) m->used = true;
  auto type_of = [](Modifier* m) { return type_from_name(m->name); };
  if (tf32 == 2 && types.size() == 2) {
    t.d = type_of(types[0]);
    t.c = type_of(types[1]);
    t.a = t.b = Type::F32;
    t.tf32 = true;
  } else if (tf32 == 0 && types.size() == 4) {
    t.d = type_of(types[0]);
    t.a = type_of(types[1]);
    t.b = type_of(types[2]);
    t.c = type_of(types[3]);
  } else if (tf32 == 0 && two_allowed && types.size() == 2) {
    t.d = type_of(types[0]);
    t.c = type_of(types[1]);
    t.a = t.b = Type::F16;
  } else {
    d.fail("'" + d.name() + "' needs its types as ." +
           (two_allowed ? "dtype.ctype (f16 inputs) or ." : "") + "dtype.atype.btype.ctype");
  }
  return t;
}

bool is_f16_or_f32(Type t) { return t == Type::F16 || t == Type::F32; }

// Whether A x B + C -> D with these types exists for the shape family, and
// the message saying what does when not.
void check_mma_types(Decoder& d, const MmaTypes& t, const std::string& shape, bool f16_family,
                     bool tf32_family, bool f64_family) {
  const std::string what = "'" + d.name() + "." + shape + "'";
  if (f64_family) {
    if (t.a != Type::F64 || t.b != Type::F64 || t.c != Type::F64 || t.d != Type::F64 || t.tf32)
      d.fail(what + " takes .f64.f64.f64.f64");
    return;
  }
  if (tf32_family) {
    if (!t.tf32 || t.c != Type::F32 || t.d != Type::F32) d.fail(what + " takes .f32.tf32.tf32.f32");
    return;
  }
  if (t.tf32) d.fail(what + ": .tf32 needs the shape m16n16k8 (wmma) or m16n8k8/m16n8k4 (mma)");
  const bool int8 = (t.a == Type::S8 || t.a == Type::U8) && (t.b == Type::S8 || t.b == Type::U8);
  if (int8) {
    if (t.c != Type::S32 || t.d != Type::S32)
      d.fail(what + " with .s8/.u8 inputs takes .s32 for C and D");
    return;
  }
  if (f16_family && t.a == Type::F16 && t.b == Type::F16) {
    if (!is_f16_or_f32(t.c) || !is_f16_or_f32(t.d))
      d.fail(what + " with .f16 inputs takes .f16 or .f32 for C and D");
    return;
  }
  if (f16_family && t.a == Type::BF16 && t.b == Type::BF16) {
    if (t.c != Type::F32 || t.d != Type::F32)
      d.fail(what + " with .bf16 inputs takes .f32 for C and D");
    return;
  }
  d.fail(what + ": unsupported input types ." + type_name(t.a) + "." + type_name(t.b) +
         " (supported: .f16, .bf16, .s8/.u8" + (f16_family ? "" : ", by shape") + ")");
}

bool take_sync_aligned(Decoder& d) {
  if (!d.mods.take("sync") || !d.mods.take("aligned"))
    d.fail("'" + d.name() + "' needs .sync.aligned");
  return true;
}

bool take_layout(Decoder& d, const char* which) {
  const Modifier* l = d.mods.take_any({"row", "col"});
  if (l == nullptr) d.fail("'" + d.name() + "' needs " + which + " layout (.row or .col)");
  return l->name == "row";
}

// The wmma shape, into info.m/n/k.
void take_wmma_shape(Decoder& d, MmaInfo& info) {
  if (const Modifier* s = d.mods.take_any({"m8n8k32", "m8n8k128"}))
    d.fail(s->loc, "'wmma." + s->name + "' (sub-byte .s4/.u4/.b1 fragments) is not supported");
  const Modifier* s = d.mods.take_any({"m16n16k16", "m8n32k16", "m32n8k16", "m16n16k8", "m8n8k4"});
  if (s == nullptr)
    d.fail("'wmma' needs a shape (.m16n16k16, .m8n32k16, .m32n8k16, .m16n16k8 or .m8n8k4)");
  static const struct {
    const char* name;
    uint8_t m, n, k;
  } kShapes[] = {{"m16n16k16", 16, 16, 16},
                 {"m8n32k16", 8, 32, 16},
                 {"m32n8k16", 32, 8, 16},
                 {"m16n16k8", 16, 16, 8},
                 {"m8n8k4", 8, 8, 4}};
  for (const auto& k : kShapes)
    if (s->name == k.name) {
      info.m = k.m;
      info.n = k.n;
      info.k = k.k;
    }
}

std::string shape_name(const MmaInfo& i) {
  return "m" + std::to_string(i.m) + "n" + std::to_string(i.n) + "k" + std::to_string(i.k);
}

// The vector operand i of a fragment: `regs` registers of the element's
// register type.
Operand fragment(Decoder& d, size_t i, Type elem, unsigned elems_per_thread, bool is_dst) {
  return d.vector(i, elems_per_thread / elements_per_register(elem), fragment_register_type(elem),
                  is_dst);
}

// wmma.load.{a,b,c} / wmma.store.d.
void decode_wmma_memory(Decoder& d, bool store) {
  MmaInfo& info = d.inst.mma;
  d.inst.op = store ? Opcode::WmmaStore : Opcode::WmmaLoad;
  if (store) {
    if (!d.mods.take("d")) d.fail("'wmma.store' stores a D fragment: write wmma.store.d");
    info.frag = MatrixFrag::D;
  } else {
    const Modifier* f = d.mods.take_any({"a", "b", "c"});
    if (f == nullptr) d.fail("'wmma.load' needs the fragment (.a, .b or .c)");
    info.frag = f->name == "a" ? MatrixFrag::A : f->name == "b" ? MatrixFrag::B : MatrixFrag::C;
  }
  take_sync_aligned(d);
  info.a_row = take_layout(d, "a");
  take_wmma_shape(d, info);
  SourceLoc space_loc;
  d.inst.space = d.mods.take_space(&space_loc);
  if (d.inst.space != Space::Generic && d.inst.space != Space::Global &&
      d.inst.space != Space::Shared)
    d.fail(space_loc, "'" + d.name() + "' accesses .global or .shared memory (or generic)");
  const bool tf32 = d.mods.take("tf32");
  const bool ab = info.frag == MatrixFrag::A || info.frag == MatrixFrag::B;
  const Type elem =
      tf32 ? Type::F32
           : d.one_type(ab ? type_set({Type::F16, Type::BF16, Type::S8, Type::U8, Type::F64})
                           : type_set({Type::F16, Type::F32, Type::S32, Type::F64}));
  const std::string what = "'" + d.name() + "." + shape_name(info) + "'";
  if (info.k == 8) {  // m16n16k8
    if (ab ? !tf32 : elem != Type::F32) d.fail(what + ": A and B are .tf32, C and D .f32");
  } else if (tf32) {
    d.fail(what + ": .tf32 fragments need the shape m16n16k8");
  } else if ((info.k == 4) != (elem == Type::F64)) {
    d.fail(what + (info.k == 4 ? ": this shape is .f64 only" : ": .f64 needs the shape m8n8k4"));
  }
  info.a = elem;
  info.a_tf32 = tf32;
  d.inst.type = elem;
  d.no_pipe();
  d.expect_count(2, 3);
  const unsigned per = fragment_elements(info, d.inst.op, info.frag, elem);
  Operand stride;  // Kind::None: the matrix is contiguous
  if (d.count() == 3) stride = d.src(2, Type::U32);
  if (store) {
    d.inst.ops = {d.address(0), fragment(d, 1, elem, per, false), stride};
  } else {
    d.inst.ops = {fragment(d, 0, elem, per, true), d.address(1), stride};
  }
}

// The types and the d, a, b, c fragments of wmma.mma or mma.
void set_mma_operands(Decoder& d, const MmaTypes& t) {
  if (d.inst.satfinite && t.c != Type::S32)
    d.fail(std::string(d.inst.op == Opcode::WmmaMma ? "'wmma.mma" : "'mma") +
           ".satfinite' is for integer (.s32) accumulators");
  MmaInfo& info = d.inst.mma;
  info.a = t.a;
  info.b = t.b;
  info.c = t.c;
  info.d = t.d;
  info.a_tf32 = t.tf32;
  d.inst.type = t.d;
  d.no_pipe();
  d.expect_count(4);
  auto per = [&](MatrixFrag f, Type elem) { return fragment_elements(info, d.inst.op, f, elem); };
  d.inst.ops = {fragment(d, 0, t.d, per(MatrixFrag::D, t.d), true),
                fragment(d, 1, t.a, per(MatrixFrag::A, t.a), false),
                fragment(d, 2, t.b, per(MatrixFrag::B, t.b), false),
                fragment(d, 3, t.c, per(MatrixFrag::C, t.c), false)};
}

void decode_wmma_mma(Decoder& d) {
  MmaInfo& info = d.inst.mma;
  d.inst.op = Opcode::WmmaMma;
  take_sync_aligned(d);
  info.a_row = take_layout(d, "the A");
  info.b_row = take_layout(d, "the B");
  take_wmma_shape(d, info);
  const Rounding rnd = d.mods.take_rounding(false);
  if (rnd != Rounding::None && rnd != Rounding::Rn)
    d.fail("'wmma.mma' rounds to nearest only (.rn): directed roundings are not supported");
  d.inst.satfinite = d.mods.take("satfinite");
  const MmaTypes t = take_mma_types(d, true);
  check_mma_types(d, t, shape_name(info), info.k == 16, info.k == 8, info.k == 4);
  set_mma_operands(d, t);
}

void decode_wmma(Decoder& d) {
  if (d.mods.take("load")) return decode_wmma_memory(d, false);
  if (d.mods.take("store")) return decode_wmma_memory(d, true);
  if (d.mods.take("mma")) return decode_wmma_mma(d);
  d.fail("'wmma' needs an operation (.load, .store or .mma)");
}

// mma.sync.aligned.<shape>.row.col...: the shapes with per-thread layouts.
void decode_mma(Decoder& d) {
  MmaInfo& info = d.inst.mma;
  d.inst.op = Opcode::Mma;
  take_sync_aligned(d);
  if (const Modifier* s =
          d.mods.take_any({"m16n8k64", "m16n8k128", "m16n8k256", "m8n8k32", "m8n8k128"}))
    d.fail(s->loc, "'mma." + s->name + "' (sub-byte .s4/.u4/.b1 inputs) is not supported");
  static const struct {
    const char* name;
    uint8_t m, n, k;
  } kShapes[] = {{"m16n8k16", 16, 8, 16}, {"m16n8k8", 16, 8, 8}, {"m16n8k4", 16, 8, 4},
                 {"m16n8k32", 16, 8, 32}, {"m8n8k16", 8, 8, 16}, {"m8n8k4", 8, 8, 4}};
  const Modifier* s = nullptr;
  for (const auto& k : kShapes)
    if ((s = d.mods.take_any({k.name})) != nullptr) {
      info.m = k.m;
      info.n = k.n;
      info.k = k.k;
      break;
    }
  if (s == nullptr)
    d.fail("'mma' needs a shape (.m16n8k16, .m16n8k8, .m16n8k4, .m16n8k32, .m8n8k16 or .m8n8k4)");
  info.a_row = take_layout(d, "the A");
  info.b_row = take_layout(d, "the B");
  if (const Modifier* k = d.mods.take_any({"kind::f8f6f4", "kind::mxf4", "sp", "block_scale"}))
    d.fail(k->loc, "'mma." + k->name + "' is not supported");
  d.inst.satfinite = d.mods.take("satfinite");
  const Rounding rnd = d.mods.take_rounding(false);
  if (rnd != Rounding::None && rnd != Rounding::Rn)
    d.fail("'mma' rounds to nearest only (.rn): directed roundings are not supported");
  const MmaTypes t = take_mma_types(d, false);
  const std::string shape = shape_name(info);
  const bool f64 = t.a == Type::F64;
  if (info.m == 8 && info.k == 4 && !f64)
    d.fail(s->loc,
           "'mma.m8n8k4' with .f16 inputs (Volta's quad-pair layout) is not supported; "
           "use wmma, or mma.m16n8k8/m16n8k16");
  if (!info.a_row || info.b_row) d.fail("'mma." + shape + "' takes the layouts .row.col");
  // The type families of each shape (PTX ISA, "Matrix shape").
  const bool int8 = t.a == Type::S8 || t.a == Type::U8;
  bool ok = false;
  if (info.m == 16 && (info.k == 16 || info.k == 8) && !t.tf32 && !int8 && !f64) ok = true;
  if (info.m == 16 && (info.k == 8 || info.k == 4) && t.tf32) ok = true;
  if (((info.m == 16 && (info.k == 32 || info.k == 16)) || (info.m == 8 && info.k == 16)) && int8)
    ok = true;
  if (info.m == 8 && info.k == 4 && f64) ok = true;
  if (!ok)
    d.fail("'mma." + shape + "' does not take ." + (t.tf32 ? "tf32" : type_name(t.a)) +
           " inputs (m16n8k16/m16n8k8: .f16/.bf16; m16n8k8/m16n8k4: .tf32; "
           "m16n8k32/m16n8k16/m8n8k16: .s8/.u8; m8n8k4: .f64)");
  check_mma_types(d, t, shape, !t.tf32 && !int8 && !f64, t.tf32, f64);
  set_mma_operands(d, t);
}

// ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}{.shared}.b16 d, [p].
void decode_ldmatrix(Decoder& d) {
  MmaInfo& info = d.inst.mma;
  d.inst.op = Opcode::Ldmatrix;
  take_sync_aligned(d);
  if (const Modifier* s = d.mods.take_any({"m16n16", "m8n16"}))
    d.fail(s->loc, "'ldmatrix." + s->name + "' (8-bit and sub-byte, sm_100) is not supported");
  if (!d.mods.take("m8n8")) d.fail("'ldmatrix' needs the shape .m8n8");
  info.m = info.n = 8;
  const Modifier* x = d.mods.take_any({"x1", "x2", "x4"});
  if (x == nullptr) d.fail("'ldmatrix' needs the number of matrices (.x1, .x2 or .x4)");
  info.count = static_cast<uint8_t>(x->name[1] - '0');
  info.trans = d.mods.take("trans");
  SourceLoc space_loc;
  d.inst.space = d.mods.take_space(&space_loc);
  if (d.inst.space != Space::Generic && d.inst.space != Space::Shared)
    d.fail(space_loc, "'ldmatrix' reads .shared memory (or a generic address in it)");
  d.inst.type = d.one_type(type_set({Type::B16}));
  info.a = Type::B16;
  d.no_pipe();
  d.expect_count(2);
  d.inst.ops = {d.vector(0, info.count, Type::B32, true), d.address(1)};
}

}  // namespace

DecodeFn find_tensor_decoder(const std::string& name) {
  if (name == "wmma") return decode_wmma;
  if (name == "mma") return decode_mma;
  if (name == "ldmatrix") return decode_ldmatrix;
  return nullptr;
}

}  // namespace warptlm::ptx
