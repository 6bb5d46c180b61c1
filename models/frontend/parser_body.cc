// Function bodies: nested { } scopes, declarations, labels and instructions;
// branch targets are resolved when the function's closing brace is read.

#include "frontend/parser_context.h"

namespace warptlm::ptx {

namespace {

// PTX instructions this model knows of but does not implement, with the
// target that introduced each (PTX ISA, "PTX ISA notes" and "Target ISA
// notes" of each instruction), so the error can say "not supported" and what
// needs it rather than "unknown".
const char* unsupported_since(const std::string& op) {
  static const struct {
    const char* name;
    const char* target;
  } kNames[] = {{"sad", "sm_20"},           {"fns", "sm_30"},          {"szext", "sm_70"},
                {"dp4a", "sm_61"},          {"dp2a", "sm_61"},         {"stmatrix", "sm_90"},
                {"ldu", "sm_20"},           {"prefetch", "sm_20"},     {"prefetchu", "sm_20"},
                {"isspacep", "sm_20"},      {"istypep", "sm_30"},      {"sured", "sm_20"},
                {"brkpt", "sm_11"},         {"pmevent", "sm_20"},      {"brx", "sm_30"},
                {"mapa", "sm_90"},          {"getctarank", "sm_90"},   {"alloca", "sm_52"},
                {"stacksave", "sm_52"},     {"stackrestore", "sm_52"}, {"discard", "sm_80"},
                {"applypriority", "sm_80"}, {"createpolicy", "sm_80"}, {"griddepcontrol", "sm_90"},
                {"setmaxnreg", "sm_90a"},   {"wgmma", "sm_90a"},       {"multimem", "sm_90"},
                {"tensormap", "sm_90"},     {"vabsdiff", "sm_20"},     {"vadd", "sm_20"},
                {"vsub", "sm_20"},          {"vmad", "sm_20"},         {"vmax", "sm_20"},
                {"vmin", "sm_20"},          {"vset", "sm_20"},         {"vshl", "sm_20"},
                {"vshr", "sm_20"},          {"vabsdiff2", "sm_30"},    {"vabsdiff4", "sm_30"},
                {"vadd2", "sm_30"},         {"vadd4", "sm_30"},        {"vsub2", "sm_30"},
                {"vsub4", "sm_30"},         {"vmax2", "sm_30"},        {"vmax4", "sm_30"},
                {"vmin2", "sm_30"},         {"vmin4", "sm_30"},        {"vset2", "sm_30"},
                {"vset4", "sm_30"},         {"vavrg2", "sm_30"},       {"vavrg4", "sm_30"}};
  for (const auto& n : kNames)
    if (op == n.name) return n.target;
  return nullptr;
}

}  // namespace

void Parser::parse_body(const Token& open) {
  std::vector<const Token*> braces;  // open inner scopes, for error positions
  for (;;) {
    const Token& t = peek();
    if (t.kind == TokKind::End) {
      if (!braces.empty()) fail(*braces.back(), "unterminated '{': missing '}'");
      fail(open, "unterminated body of function '" + function().name + "': missing '}'");
    }
    if (t.is_punct('}')) {
      next();
      if (braces.empty()) return;
      braces.pop_back();
      pop_scope();
      continue;
    }
    if (t.is_punct('{')) {
      braces.push_back(&next());
      push_scope();
      continue;
    }
    if (t.kind == TokKind::Directive) {
      next();
      if (t.text == ".reg") {
        parse_reg_decl();
      } else if (t.text == ".local") {
        parse_variable(Space::Local, false);
      } else if (t.text == ".shared") {
        parse_variable(Space::Shared, false);
      } else if (t.text == ".param") {
        parse_variable(Space::Param, false);
      } else if (t.text == ".extern" && peek().is_directive(".shared")) {
        next();  // .shared
        parse_variable(Space::Shared, true);
      } else if (t.text == ".global" || t.text == ".const") {
        // Function-scope statics: visible only here, stored with the module's.
        parse_variable(t.text == ".global" ? Space::Global : Space::Const, false);
      } else if (t.text == ".loc" || t.text == ".file") {
        skip_line_directive(t);
      } else if (t.text == ".pragma") {
        do {
          const Token& s = next();
          if (s.kind != TokKind::String) fail(s, "expected a string after .pragma");
        } while (accept_punct(','));
        expect_punct(';', "after .pragma");
      } else {
        fail(t, "unexpected directive '" + t.text + "' in function body");
      }
      continue;
    }
    if (t.kind == TokKind::Ident && peek(1).is_punct(':')) {
      parse_label(t);
      continue;
    }
    if (t.kind == TokKind::Ident || t.is_punct('@')) {
      parse_instruction();
      continue;
    }
    fail(t, "expected an instruction, label or declaration, found " + describe(t));
  }
}

void Parser::parse_label(const Token& name) {
  next();  // name
  next();  // ':'
  if (peek().is_directive(".callprototype")) return parse_call_prototype(name);
  if (peek().is_directive(".calltargets"))
    fail(peek(),
         "'.calltargets' (an indirect call's list of targets) is not supported; "
         "call through a .callprototype");
  auto seen = label_locs_.find(name.text);
  if (seen != label_locs_.end())
    fail(name, "duplicate label '" + name.text + "' (first defined at line " +
                   std::to_string(seen->second.line) + ")");
  label_locs_[name.text] = loc_of(name);
  function().labels[name.text] = module_.code.size() * kInstrBytes;
}

void Parser::parse_call_prototype(const Token& name) {
  next();  // .callprototype
  if (prototypes_.count(name.text) != 0) fail(name, "duplicate call prototype '" + name.text + "'");
  CallPrototype proto;
  auto sizes = [](const std::vector<ParamDecl>& decls) {
    std::vector<uint64_t> out;
    for (const ParamDecl& d : decls) out.push_back(d.size);
    return out;
  };
  // (.param ... _) _ (.param ...): the return value list is optional.
  if (peek().is_punct('(')) proto.rets = sizes(parse_param_list());
  const Token& placeholder = expect_ident("'_' (the prototype's function name)");
  if (placeholder.text != "_")
    fail(placeholder, "a .callprototype names its function '_', not '" + placeholder.text + "'");
  if (peek().is_punct('(')) proto.params = sizes(parse_param_list());
  expect_punct(';', "after .callprototype");
  prototypes_[name.text] = std::move(proto);
}

void Parser::parse_instruction() {
  size_t first = pos_;
  Instruction inst;
  inst.loc = loc_of(peek());
  inst.function = static_cast<uint32_t>(fn_);
  if (accept_punct('@')) {
    inst.guard_negated = accept_punct('!');
    const Token& g = expect_ident("a predicate register after '@'");
    const Entity* e = lookup(g.text);
    if (e == nullptr) fail(g, "undeclared register '" + g.text + "'");
    if (e->kind != Entity::Kind::Reg) fail(g, "guard '" + g.text + "' is not a register");
    if (function().regs[e->index].type != Type::Pred)
      fail(g, "guard '" + g.text + "' is not a .pred register");
    inst.has_guard = true;
    inst.guard_reg = e->index;
  }
  const Token& op = peek();
  if (op.kind != TokKind::Ident) fail(op, "expected an instruction, found " + describe(op));
  next();
  // Modifiers are written without spaces: `ld.global.f32`.
  ModifierList mods;
  std::string full = op.text;
  size_t prev_end = op.end;
  while (peek().kind == TokKind::Directive && peek().begin == prev_end) {
    const Token& m = next();
    mods.add(m.text.substr(1), loc_of(m));
    full += m.text;
    prev_end = m.end;
  }
  DecodeFn decode = find_decoder(op.text);
  if (decode == nullptr) {
    const char* since = unsupported_since(op.text);
    fail(op, since ? "instruction '" + op.text + "' (" + since + ") is not supported"
                   : "unknown instruction '" + op.text + "'");
  }

  // `ret` newline `exit;`: the next line's opcode or label is no operand;
  // say the ';' is missing rather than call it an undeclared name.
  const Token& after = peek();
  // (Not for call: compilers put the callee on its own line.)
  if (op.text != "call" && after.kind == TokKind::Ident && after.line != op.line &&
      (find_decoder(after.text) != nullptr || peek(1).is_punct(':')))
    fail(after, "expected ';' after instruction '" + full + "', found " + describe(after));

  std::vector<RawOperand> raw;
  int pipe = -1;
  if (op.text == "call") {
    parse_call_operands(&raw);
  } else if (!peek().is_punct(';')) {
    bool labels = op.text == "bra";
    for (;;) {
      raw.push_back(parse_operand(labels));
      if (peek().is_punct('|')) {
        const Token& bar = next();
        if (raw.size() != 1) fail(bar, "'|' may only follow the first operand");
        pipe = 1;
        raw.push_back(parse_operand(false));
      }
      if (!accept_punct(',')) break;
    }
  }
  const Token& semi = peek();
  if (!semi.is_punct(';'))
    fail(semi, "expected ';' after instruction '" + full + "', found " + describe(semi));
  size_t end = pos_;
  next();
  inst.text = instruction_text(first, end);

  Decoder decoder(source_, op.text, loc_of(op), mods, raw, pipe, inst,
                  [this] { return carry_flag_reg(); });
  decode(decoder);
  decoder.finish();

  size_t index = module_.code.size();
  inst.pc = index * kInstrBytes;
  size_t label_raw = 0;
  for (size_t i = 0; i < inst.ops.size(); ++i) {
    if (inst.ops[i].kind != Operand::Kind::Label) continue;
    while (raw[label_raw].op.kind != Operand::Kind::Label) ++label_raw;
    branches_.push_back({index, i, raw[label_raw].name, raw[label_raw].loc});
    ++label_raw;
  }
  if (op.text == "call" && raw[1].op.kind == Operand::Kind::Function)
    calls_.push_back({index, raw[1].name, raw[1].loc});
  if (op.text == "mov" && raw.size() == 2 && raw[1].op.kind == Operand::Kind::Function)
    function_refs_.push_back({false, index, 1, raw[1].name, raw[1].loc});
  module_.code.push_back(std::move(inst));
}

uint32_t Parser::carry_flag_reg() {
  // PTX's CC.CF as a hidden per-function predicate register: semantics stay
  // pure over registers and the data-flow analyses see the carry chain.
  if (carry_reg_ < 0) {
    carry_reg_ = static_cast<int64_t>(function().regs.size());
    function().regs.push_back(RegDecl{kCarryFlagReg, Type::Pred});
  }
  return static_cast<uint32_t>(carry_reg_);
}

std::string Parser::instruction_text(size_t first_tok, size_t end_tok) const {
  // Source text with every run of whitespace (and comments) turned into one
  // space, so multi-line calls read as one line in traces.
  std::string s;
  for (size_t i = first_tok; i < end_tok; ++i) {
    const Token& t = tokens_[i];
    if (i > first_tok && t.begin > tokens_[i - 1].end) s += ' ';
    s.append(text_, t.begin, t.end - t.begin);
  }
  return s;
}

void Parser::finish_function() {
  Function& f = function();
  f.end = module_.code.size() * kInstrBytes;
  if (f.begin == f.end) {
    // An empty body still gets an address of its own: a launch (the GPU's
    // KERNEL register) or a call names a function by its first PC, which an
    // empty function would share with the next one. The slot lies outside
    // the function ([begin, end) stays empty), so control reaching it faults
    // as falling off the end, in both modes; it never executes.
    Instruction pad;
    pad.op = Opcode::Trap;
    pad.pc = f.end;
    pad.function = static_cast<uint32_t>(fn_);
    pad.loc = loc_of(tokens_[pos_ - 1]);  // the closing brace
    pad.text = "(the end of '" + f.name + "', whose body is empty)";
    module_.code.push_back(std::move(pad));
  }
  for (const auto& b : branches_) {
    auto it = f.labels.find(b.label);
    if (it == f.labels.end())
      fail(b.loc, "undefined label '" + b.label + "' in function '" + f.name + "'");
    if (it->second == f.end)
      fail(b.loc, "branch to label '" + b.label + "' at the end of function '" + f.name +
                      "' with no instruction after it");
    module_.code[b.inst].ops[b.op].target = it->second;
  }
  branches_.clear();
  label_locs_.clear();
  prototypes_.clear();
  pop_scope();  // parameters
  fn_ = -1;
  carry_reg_ = -1;
}

}  // namespace warptlm::ptx
