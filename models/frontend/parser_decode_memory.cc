// Decoders for memory access: ld, st, atom, red. Cache operators, .nc and
// memory-model qualifiers (.relaxed/.acquire/.release with a scope) are
// accepted and dropped: the functional model is sequentially consistent and
// has no caches, so they cannot change a result.
#include "frontend/parser_decoder.h"

namespace warptlm::ptx {

namespace {

// .weak / .volatile / .relaxed.scope / .acquire.scope (ld) / .release.scope (st).
void take_ordering(Decoder& d, const char* strong) {
  d.inst.is_volatile = d.mods.take("volatile");
  const Modifier* sem = d.mods.take_any({"weak", "relaxed", strong});
  const Modifier* scope = d.mods.take_any({"cta", "gpu", "sys", "cluster"});
  if (d.inst.is_volatile && sem != nullptr)
    d.fail(sem->loc, "'." + sem->name + "' cannot be combined with .volatile");
  if (sem != nullptr && sem->name != "weak" && scope == nullptr)
    d.fail(sem->loc, "'." + sem->name + "' needs a scope (.cta, .gpu or .sys)");
  if (scope != nullptr && (sem == nullptr || sem->name == "weak"))
    d.fail(scope->loc, "a scope needs .relaxed or ." + std::string(strong));
  if (scope != nullptr && scope->name == "cluster")
    d.fail(scope->loc, "the .cluster scope is not supported");
}

unsigned take_vector(Decoder& d, Type t) {
  const Modifier* v = d.mods.take_any({"v2", "v4"});
  if (v == nullptr) {
    if (const Modifier* v8 = d.mods.take_any({"v8"}))
      d.fail(v8->loc, "'" + d.name() + ".v8' is not supported");
    return 1;
  }
  unsigned n = v->name == "v2" ? 2 : 4;
  if (n == 4 && type_bits(t) == 64)
    d.fail(v->loc, "'" + d.name() + ".v4' does not take 64-bit types");
  return n;
}

void decode_ld_st(Decoder& d, bool is_load) {
  d.inst.op = is_load ? Opcode::Ld : Opcode::St;
  SourceLoc sloc;
  d.inst.space = d.mods.take_space(&sloc);
  take_ordering(d, is_load ? "acquire" : "release");
  if (is_load) {
    if (const Modifier* nc = d.mods.take_any({"nc"})) {
      if (d.inst.space != Space::Global) d.fail(nc->loc, "'ld.nc' requires .global");
      if (d.inst.is_volatile) d.fail(nc->loc, "'ld.nc' cannot be .volatile");
    }
    d.mods.take_any({"ca", "cg", "cs", "lu", "cv"});
  } else {
    if (d.inst.space == Space::Const) d.fail(sloc, "cannot store to the .const space");
    d.mods.take_any({"wb", "cg", "cs", "wt"});
  }
  Type t = d.inst.type = d.one_type(kMemTypes);
  d.inst.vec = static_cast<uint8_t>(take_vector(d, t));
  d.no_pipe();
  d.expect_count(2);
  // Checked in source order so the first bad operand is the one reported.
  auto value = [&](size_t i) {
    if (d.inst.vec > 1) return d.vector(i, d.inst.vec, t, is_load);
    return is_load ? d.dst(i, t, false) : d.src(i, t);
  };
  if (is_load) {
    Operand v = value(0);
    d.inst.ops = {v, d.address(1)};
  } else {
    Operand a = d.address(0);
    d.inst.ops = {a, value(1)};
  }
}

void decode_ld(Decoder& d) { decode_ld_st(d, true); }
void decode_st(Decoder& d) { decode_ld_st(d, false); }

struct AtomOpInfo {
  const char* name;
  AtomOp op;
  TypeSet types;
  bool in_red;
};

const AtomOpInfo kAtomOps[] = {
    {"add", AtomOp::Add, type_set({Type::U32, Type::S32, Type::U64, Type::F32, Type::F64}) | kHalf,
     true},
    {"inc", AtomOp::Inc, type_set({Type::U32}), true},
    {"dec", AtomOp::Dec, type_set({Type::U32}), true},
    {"min", AtomOp::Min, type_set({Type::U32, Type::S32, Type::U64, Type::S64}), true},
    {"max", AtomOp::Max, type_set({Type::U32, Type::S32, Type::U64, Type::S64}), true},
    {"and", AtomOp::And, type_set({Type::B32, Type::B64}), true},
    {"or", AtomOp::Or, type_set({Type::B32, Type::B64}), true},
    {"xor", AtomOp::Xor, type_set({Type::B32, Type::B64}), true},
    {"exch", AtomOp::Exch, type_set({Type::B32, Type::B64}), false},
    {"cas", AtomOp::Cas, type_set({Type::B16, Type::B32, Type::B64}), false},
};

// Everything atom and red share: space, ordering, operation and type.
Type decode_atomic_common(Decoder& d, bool is_red) {
  SourceLoc sloc;
  d.inst.space = d.mods.take_space(&sloc);
  if (d.inst.space != Space::Generic && d.inst.space != Space::Global &&
      d.inst.space != Space::Shared)
    d.fail(sloc, "'" + d.name() + "' works on .global, .shared or generic addresses only");
  d.mods.take_any({"relaxed", "acquire", "release", "acq_rel"});  // ordering: see file comment
  const Modifier* scope = d.mods.take_any({"cta", "gpu", "sys", "cluster"});
  if (scope != nullptr && scope->name == "cluster")
    d.fail(scope->loc, "the .cluster scope is not supported");
  const Modifier* m =
      d.mods.take_any({"add", "inc", "dec", "min", "max", "and", "or", "xor", "exch", "cas"});
  if (m == nullptr) d.fail("'" + d.name() + "' needs an operation such as .add or .cas");
  const AtomOpInfo* info = nullptr;
  for (const auto& k : kAtomOps)
    if (m->name == k.name) info = &k;
  if (is_red && !info->in_red) d.fail(m->loc, "'red' has no ." + m->name + " operation");
  d.inst.atom = info->op;
  auto types = d.mods.types();
  if (types.empty()) d.fail("'" + d.name() + "." + m->name + "' needs a type suffix");
  Type t = type_from_name(types[0]->name);
  if (types.size() > 1) d.fail(types[1]->loc, "'" + d.name() + "' takes one type suffix");
  if (!in_set(info->types, t))
    d.fail(types[0]->loc,
           "'" + d.name() + "." + m->name + "' does not accept type '." + types[0]->name + "'");
  types[0]->used = true;
  // The half-precision adds are written .noftz (they keep subnormals), and
  // only they take it.
  const Modifier* n = d.mods.take_any({"noftz"});
  if (is_half(t) && n == nullptr)
    d.fail(types[0]->loc, "'" + d.name() + ".add." + types[0]->name + "' is written " + d.name() +
                              ".add.noftz." + types[0]->name);
  if (!is_half(t) && n != nullptr)
    d.fail(n->loc, "'.noftz' belongs to the .f16, .bf16, .f16x2 and .bf16x2 adds");
  return d.inst.type = t;
}

void decode_atom(Decoder& d) {
  d.inst.op = Opcode::Atom;
  Type t = decode_atomic_common(d, false);
  d.no_pipe();
  size_t n = d.inst.atom == AtomOp::Cas ? 4 : 3;
  d.expect_count(n);
  d.inst.ops = {d.dst(0, t), d.address(1), d.src(2, t)};
  if (n == 4) d.inst.ops.push_back(d.src(3, t));
}

void decode_red(Decoder& d) {
  d.inst.op = Opcode::Red;
  Type t = decode_atomic_common(d, true);
  d.no_pipe();
  d.expect_count(2);
  d.inst.ops = {d.address(0), d.src(1, t)};
}

}  // namespace

DecodeFn find_memory_decoder(const std::string& name) {
  if (name == "ld") return decode_ld;
  if (name == "st") return decode_st;
  if (name == "atom") return decode_atom;
  if (name == "red") return decode_red;
  return nullptr;
}

}  // namespace warptlm::ptx
