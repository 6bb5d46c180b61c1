// Decoders for texture and surface objects: tex, tld4, txq, suld, sust, suq
// (docs/textures.md). The handle is a .u64 register holding a texture or
// surface object (unified mode); texture references (.texref), separate
// samplers, layered, cube and multisample geometries, depth comparison,
// formatted surface stores and mipmap queries are refused with what is
// missing named.
#include "frontend/parser_decoder.h"

namespace warptlm::ptx {

namespace {

constexpr TypeSet kTexResult = type_set({Type::U32, Type::S32, Type::F32});
constexpr TypeSet kTexCoord = type_set({Type::S32, Type::F32});
constexpr TypeSet kSurfaceData = type_set({Type::B8, Type::B16, Type::B32, Type::B64});

// .1d/.2d/.3d; the other geometries PTX has are named as unsupported.
TexGeom take_geom(Decoder& d, bool only_2d) {
  if (const Modifier* g = d.mods.take_any({"a1d", "a2d", "cube", "acube", "2dms", "a2dms"}))
    d.fail(g->loc, "'" + d.name() + "." + g->name +
                       "': layered, cube and multisample textures and surfaces are not "
                       "supported (warptlm models 1d, 2d and 3d ones)");
  const Modifier* g = only_2d ? d.mods.take_any({"2d"}) : d.mods.take_any({"1d", "2d", "3d"});
  if (g == nullptr)
    d.fail("'" + d.name() + "' needs a geometry (" + (only_2d ? ".2d" : ".1d, .2d or .3d") + ")");
  return g->name == "1d" ? TexGeom::D1 : g->name == "2d" ? TexGeom::D2 : TexGeom::D3;
}

unsigned coordinate_count(TexGeom g) { return g == TexGeom::D1 ? 1 : g == TexGeom::D2 ? 2 : 4; }

// A coordinate operand (tex's c, suld's b) at raw index i: a vector of the
// geometry's size, or a scalar for 1d; always stored as a Vector.
Operand coordinates(Decoder& d, size_t i, TexGeom g, Type t) {
  const unsigned n = coordinate_count(g);
  if (d.raw(i).op.kind != Operand::Kind::Vector) {
    if (n != 1) return d.vector(i, n, t, false);  // the error
    Operand v;
    v.kind = Operand::Kind::Vector;
    v.elems.push_back(d.src(i, t));
    return v;
  }
  return d.vector(i, n, t, false);
}

// The handle: a 64-bit register.
Operand handle(Decoder& d, size_t i) { return d.src(i, Type::U64, 0); }

// tex and tld4: d[|p], [a, c] {, lod | dPdx, dPdy} {, e}.
void decode_fetch(Decoder& d, bool gather) {
  d.inst.op = gather ? Opcode::Tld4 : Opcode::Tex;
  if (gather) {
    const Modifier* c = d.mods.take_any({"r", "g", "b", "a"});
    if (c == nullptr) d.fail("'tld4' needs a component (.r, .g, .b or .a)");
    d.inst.tex_component = c->name == "r" ? 0 : c->name == "g" ? 1 : c->name == "b" ? 2 : 3;
  } else if (d.mods.take("level")) {
    d.inst.tex_lod = TexLod::Level;
  } else if (d.mods.take("grad")) {
    d.inst.tex_lod = TexLod::Grad;
  } else {
    d.mods.take("base");
  }
  d.inst.geom = take_geom(d, gather);
  if (const Modifier* v2 = d.mods.take_any({"v2"}))
    d.fail(v2->loc, "'" + d.name() + ".v2' (.f16x2 results) is not supported");
  if (!d.mods.take("v4")) d.fail("'" + d.name() + "' needs .v4");
  d.inst.vec = 4;
  Type dtype, ctype;
  d.two_types(kTexResult, gather ? type_set({Type::F32}) : kTexCoord, &dtype, &ctype);
  d.inst.type = dtype;
  d.inst.src_type = ctype;
  const size_t extra = d.inst.tex_lod == TexLod::Level ? 1 : d.inst.tex_lod == TexLod::Grad ? 2 : 0;
  d.expect_count(2 + extra, 3 + extra);
  const size_t written = d.count();  // before splice_tuple adds the [ ] elements
  Operand dst = d.vector(0, 4, dtype, true);
  Operand pred;
  if (d.has_pipe()) pred = d.dst(1, Type::Pred, true);
  const size_t first = d.has_pipe() ? 2 : 1;
  const size_t t = d.splice_tuple(first, 2, 3);
  if (d.raw(first).tuple.size() == 2)
    d.fail(d.raw(first).tuple[0].loc,
           "'" + d.name() +
               "' with a separate sampler (independent texturing mode) is not "
               "supported: pass a texture object, whose sampler is part of it");
  Operand a = handle(d, t);
  Operand c = coordinates(d, t + 1, d.inst.geom, ctype);
  Operand x1, x2, e;
  size_t next = first + 1;
  if (d.inst.tex_lod == TexLod::Level) {
    x1 = d.src(next++, ctype);
  } else if (d.inst.tex_lod == TexLod::Grad) {
    const unsigned n = d.inst.geom == TexGeom::D3 ? 4 : d.inst.geom == TexGeom::D2 ? 2 : 1;
    x1 = d.raw(next).op.kind == Operand::Kind::Vector || n > 1 ? d.vector(next, n, Type::F32, false)
                                                               : d.src(next, Type::F32);
    ++next;
    x2 = d.raw(next).op.kind == Operand::Kind::Vector || n > 1 ? d.vector(next, n, Type::F32, false)
                                                               : d.src(next, Type::F32);
    ++next;
  }
  if (next < written) {
    if (d.raw(next).op.kind != Operand::Kind::Vector)
      d.fail(d.raw(next).loc, "'" + d.name() +
                                  "' with a depth-compare operand is not supported (depth "
                                  "textures are not modelled)");
    e = d.vector(next, coordinate_count(d.inst.geom), Type::S32, false);
  }
  d.inst.ops = {dst, pred, a, c, x1, x2, e};
}

void decode_tex(Decoder& d) { decode_fetch(d, false); }
void decode_tld4(Decoder& d) { decode_fetch(d, true); }

// txq / suq: d, [a].
void decode_query(Decoder& d, bool surface) {
  d.inst.op = surface ? Opcode::Suq : Opcode::Txq;
  if (const Modifier* l = d.mods.take_any({"level"}))
    d.fail(l->loc, "'txq.level' is not supported: warptlm textures have one mipmap level");
  struct Name {
    const char* name;
    TexQuery query;
    bool texture, surface;
  };
  static const Name kQueries[] = {
      {"width", TexQuery::Width, true, true},
      {"height", TexQuery::Height, true, true},
      {"depth", TexQuery::Depth, true, true},
      {"normalized_coords", TexQuery::NormalizedCoords, true, false},
      {"filter_mode", TexQuery::FilterMode, true, false},
      {"addr_mode_0", TexQuery::AddrMode0, true, false},
      {"addr_mode_1", TexQuery::AddrMode1, true, false},
      {"addr_mode_2", TexQuery::AddrMode2, true, false},
  };
  for (const Name& q : kQueries)
    if ((surface ? q.surface : q.texture) && d.mods.take(q.name)) d.inst.tex_query = q.query;
  if (d.inst.tex_query == TexQuery::None) {
    if (const Modifier* other = d.mods.take_any({"channel_data_type", "channel_order", "array_size",
                                                 "num_mipmap_levels", "num_samples",
                                                 "memory_layout", "force_unnormalized_coords"}))
      d.fail(other->loc, "'" + d.name() + "." + other->name + "' is not supported");
    d.fail("'" + d.name() + "' needs an attribute (" +
           (surface ? ".width, .height or .depth"
                    : ".width, .height, .depth, .normalized_coords, .filter_mode, "
                      "or .addr_mode_0/1/2") +
           ")");
  }
  d.inst.type = d.one_type(type_set({Type::B32}));
  d.no_pipe();
  d.expect_count(2);
  Operand dst = d.dst(0, Type::B32);
  const size_t t = d.splice_tuple(1, 1, 1);
  d.inst.ops = {dst, handle(d, t)};
}

void decode_txq(Decoder& d) { decode_query(d, false); }
void decode_suq(Decoder& d) { decode_query(d, true); }

// suld.b / sust.b: the geometry, vector, type and out-of-bounds mode.
void decode_surface(Decoder& d, bool load) {
  d.inst.op = load ? Opcode::Suld : Opcode::Sust;
  if (const Modifier* p = d.mods.take_any({"p"}))
    d.fail(p->loc, "'" + d.name() + ".p' (formatted surface access) is not supported; use .b");
  if (!d.mods.take("b")) d.fail("'" + d.name() + "' needs .b (unformatted access)");
  d.inst.geom = take_geom(d, false);
  d.mods.take_any(load ? std::initializer_list<const char*>{"ca", "cg", "cs", "cv"}
                       : std::initializer_list<const char*>{"wb", "cg", "cs", "wt"});
  const Modifier* v = d.mods.take_any({"v2", "v4"});
  d.inst.vec = v == nullptr ? 1 : v->name == "v2" ? 2 : 4;
  const Type t = d.inst.type = d.one_type(kSurfaceData);
  if (d.inst.vec == 4 && t == Type::B64) d.fail(v->loc, "'" + d.name() + ".v4' does not take .b64");
  if (const Modifier* c = d.mods.take_any({"trap", "clamp", "zero"}))
    d.inst.surface_clamp = c->name == "trap"    ? SurfaceClamp::Trap
                           : c->name == "clamp" ? SurfaceClamp::Clamp
                                                : SurfaceClamp::Zero;
  d.no_pipe();
  d.expect_count(2);
  auto value = [&](size_t i) {
    if (d.inst.vec > 1) return d.vector(i, d.inst.vec, t, load);
    // nvcc writes the one value as {%r}.
    if (d.raw(i).op.kind == Operand::Kind::Vector) return d.vector(i, 1, t, load).elems[0];
    return load ? d.dst(i, t) : d.src(i, t);
  };
  if (load) {
    Operand dst = value(0);
    const size_t at = d.splice_tuple(1, 2, 2);
    d.inst.ops = {dst, handle(d, at), coordinates(d, at + 1, d.inst.geom, Type::S32)};
  } else {
    const size_t at = d.splice_tuple(0, 2, 2);
    Operand a = handle(d, at);
    Operand b = coordinates(d, at + 1, d.inst.geom, Type::S32);
    d.inst.ops = {a, b, value(1)};
  }
}

void decode_suld(Decoder& d) { decode_surface(d, true); }
void decode_sust(Decoder& d) { decode_surface(d, false); }

}  // namespace

DecodeFn find_texture_decoder(const std::string& name) {
  if (name == "tex") return decode_tex;
  if (name == "tld4") return decode_tld4;
  if (name == "txq") return decode_txq;
  if (name == "suq") return decode_suq;
  if (name == "suld") return decode_suld;
  if (name == "sust") return decode_sust;
  return nullptr;
}

}  // namespace warptlm::ptx
