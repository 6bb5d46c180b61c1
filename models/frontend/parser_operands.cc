// Operand syntax: registers, literals, special registers, addresses,
// vectors, labels, and the parameter lists of call. Names are resolved here
// against the lexical scopes; what each opcode accepts is the decoder's job.
#include "frontend/parser_context.h"

namespace warptlm::ptx {

namespace {

struct SpecialName {
  const char* name;
  SpecialReg reg;
  bool has_component;
};

const SpecialName* find_special(const std::string& name) {
  static const SpecialName kSpecials[] = {
      {"%tid", SpecialReg::Tid, true},
      {"%ntid", SpecialReg::Ntid, true},
      {"%ctaid", SpecialReg::Ctaid, true},
      {"%nctaid", SpecialReg::Nctaid, true},
      {"%laneid", SpecialReg::Laneid, false},
      {"%warpid", SpecialReg::Warpid, false},
      {"%nwarpid", SpecialReg::Nwarpid, false},
      {"%smid", SpecialReg::Smid, false},
      {"%nsmid", SpecialReg::Nsmid, false},
      {"%gridid", SpecialReg::Gridid, false},
      {"%clock", SpecialReg::Clock, false},
      {"%clock64", SpecialReg::Clock64, false},
      {"%lanemask_eq", SpecialReg::LanemaskEq, false},
      {"%lanemask_le", SpecialReg::LanemaskLe, false},
      {"%lanemask_lt", SpecialReg::LanemaskLt, false},
      {"%lanemask_ge", SpecialReg::LanemaskGe, false},
      {"%lanemask_gt", SpecialReg::LanemaskGt, false},
      {"%dynamic_smem_size", SpecialReg::DynamicSmemSize, false},
      {"%total_smem_size", SpecialReg::TotalSmemSize, false},
      {"%globaltimer", SpecialReg::GlobalTimer, false},
      {"%globaltimer_lo", SpecialReg::GlobalTimerLo, false},
      {"%globaltimer_hi", SpecialReg::GlobalTimerHi, false},
      {"WARP_SZ", SpecialReg::WarpSize, false},
  };
  for (const auto& s : kSpecials)
    if (name == s.name) return &s;
  return nullptr;
}

// Special registers of PTX that this model does not provide.
bool is_unsupported_special(const std::string& name) {
  static const char* const kPrefixes[] = {
      "%pm",         "%reserved_smem",       "%aggr_smem_size",    "%cluster",
      "%nclusterid", "%is_explicit_cluster", "%current_graph_exec"};
  for (const char* p : kPrefixes)
    if (name.rfind(p, 0) == 0) return true;
  return false;
}

}  // namespace

RawOperand Parser::parse_operand(bool label_context) {
  const Token& t = peek();
  if (t.is_punct('!')) {
    next();
    if (peek().kind != TokKind::Ident) fail(t, "'!' must be followed by a predicate register");
    RawOperand r = parse_name_operand(next(), false);
    if (r.op.kind != Operand::Kind::Reg) fail(t, "'!' must be followed by a predicate register");
    r.op.negated = true;
    r.loc = loc_of(t);
    return r;
  }
  if (t.is_punct('-')) {
    next();
    if (peek().kind != TokKind::Number) fail(peek(), "expected a number after '-'");
    RawOperand r = parse_number_operand(true);
    r.loc = loc_of(t);
    return r;
  }
  if (t.kind == TokKind::Number) return parse_number_operand(false);
  if (t.is_punct('[')) return parse_address();
  if (t.is_punct('{')) return parse_vector();
  if (t.kind == TokKind::Ident) {
    next();
    return parse_name_operand(t, label_context);
  }
  fail(t, "expected an operand, found " + describe(t));
}

RawOperand Parser::parse_number_operand(bool negative) {
  const Token& t = next();
  RawOperand r;
  r.loc = loc_of(t);
  r.op.imm = t.bits;
  switch (t.num) {
    case NumKind::Int:
      r.op.kind = Operand::Kind::Imm;
      if (negative) {
        if (t.bits > (uint64_t(1) << 63))
          fail(t, "negative literal '-" + t.text + "' is out of range");
        r.op.imm = ~t.bits + 1;
      }
      break;
    case NumKind::F32:
      r.op.kind = Operand::Kind::ImmF32;
      if (negative) r.op.imm ^= uint64_t(1) << 31;
      break;
    case NumKind::F64:
      r.op.kind = Operand::Kind::ImmF64;
      if (negative) r.op.imm ^= uint64_t(1) << 63;
      break;
  }
  return r;
}

RawOperand Parser::parse_name_operand(const Token& name, bool label_context) {
  RawOperand r;
  r.loc = loc_of(name);
  if (name.text == "_") {
    r.op.kind = Operand::Kind::Sink;
    return r;
  }
  if (const SpecialName* sp = find_special(name.text)) {
    r.op.kind = Operand::Kind::Special;
    r.op.sreg = sp->reg;
    const Token& c = peek();
    bool attached = c.kind == TokKind::Directive && c.begin == name.end;
    if (sp->has_component) {
      if (!attached || (c.text != ".x" && c.text != ".y" && c.text != ".z"))
        fail(name, "'" + name.text + "' needs a component .x, .y or .z");
      r.op.comp = static_cast<uint8_t>(c.text[1] - 'x');
      next();
    } else if (attached) {
      fail(c, "'" + name.text + "' has no component '" + c.text + "'");
    }
    return r;
  }
  if (name.text.rfind("%envreg", 0) == 0 && !lookup(name.text)) {
    // %envreg0 .. %envreg31 (32-bit, read-only).
    const std::string digits = name.text.substr(7);
    const bool number = !digits.empty() && digits.size() <= 2 &&
                        digits.find_first_not_of("0123456789") == std::string::npos &&
                        (digits.size() == 1 || digits[0] != '0');
    if (!number || std::stoi(digits) > 31)
      fail(name, "'" + name.text + "' is not a special register (%envreg0 to %envreg31)");
    r.op.kind = Operand::Kind::Special;
    r.op.sreg = SpecialReg::EnvReg;
    r.op.comp = static_cast<uint8_t>(std::stoi(digits));
    return r;
  }
  if (label_context) {
    r.op.kind = Operand::Kind::Label;
    r.name = name.text;
    return r;
  }
  if (const Entity* e = lookup(name.text)) {
    if (e->kind == Entity::Kind::Reg) {
      r.op.kind = Operand::Kind::Reg;
      r.op.reg = e->index;
      r.op.reg_type = function().regs[e->index].type;
    } else {
      r.op.kind = Operand::Kind::Symbol;
      r.op.symbol = e->index;
    }
    return r;
  }
  if (is_unsupported_special(name.text))
    fail(name, "special register '" + name.text + "' is not supported");
  if (header_index_.count(name.text) != 0) {  // its address (mov; resolved at the end)
    r.op.kind = Operand::Kind::Function;
    r.name = name.text;
    return r;
  }
  fail(name,
       std::string(name.text[0] == '%' ? "undeclared register '" : "undeclared identifier '") +
           name.text + "'");
}

RawOperand Parser::parse_address() {
  const Token& open = next();  // '['
  RawOperand r;
  r.loc = loc_of(open);
  r.op.kind = Operand::Kind::Address;
  const Token& base = peek();
  if (base.kind == TokKind::Ident) {
    next();
    const Entity* e = lookup(base.text);
    if (e == nullptr) {
      if (header_index_.count(base.text) != 0)
        fail(base, "cannot take the address of function '" + base.text + "'");
      fail(base,
           std::string(base.text[0] == '%' ? "undeclared register '" : "undeclared identifier '") +
               base.text + "'");
    }
    if (e->kind == Entity::Kind::Reg) {
      const RegDecl& reg = function().regs[e->index];
      if (reg.type == Type::Pred) fail(base, "a .pred register cannot be an address");
      r.op.has_reg = true;
      r.op.reg = e->index;
      r.op.reg_type = reg.type;
    } else {
      r.op.has_symbol = true;
      r.op.symbol = e->index;
    }
  } else if (base.kind == TokKind::Number && base.num == NumKind::Int) {
    next();
    r.op.offset = static_cast<int64_t>(base.bits);
  } else {
    fail(base, "expected a register, variable or integer inside [ ], found " + describe(base));
  }
  if (peek().is_punct('+') || peek().is_punct('-')) {
    bool minus = next().text == "-";
    if (!minus && accept_punct('-')) minus = true;  // [%rd1+-4]
    const Token& off = peek();
    if (off.kind != TokKind::Number || off.num != NumKind::Int)
      fail(off, "expected an integer offset in address, found " + describe(off));
    next();
    if (off.bits > (uint64_t(1) << 63)) fail(off, "address offset out of range");
    // In 64-bit two's complement, as addresses wrap: -(2^63) and a base
    // plus an offset near the ends do not overflow a signed integer.
    const uint64_t v = minus ? uint64_t(0) - off.bits : off.bits;
    r.op.offset = static_cast<int64_t>(static_cast<uint64_t>(r.op.offset) + v);
  }
  // [a, c] / [a, b, c]: a texture or surface object with its coordinates.
  while (accept_punct(',')) r.tuple.push_back(parse_operand(false));
  expect_punct(']', "to close the address");
  return r;
}

RawOperand Parser::parse_vector() {
  const Token& open = next();  // '{'
  RawOperand r;
  r.loc = loc_of(open);
  r.op.kind = Operand::Kind::Vector;
  do {
    const Token& t = peek();
    RawOperand e;
    if (t.kind == TokKind::Ident) {
      next();
      e = parse_name_operand(t, false);
      if (e.op.kind != Operand::Kind::Reg && e.op.kind != Operand::Kind::Sink)
        fail(t, "vector elements must be registers, literals or '_'");
    } else if (t.kind == TokKind::Number || t.is_punct('-')) {
      e = parse_operand(false);
    } else {
      fail(t, "expected a vector element, found " + describe(t));
    }
    r.op.elems.push_back(e.op);
    r.elem_locs.push_back(e.loc);
  } while (accept_punct(','));
  expect_punct('}', "to close the vector");
  return r;
}

RawOperand Parser::parse_param_name_list(const char* what) {
  const Token& open = expect_punct('(', std::string("to open the ") + what + " list");
  RawOperand r;
  r.loc = loc_of(open);
  r.op.kind = Operand::Kind::Vector;
  if (accept_punct(')')) return r;
  do {
    const Token& t = peek();
    if (t.kind != TokKind::Ident)
      fail(t, std::string("call ") + what + "s must be .param variables, found " + describe(t));
    next();
    const Entity* e = lookup(t.text);
    if (e == nullptr) fail(t, "undeclared identifier '" + t.text + "'");
    if (e->kind != Entity::Kind::Symbol || module_.symbols[e->index].space != Space::Param)
      fail(t, std::string("call ") + what + " '" + t.text +
                  "' must be a .param variable (register arguments are not supported)");
    Operand op;
    op.kind = Operand::Kind::Symbol;
    op.symbol = e->index;
    r.op.elems.push_back(op);
    r.elem_locs.push_back(loc_of(t));
  } while (accept_punct(','));
  expect_punct(')', std::string("to close the ") + what + " list");
  return r;
}

void Parser::parse_call_operands(std::vector<RawOperand>* ops) {
  // call (rets), callee, (args);  -- either list may be absent.
  RawOperand rets;
  rets.loc = loc_of(peek());
  rets.op.kind = Operand::Kind::Vector;
  if (peek().is_punct('(')) {
    rets = parse_param_name_list("return value");
    expect_punct(',', "after the return value list");
  }
  const Token& callee = peek();
  if (callee.kind != TokKind::Ident)
    fail(callee, "expected a function name, found " + describe(callee));
  RawOperand target;
  target.loc = loc_of(callee);
  target.op.kind = Operand::Kind::Function;
  target.name = callee.text;
  if (const Entity* e = lookup(callee.text)) {
    if (e->kind != Entity::Kind::Reg)
      fail(callee, "'" + callee.text + "' is a variable, not a function");
    // An indirect call: the register holds a function's address.
    const Type t = function().regs[e->index].type;
    if (type_bits(t) != module_.address_size || t == Type::Pred || is_float(t))
      fail(callee, "an indirect call's target '" + callee.text + "' must be a ." +
                       (module_.address_size == 64 ? "u64" : "u32") +
                       " register holding a function's address");
    target.op.kind = Operand::Kind::Reg;
    target.op.reg = e->index;
    target.op.reg_type = t;
  }
  next();
  const bool indirect = target.op.kind == Operand::Kind::Reg;
  RawOperand args;
  args.loc = loc_of(peek());
  args.op.kind = Operand::Kind::Vector;
  if (accept_punct(',')) {
    if (peek().is_punct('(')) {
      args = parse_param_name_list("argument");
      if (indirect) expect_punct(',', "before the call prototype of an indirect call");
    } else if (!indirect) {
      fail(peek(),
           "expected the argument list '(...)' of a direct call, found " + describe(peek()));
    }
  } else if (indirect) {
    fail(peek(), "an indirect call needs its .callprototype: call (rets), " + callee.text +
                     ", (args), prototype;");
  }
  if (!indirect && peek().is_punct(','))
    fail(peek(),
         "a direct call ends with its argument list (a .callprototype belongs to a call "
         "through a register)");
  if (indirect) {
    const Token& proto = expect_ident("the name of a .callprototype");
    auto it = prototypes_.find(proto.text);
    if (it == prototypes_.end())
      fail(proto, "'" + proto.text + "' is not a .callprototype declared in this function" +
                      (label_locs_.count(proto.text) ? " (a .calltargets list or a label)" : ""));
    const CallPrototype& p = it->second;
    if (rets.op.elems.size() != p.rets.size() || args.op.elems.size() != p.params.size())
      fail(proto, "the call passes " + std::to_string(args.op.elems.size()) + " argument(s) and " +
                      std::to_string(rets.op.elems.size()) + " return value(s), but prototype '" +
                      proto.text + "' has " + std::to_string(p.params.size()) + " and " +
                      std::to_string(p.rets.size()));
  }
  ops->push_back(std::move(rets));
  ops->push_back(std::move(target));
  ops->push_back(std::move(args));
}

}  // namespace warptlm::ptx
