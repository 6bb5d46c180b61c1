// Declarations: .reg registers, state-space variables, function parameters,
// and where each variable lives in its space (Symbol::offset).
#include <algorithm>

#include "frontend/parser_context.h"

namespace warptlm::ptx {

namespace {

bool is_power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// Bytes of one element of a variable (a .v4 .f32 element is 16 bytes).
uint64_t element_bytes(Type type, unsigned vec) { return uint64_t(type_bits(type) / 8) * vec; }

// Registers a name range like %r<100> may declare at most.
constexpr uint64_t kMaxRegRange = 1u << 20;

// The byte size of an array of `dims` elements of `elem` bytes in `space`, or
// The bytes a state space holds: PTX addresses .shared, .local and .param
// with 32 bits, so 4 GiB at most; .const is one 64 KiB bank (ptxas refuses
// more); .global is the model's 2^48-byte device address space.
uint64_t space_limit(Space space) {
  switch (space) {
    case Space::Shared:
    case Space::Local:
    case Space::Param:
      return uint64_t(1) << 32;
    case Space::Const:
      return uint64_t(1) << 16;
    default:
      return uint64_t(1) << 48;
  }
}

std::string limit_text(Space space) {
  switch (space) {
    case Space::Shared:
    case Space::Local:
    case Space::Param:
      return std::string("4 GiB (2^32-byte) window of .") + space_name(space);
    case Space::Const:
      return "64 KiB bank of .const";
    default:
      return std::string("2^48-byte address space of .") + space_name(space);
  }
}

// "" and a message in `problem`: a size past 2^64 wraps (never silently), and
// a variable must fit its space (space_limit).
uint64_t array_size(Space space, uint64_t elem, const std::vector<uint64_t>& dims,
                    std::string* problem) {
  uint64_t size = elem;
  std::string shape = std::to_string(elem) + "-byte elements";
  for (uint64_t d : dims) {
    shape += " x " + std::to_string(d);
    if (d != 0 && __builtin_mul_overflow(size, d, &size)) {
      *problem = "array size overflows 64 bits (" + shape + ")";
      return 0;
    }
  }
  if (size > space_limit(space))
    *problem = "array of " + std::to_string(size) + " bytes (" + shape + ") exceeds the " +
               limit_text(space);
  return size;
}

}  // namespace

Parser::VarAttrs Parser::parse_var_attrs(Space space, bool in_header) {
  VarAttrs a;
  for (;;) {
    const Token& t = peek();
    if (t.kind != TokKind::Directive) break;
    if (t.text == ".align") {
      next();
      const Token& n = peek();
      uint64_t v = expect_integer("an alignment");
      if (!is_power_of_two(v) || v > (1u << 16))
        fail(n, "alignment must be a power of two no larger than 65536");
      a.align = static_cast<uint32_t>(v);
      continue;
    }
    if (t.text == ".v2" || t.text == ".v4") {
      if (a.vec != 1) fail(t, "more than one vector size in declaration");
      a.vec = t.text == ".v2" ? 2 : 4;
      next();
      continue;
    }
    if (t.text == ".v8") fail(t, ".v8 variables are not supported");
    Type ty = type_from_name(t.text.substr(1));
    if (ty != Type::None) {
      if (a.type != Type::None) fail(t, "more than one type in declaration");
      a.type = ty;
      a.type_loc = loc_of(t);
      next();
      continue;
    }
    if (t.text == ".ptr") {
      // `.ptr .global .align 16` describes the pointee of a pointer parameter;
      // it does not change the parameter itself.
      if (!in_header || space != Space::Param)
        fail(t, ".ptr is only allowed on function parameters");
      next();
      const Token& s = peek();
      if (s.is_directive(".global") || s.is_directive(".shared") || s.is_directive(".const") ||
          s.is_directive(".local"))
        next();
      if (peek().is_directive(".align")) {
        next();
        const Token& n = peek();
        if (!is_power_of_two(expect_integer("a pointee alignment")))
          fail(n, "alignment must be a power of two");
      }
      continue;
    }
    break;
  }
  if (a.type == Type::None)
    fail(peek(), "expected a type in declaration, found " + describe(peek()));
  if (a.type == Type::Pred) fail(a.type_loc, ".pred is only a register type, not a variable type");
  return a;
}

std::vector<ParamDecl> Parser::parse_param_list() {
  std::vector<ParamDecl> out;
  expect_punct('(', "to open a parameter list");
  if (accept_punct(')')) return out;
  do {
    out.push_back(parse_param_decl());
  } while (accept_punct(','));
  expect_punct(')', "to close the parameter list");
  return out;
}

ParamDecl Parser::parse_param_decl() {
  const Token& kw = peek();
  if (kw.is_directive(".reg")) fail(kw, "register parameters (.reg) are not supported; use .param");
  if (!kw.is_directive(".param")) fail(kw, "expected '.param', found " + describe(kw));
  next();
  VarAttrs a = parse_var_attrs(Space::Param, true);
  const Token& name = expect_ident("a parameter name");
  ParamDecl p;
  p.name = name.text;
  p.type = a.type;
  p.loc = loc_of(name);
  std::vector<uint64_t> dims;
  while (peek().is_punct('[')) {
    const Token& open = next();
    if (peek().is_punct(']')) fail(open, "parameter arrays need a size");
    uint64_t n = expect_integer("an array size");
    if (n == 0) fail(open, "array size must be positive");
    dims.push_back(n);
    expect_punct(']', "after array size");
  }
  if (peek().is_punct('=')) fail(peek(), "parameters cannot have initialisers");
  uint64_t elem = element_bytes(a.type, a.vec);
  std::string problem;
  p.size = array_size(Space::Param, elem, dims, &problem);
  if (!problem.empty()) fail(name, "parameter '" + p.name + "': " + problem);
  p.align = std::max<uint32_t>(a.align, static_cast<uint32_t>(elem));
  return p;
}

void Parser::parse_variable(Space space, bool is_extern) {
  VarAttrs a = parse_var_attrs(space, false);
  uint64_t elem = element_bytes(a.type, a.vec);
  do {
    const Token& name = expect_ident("a variable name");
    Symbol s;
    s.name = name.text;
    s.space = space;
    s.type = a.type;
    s.align = std::max<uint32_t>(a.align, static_cast<uint32_t>(elem));
    s.function = fn_;
    s.is_extern = is_extern;
    s.loc = loc_of(name);
    std::vector<uint64_t> dims;
    bool unsized_first = false;
    while (peek().is_punct('[')) {
      const Token& open = next();
      if (peek().is_punct(']')) {
        if (!dims.empty()) fail(open, "only the first array dimension may be left unsized");
        unsized_first = true;
        dims.push_back(0);
      } else {
        uint64_t n = expect_integer("an array size");
        if (n == 0) fail(open, "array size must be positive");
        dims.push_back(n);
      }
      expect_punct(']', "after array size");
    }
    std::string problem;
    s.size = array_size(space, elem, dims, &problem);
    if (!problem.empty()) fail(name, "variable '" + s.name + "': " + problem);
    if (peek().is_punct('=')) {
      if (space != Space::Global && space != Space::Const)
        fail(peek(), "only .global and .const variables can have initialisers");
      parse_initializer(s, dims, a.vec, unsized_first);
    } else if (unsized_first && !is_extern) {
      fail(name, "array '" + s.name + "' needs a size or an initialiser");
    }
    if (is_extern) {
      if (!unsized_first || dims.size() != 1)
        fail(name, "an .extern .shared variable must be an unsized array such as x[]");
      s.size = 0;  // dynamic shared memory: sized at launch
    }
    lay_out(s, false);
    add_symbol(std::move(s), name);
  } while (accept_punct(','));
  expect_punct(';', "after variable declaration");
}

void Parser::parse_reg_decl() {
  const Token& t = peek();
  if (t.is_directive(".v2") || t.is_directive(".v4") || t.is_directive(".v8"))
    fail(t, "vector registers (.reg " + t.text + ") are not supported");
  Type type = t.kind == TokKind::Directive ? type_from_name(t.text.substr(1)) : Type::None;
  if (type == Type::None) fail(t, "expected a register type after .reg, found " + describe(t));
  next();
  auto add_reg = [&](const std::string& name, SourceLoc at) {
    uint32_t id = static_cast<uint32_t>(function().regs.size());
    declare(name, Entity{Entity::Kind::Reg, id}, at);
    function().regs.push_back(RegDecl{name, type});
  };
  do {
    const Token& name = expect_ident("a register name");
    if (accept_punct('<')) {
      const Token& n = peek();
      uint64_t count = expect_integer("a register count");
      if (count > kMaxRegRange) fail(n, "register range is too large");
      expect_punct('>', "after register count");
      for (uint64_t i = 0; i < count; ++i) add_reg(name.text + std::to_string(i), loc_of(name));
    } else {
      add_reg(name.text, loc_of(name));
    }
  } while (accept_punct(','));
  expect_punct(';', "after register declaration");
}

uint32_t Parser::add_symbol(Symbol symbol, const Token& name_tok) {
  if (!in_function() && header_index_.count(symbol.name) != 0)
    fail(name_tok, "'" + symbol.name + "' is already declared as a function");
  uint32_t id = static_cast<uint32_t>(module_.symbols.size());
  declare(symbol.name, Entity{Entity::Kind::Symbol, id}, loc_of(name_tok));
  if (symbol.is_extern) extern_shared_.push_back(id);
  module_.symbols.push_back(std::move(symbol));
  return id;
}

void Parser::lay_out(Symbol& s, bool kernel_param) {
  // Each variable fits its space (array_size); together they must too, and
  // the cursor then never wraps.
  auto place = [&](uint64_t* cursor) {
    s.offset = align_up(*cursor, s.align);
    *cursor = s.offset + s.size;
    if (*cursor > space_limit(s.space))
      fail(s.loc, "variable '" + s.name + "' ends at byte " + std::to_string(*cursor) + " of the " +
                      (s.function >= 0 ? "function's" : "module's") + " ." + space_name(s.space) +
                      " variables, past the " + limit_text(s.space));
  };
  switch (s.space) {
    case Space::Global:
      place(&module_.global_data_size);
      break;
    case Space::Const:
      place(&module_.const_data_size);
      break;
    case Space::Shared:
      if (!s.is_extern) place(&module_.shared_static_size);  // extern: see place_extern_shared
      break;
    case Space::Local:
      place(&function().local_size);
      break;
    case Space::Param:
      place(kernel_param ? &function().param_buffer_size : &function().param_frame_size);
      break;
    case Space::Generic:
      break;
  }
}

}  // namespace warptlm::ptx
