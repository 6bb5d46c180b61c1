#include "frontend/parser_decoder.h"

#include <cstring>
#include <utility>

#include "frontend/ptx_error.h"

namespace warptlm::ptx {

namespace {

uint64_t float_bits_to_double_bits(uint64_t f32_bits) {
  uint32_t b = static_cast<uint32_t>(f32_bits);
  float f;
  std::memcpy(&f, &b, sizeof f);
  double d = f;
  uint64_t out;
  std::memcpy(&out, &d, sizeof out);
  return out;
}

uint64_t double_bits_to_float_bits(uint64_t f64_bits) {
  double d;
  std::memcpy(&d, &f64_bits, sizeof d);
  float f = static_cast<float>(d);
  uint32_t out;
  std::memcpy(&out, &f, sizeof out);
  return out;
}

const char* kind_name(Operand::Kind k) {
  switch (k) {
    case Operand::Kind::None:
      return "nothing";
    case Operand::Kind::Reg:
      return "a register";
    case Operand::Kind::Imm:
    case Operand::Kind::ImmF32:
    case Operand::Kind::ImmF64:
      return "a literal";
    case Operand::Kind::Special:
      return "a special register";
    case Operand::Kind::Symbol:
      return "a variable";
    case Operand::Kind::Address:
      return "an address";
    case Operand::Kind::Vector:
      return "a vector";
    case Operand::Kind::Label:
      return "a label";
    case Operand::Kind::Function:
      return "a function";
    case Operand::Kind::Sink:
      return "'_'";
  }
  return "?";
}

}  // namespace

Decoder::Decoder(const std::string& source, std::string opname, SourceLoc loc, ModifierList& mods,
                 std::vector<RawOperand>& raw, int pipe, Instruction& inst,
                 std::function<uint32_t()> carry_flag)
    : inst(inst),
      mods(mods),
      source_(source),
      name_(std::move(opname)),
      loc_(loc),
      raw_(raw),
      written_(raw.size()),
      pipe_(pipe),
      carry_flag_(std::move(carry_flag)) {}

void Decoder::fail(SourceLoc at, const std::string& message) const {
  throw PtxError(source_, at.line, at.col, message);
}

std::string Decoder::what(size_t i) const {
  if (i >= written_) {
    const auto& [op, element] = spliced_[i - written_];
    return "element " + std::to_string(element + 1) + " of operand " + std::to_string(op + 1) +
           " of '" + name_ + "'";
  }
  return "operand " + std::to_string(i + 1) + " of '" + name_ + "'";
}

// Types PTX has that warptlm does not model: named as such instead of "needs
// a type suffix" when they are an instruction's only type.
void Decoder::refuse_unmodelled_type() {
  if (const Modifier* t = mods.take_any({"tf32", "e4m3", "e5m2", "e4m3x2", "e5m2x2", "e2m1x2",
                                         "e2m3x2", "e3m2x2", "ue8m0x2", "b128"}))
    fail(t->loc, "'" + name_ + "." + t->name + "': the type ." + t->name +
                     " is not supported (tf32, fp8/fp6/fp4 and .b128 are not modelled; "
                     "docs/half-precision.md lists the half-precision instructions that are)");
}

Type Decoder::one_type(TypeSet allowed) {
  auto types = mods.types();
  if (types.empty()) refuse_unmodelled_type();
  if (types.empty()) fail("'" + name_ + "' needs a type suffix");
  if (types.size() > 1) fail(types[1]->loc, "'" + name_ + "' takes one type suffix");
  Type t = type_from_name(types[0]->name);
  if (!in_set(allowed, t))
    fail(types[0]->loc, "'" + name_ + "' does not accept type '." + types[0]->name + "'");
  types[0]->used = true;
  return t;
}

void Decoder::two_types(TypeSet first_allowed, TypeSet second_allowed, Type* first, Type* second) {
  auto types = mods.types();
  if (types.size() < 2) refuse_unmodelled_type();
  if (types.size() < 2) fail("'" + name_ + "' needs two type suffixes");
  if (types.size() > 2) fail(types[2]->loc, "'" + name_ + "' takes two type suffixes");
  *first = type_from_name(types[0]->name);
  *second = type_from_name(types[1]->name);
  if (!in_set(first_allowed, *first))
    fail(types[0]->loc, "'" + name_ + "' does not accept type '." + types[0]->name + "'");
  if (!in_set(second_allowed, *second))
    fail(types[1]->loc, "'" + name_ + "' does not accept type '." + types[1]->name + "'");
  types[0]->used = types[1]->used = true;
}

void Decoder::finish() const {
  if (const Modifier* m = mods.first_unused())
    fail(m->loc, "modifier '." + m->name + "' is not supported on '" + name_ + "'");
}

void Decoder::expect_count(size_t lo, size_t hi) const {
  if (raw_.size() > hi)
    fail(raw_[hi].loc,
         "too many operands for '" + name_ + "' (expected " + std::to_string(hi) + ")");
  if (raw_.size() < lo)
    fail("'" + name_ + "' needs " + std::to_string(lo) + " operand" + (lo == 1 ? "" : "s") +
         ", got " + std::to_string(raw_.size()));
}

void Decoder::no_pipe() const {
  if (pipe_ >= 0) fail(raw_[pipe_].loc, "'" + name_ + "' has no second destination ('|')");
}

void Decoder::check_register(const RawOperand& r, Type t, size_t i) const {
  bool want_pred = t == Type::Pred;
  bool is_pred = r.op.reg_type == Type::Pred;
  if (want_pred && !is_pred) fail(r.loc, what(i) + " must be a .pred register");
  if (!want_pred && is_pred) fail(r.loc, what(i) + " cannot be a .pred register");
}

Operand Decoder::dst(size_t i, Type t, bool sink_ok) const {
  const RawOperand& r = raw_[i];
  if (r.op.negated) fail(r.loc, what(i) + " is a destination and cannot be negated");
  if (r.op.kind == Operand::Kind::Sink && sink_ok) return r.op;
  if (r.op.kind != Operand::Kind::Reg)
    fail(r.loc, what(i) + " must be a register, not " + kind_name(r.op.kind));
  check_register(r, t, i);
  return r.op;
}

Operand Decoder::literal(const RawOperand& r, Type t, size_t i) const {
  Operand op = r.op;
  using K = Operand::Kind;
  if (t == Type::F32 || t == Type::F64) {
    if (op.kind == K::Imm)
      fail(r.loc, what(i) + " is ." + type_name(t) +
                      ": write a float literal (0f/0d hex or decimal with a point), not an "
                      "integer");
    if (t == Type::F32 && op.kind == K::ImmF64) {
      op.kind = K::ImmF32;
      op.imm = double_bits_to_float_bits(op.imm);
    } else if (t == Type::F64 && op.kind == K::ImmF32) {
      op.kind = K::ImmF64;
      op.imm = float_bits_to_double_bits(op.imm);
    }
    return op;
  }
  if (op.kind == K::Imm) {
    // ptxas takes any 64-bit literal and keeps its low bits; warptlm refuses a
    // literal the operand cannot hold, signed or unsigned, rather than change
    // it without a word (docs/frontend.md, "Integer literals").
    const unsigned width = type_bits(t);
    if (width > 0 && width < 64) {
      const uint64_t max = (uint64_t(1) << width) - 1;
      const int64_t min = -(int64_t(1) << (width - 1));
      const int64_t value = static_cast<int64_t>(op.imm);
      const bool fits = op.imm <= max || (value < 0 && value >= min);
      if (!fits)
        fail(r.loc, what(i) + " is ." + type_name(t) + ": the literal " +
                        (value < 0 ? std::to_string(value) : std::to_string(op.imm)) +
                        " does not fit in " + std::to_string(width) + " bits (allowed: " +
                        std::to_string(min) + " to " + std::to_string(max) + ")");
    }
    return op;
  }
  // A float literal in an integer slot: only bit types may carry raw IEEE
  // bits (mov.b32 %r1, 0f3F800000), and only of the matching width.
  unsigned bits = type_bits(t);
  if (!is_bits(t) || (bits != 32 && bits != 64))
    fail(r.loc, what(i) + " is ." + type_name(t) + " and cannot take a floating-point literal");
  if (bits == 32 && op.kind == K::ImmF64) {
    op.kind = K::ImmF32;
    op.imm = double_bits_to_float_bits(op.imm);
  } else if (bits == 64 && op.kind == K::ImmF32) {
    op.kind = K::ImmF64;
    op.imm = float_bits_to_double_bits(op.imm);
  }
  return op;
}

Operand Decoder::src(size_t i, Type t, unsigned allow) const {
  const RawOperand& r = raw_[i];
  using K = Operand::Kind;
  if (r.op.negated && !(allow & kAllowNegate)) fail(r.loc, what(i) + " cannot be negated with '!'");
  switch (r.op.kind) {
    case K::Reg:
      check_register(r, t, i);
      return r.op;
    case K::Imm:
    case K::ImmF32:
    case K::ImmF64:
      if (!(allow & kAllowImm)) fail(r.loc, what(i) + " must be a register, not a literal");
      if (t == Type::Pred) {
        if (r.op.kind != K::Imm)
          fail(r.loc, what(i) + " is a predicate: only integer literals are allowed");
        // clang writes `mov.pred %p, -1` for true: any non-zero integer is true.
        Operand p = r.op;
        p.imm = p.imm != 0 ? 1 : 0;
        return p;
      }
      return literal(r, t, i);
    case K::Special:
      if (!(allow & kAllowSpecial))
        fail(r.loc, "special registers can only be read by mov or cvt, not by '" + name_ + "'");
      return r.op;
    case K::Symbol:
      if (!(allow & kAllowSymbol))
        fail(r.loc, what(i) + " cannot be the address of a variable (use mov or cvta)");
      return r.op;
    case K::Sink:
      fail(r.loc, what(i) + " is a source and cannot be '_'");
    default:
      fail(r.loc, what(i) + " cannot be " + kind_name(r.op.kind));
  }
}

Operand Decoder::address(size_t i) const {
  const RawOperand& r = raw_[i];
  if (r.op.kind != Operand::Kind::Address)
    fail(r.loc, what(i) + " must be an address [...], not " + kind_name(r.op.kind));
  if (!r.tuple.empty())
    fail(r.tuple[0].loc, what(i) +
                             " must be an address [...]: a list [a, b] is only for "
                             "texture and surface instructions");
  return r.op;
}

size_t Decoder::splice_tuple(size_t i, size_t lo, size_t hi) {
  const RawOperand& r = raw_[i];
  if (r.op.kind != Operand::Kind::Address || r.tuple.size() + 1 < lo || r.tuple.size() + 1 > hi) {
    if (hi == 1) fail(r.loc, what(i) + " must be [a]: the object's handle alone");
    const std::string n =
        lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
    fail(r.loc, what(i) + " must be a list [...] of " + n + " operands");
  }
  if (r.op.has_symbol || !r.op.has_reg || r.op.offset != 0)
    fail(r.loc, "element 1 of " + what(i) + " must be a register (a texture or surface object)");
  RawOperand first;
  first.op = Operand{};
  first.op.kind = Operand::Kind::Reg;
  first.op.reg = r.op.reg;
  first.op.reg_type = r.op.reg_type;
  first.loc = r.loc;
  const std::vector<RawOperand> rest = r.tuple;  // raw_ may reallocate below
  const size_t at = raw_.size();
  raw_.push_back(first);
  spliced_.push_back({i, 0});
  for (size_t k = 0; k < rest.size(); ++k) {
    raw_.push_back(rest[k]);
    spliced_.push_back({i, k + 1});
  }
  return at;
}

Operand Decoder::vector(size_t i, unsigned n, Type t, bool is_dst) const {
  const RawOperand& r = raw_[i];
  if (r.op.kind != Operand::Kind::Vector)
    fail(r.loc, what(i) + " must be a vector {...} of " + std::to_string(n) + " elements");
  if (r.op.elems.size() != n)
    fail(r.loc, what(i) + " has " + std::to_string(r.op.elems.size()) + " elements, expected " +
                    std::to_string(n));
  Operand out = r.op;
  for (size_t k = 0; k < out.elems.size(); ++k) {
    RawOperand e{out.elems[k], k < r.elem_locs.size() ? r.elem_locs[k] : r.loc, {}, {}, {}};
    out.elems[k] = is_dst ? dst_element(e, t, i) : src_element(e, t, i);
  }
  return out;
}

Operand Decoder::dst_element(const RawOperand& e, Type t, size_t i) const {
  if (e.op.kind == Operand::Kind::Sink) return e.op;
  if (e.op.kind != Operand::Kind::Reg)
    fail(e.loc, "elements of " + what(i) + " must be registers or '_'");
  check_register(e, t, i);
  return e.op;
}

Operand Decoder::src_element(const RawOperand& e, Type t, size_t i) const {
  using K = Operand::Kind;
  if (e.op.kind == K::Reg) {
    check_register(e, t, i);
    return e.op;
  }
  if (e.op.kind == K::Imm || e.op.kind == K::ImmF32 || e.op.kind == K::ImmF64)
    return literal(e, t, i);
  fail(e.loc, "elements of " + what(i) + " must be registers or literals");
}

Operand Decoder::label(size_t i) const {
  const RawOperand& r = raw_[i];
  if (r.op.kind != Operand::Kind::Label)
    fail(r.loc, what(i) + " must be a label, not " + kind_name(r.op.kind));
  return r.op;
}

Operand Decoder::carry_flag() const {
  Operand op;
  op.kind = Operand::Kind::Reg;
  op.reg = carry_flag_();
  op.reg_type = Type::Pred;
  return op;
}

DecodeFn find_decoder(const std::string& name) {
  for (auto find : {find_arith_decoder, find_bitwise_decoder, find_convert_decoder,
                    find_float_decoder, find_memory_decoder, find_control_decoder,
                    find_texture_decoder, find_tensor_decoder, find_async_decoder}) {
    if (DecodeFn fn = find(name)) return fn;
  }
  return nullptr;
}

}  // namespace warptlm::ptx
