// Module-level PTX: header directives, variables, function headers and
// definitions, and the final linking of calls to definitions.
#include "frontend/ptx_parser.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/parser_context.h"

namespace warptlm {

namespace ptx {

Module Parser::parse() {
  while (peek().kind != TokKind::End) parse_module_item();
  link_calls();
  link_function_addresses();
  place_extern_shared();
  return std::move(module_);
}

void Parser::parse_module_item() {
  const Token& first = peek();
  if (first.kind != TokKind::Directive)
    fail(first, "expected a directive at module scope, found " + describe(first));

  if (first.text == ".version") {
    next();
    const Token& v = next();
    if (v.kind != TokKind::Number || v.text.find('.') == std::string::npos)
      fail(v, "expected a version number such as 7.0 after .version, found " + describe(v));
    // MAJOR.MINOR, each of at most two digits: PTX ISA versions run from 1.0
    // to 8.x today; a number that needs more digits is no PTX version.
    const size_t dot = v.text.find('.');
    const std::string major = v.text.substr(0, dot), minor = v.text.substr(dot + 1);
    auto digits = [](const std::string& t) {
      return !t.empty() && t.size() <= 2 && t.find_first_not_of("0123456789") == std::string::npos;
    };
    if (!digits(major) || !digits(minor) || major == "0" || major == "00")
      fail(v, "'" + v.text +
                  "' is not a PTX ISA version: expected MAJOR.MINOR such as 7.0 (major 1 to 99, "
                  "minor 0 to 99)");
    module_.version = v.text;
    return;
  }
  if (first.text == ".target") return parse_target();
  if (first.text == ".address_size") {
    next();
    const Token& n = peek();
    uint64_t size = expect_integer("an address size");
    if (size != 32 && size != 64) fail(n, "address size must be 32 or 64");
    module_.address_size = static_cast<unsigned>(size);
    return;
  }
  if (first.text == ".file" || first.text == ".loc") return skip_line_directive(next());
  if (first.text == ".section") {
    next();
    return skip_section();
  }

  // Linkage qualifiers, then what they qualify.
  bool is_extern = false;
  while (peek().is_directive(".visible") || peek().is_directive(".extern") ||
         peek().is_directive(".weak") || peek().is_directive(".common")) {
    if (peek().text == ".extern") is_extern = true;
    next();
  }
  const Token& kw = peek();
  if (kw.is_directive(".entry") || kw.is_directive(".func")) {
    next();
    return parse_function(kw.text == ".entry", is_extern);
  }
  if (kw.is_directive(".global") || kw.is_directive(".const")) {
    next();
    if (is_extern)
      fail(kw, "'.extern " + kw.text + "' variables (defined elsewhere) are not supported");
    return parse_variable(kw.text == ".global" ? Space::Global : Space::Const, false);
  }
  if (kw.is_directive(".shared")) {
    next();
    return parse_variable(Space::Shared, is_extern);
  }
  if (kw.is_directive(".local")) fail(kw, "module-scope .local variables are not supported");
  if (kw.is_directive(".reg")) fail(kw, "registers must be declared inside a function");
  if (kw.is_directive(".param")) fail(kw, ".param variables must be declared inside a function");
  if (kw.kind == TokKind::Directive)
    fail(kw, "unknown or unsupported directive '" + kw.text + "' at module scope");
  fail(kw, "expected a declaration after linkage directive, found " + describe(kw));
}

void Parser::parse_target() {
  next();  // .target
  const Token& arch = expect_ident("a target architecture after .target");
  if (arch.text.rfind("sm_", 0) != 0 && arch.text.rfind("compute_", 0) != 0)
    fail(arch, "unknown target '" + arch.text + "'");
  module_.target = arch.text;
  while (accept_punct(',')) {
    const Token& opt = expect_ident("a target option");
    if (opt.text == "map_f64_to_f32") fail(opt, "target option 'map_f64_to_f32' is not supported");
    if (opt.text != "debug" && opt.text != "texmode_unified" && opt.text != "texmode_independent")
      fail(opt, "unknown target option '" + opt.text + "'");
  }
}

void Parser::skip_line_directive(const Token& keyword) {
  // .file and .loc are line-oriented and carry nothing the model uses.
  while (peek().kind != TokKind::End && peek().line == keyword.line) next();
}

void Parser::skip_section() {
  // DWARF sections (.debug_info, ...) are data for debuggers only.
  const Token& name = next();
  if (name.kind != TokKind::Directive && name.kind != TokKind::Ident)
    fail(name, "expected a section name after .section, found " + describe(name));
  const Token& open = expect_punct('{', "to open section " + name.text);
  int depth = 1;
  while (depth > 0) {
    const Token& t = next();
    if (t.kind == TokKind::End) fail(open, "unterminated section '" + name.text + "'");
    if (t.is_punct('{')) ++depth;
    if (t.is_punct('}')) --depth;
  }
}

void Parser::parse_function(bool is_entry, bool is_extern) {
  FunctionHeader header;
  header.is_entry = is_entry;
  if (peek().is_punct('(')) {
    if (is_entry) fail(peek(), "a kernel (.entry) cannot have return values");
    header.rets = parse_param_list();
  }
  const Token& name = expect_ident("a function name");
  header.name = name.text;
  header.loc = loc_of(name);
  if (peek().is_punct('(')) header.params = parse_param_list();
  parse_performance_directives(header);

  auto known = header_index_.find(header.name);
  if (known != header_index_.end()) check_redeclaration(headers_[known->second], header, name);
  if (lookup(header.name) != nullptr)
    fail(name, "'" + header.name + "' is already declared as a variable");

  if (accept_punct(';')) {  // a prototype
    if (known == header_index_.end()) {
      header_index_[header.name] = headers_.size();
      headers_.push_back(std::move(header));
    }
    return;
  }
  const Token& open = peek();
  if (!open.is_punct('{'))
    fail(open,
         "expected '{' or ';' after the header of '" + header.name + "', found " + describe(open));
  if (is_extern) fail(open, "an .extern function cannot have a body");
  next();
  size_t index;
  if (known == header_index_.end()) {
    index = headers_.size();
    header_index_[header.name] = index;
    headers_.push_back(std::move(header));
  } else {
    index = known->second;
    if (headers_[index].defined >= 0) fail(name, "redefinition of function '" + name.text + "'");
    headers_[index] = std::move(header);  // the definition's parameter names win
  }
  begin_function(headers_[index]);
  parse_body(open);
  finish_function();
}

void Parser::check_redeclaration(const FunctionHeader& old_h, const FunctionHeader& new_h,
                                 const Token& at) {
  auto same = [](const std::vector<ParamDecl>& a, const std::vector<ParamDecl>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i].size != b[i].size) return false;
    return true;
  };
  if (old_h.is_entry != new_h.is_entry || !same(old_h.rets, new_h.rets) ||
      !same(old_h.params, new_h.params))
    fail(at, "'" + new_h.name + "' does not match its earlier declaration at line " +
                 std::to_string(old_h.loc.line));
}

void Parser::parse_performance_directives(const FunctionHeader& header) {
  for (;;) {
    const Token& d = peek();
    if (d.kind != TokKind::Directive) return;
    next();
    if (d.text == ".maxntid" || d.text == ".reqntid") {
      expect_integer("a thread count");
      for (int i = 0; i < 2 && accept_punct(','); ++i) expect_integer("a thread count");
    } else if (d.text == ".minnctapersm" || d.text == ".maxnctapersm" || d.text == ".maxnreg") {
      expect_integer("a count after " + d.text);
    } else if (d.text == ".noreturn") {
      if (header.is_entry) fail(d, ".noreturn applies to .func only");
    } else if (d.text == ".pragma") {
      do {
        const Token& s = next();
        if (s.kind != TokKind::String) fail(s, "expected a string after .pragma");
      } while (accept_punct(','));
      expect_punct(';', "after .pragma");
    } else {
      fail(d, "unsupported function directive '" + d.text + "'");
    }
  }
}

void Parser::begin_function(FunctionHeader& header) {
  uint32_t index = static_cast<uint32_t>(module_.functions.size());
  header.defined = static_cast<int32_t>(index);
  Function f;
  f.name = header.name;
  f.is_entry = header.is_entry;
  f.loc = header.loc;
  f.begin = module_.code.size() * kInstrBytes;
  module_.functions.push_back(std::move(f));
  fn_ = static_cast<int32_t>(index);
  branches_.clear();
  label_locs_.clear();
  push_scope();  // parameters
  auto materialise = [&](const ParamDecl& p, bool kernel_param) {
    Symbol s;
    s.name = p.name;
    s.space = Space::Param;
    s.type = p.type;
    s.size = p.size;
    s.align = p.align;
    s.function = static_cast<int32_t>(index);
    s.loc = p.loc;
    lay_out(s, kernel_param);
    uint32_t id = static_cast<uint32_t>(module_.symbols.size());
    declare(p.name, Entity{Entity::Kind::Symbol, id}, p.loc);
    module_.symbols.push_back(std::move(s));
    return id;
  };
  for (const auto& r : header.rets) function().rets.push_back(materialise(r, false));
  for (const auto& p : header.params) function().params.push_back(materialise(p, header.is_entry));
}

void Parser::link_calls() {
  for (const auto& call : calls_) {
    auto it = header_index_.find(call.callee);
    if (it == header_index_.end())
      fail(call.loc, "call to undeclared function '" + call.callee + "'");
    FunctionHeader& h = headers_[it->second];
    if (h.defined < 0) define_system_function(h, call.loc);
    if (h.is_entry) fail(call.loc, "cannot call kernel '" + call.callee + "'");
    Instruction& inst = module_.code[call.inst];
    size_t nrets = inst.ops[0].elems.size(), nargs = inst.ops[2].elems.size();
    if (nrets > h.rets.size())
      fail(call.loc, "call to '" + call.callee + "' expects " + std::to_string(nrets) +
                         " return value(s) but it returns " + std::to_string(h.rets.size()));
    if (nargs != h.params.size())
      fail(call.loc, "call to '" + call.callee + "' passes " + std::to_string(nargs) +
                         " argument(s) but it takes " + std::to_string(h.params.size()));
    inst.ops[1].func = static_cast<uint32_t>(h.defined);
    inst.ops[1].target = module_.functions[h.defined].begin;
  }
}

void Parser::link_function_addresses() {
  for (const FunctionRef& ref : function_refs_) {
    const FunctionHeader& h = headers_[header_index_.at(ref.name)];
    if (h.is_entry)
      fail(ref.loc, "'" + ref.name + "' is a kernel: only a .func's address can be taken");
    if (h.defined < 0)
      fail(ref.loc, "function '" + ref.name +
                        "' is declared but never defined here: its address cannot be taken");
    const uint32_t f = static_cast<uint32_t>(h.defined);
    const uint64_t a = function_address(f);
    if (ref.in_init) {
      std::vector<uint8_t>& init = module_.symbols[ref.index].init;
      for (unsigned i = 0; i < 8; ++i) init[ref.at + i] = static_cast<uint8_t>(a >> (8 * i));
    } else {
      Operand& op = module_.code[ref.index].ops[ref.at];
      op = Operand{};
      op.kind = Operand::Kind::Imm;
      op.imm = a;
    }
    module_.address_taken.push_back(f);
  }
  auto& taken = module_.address_taken;  // sorted: an indirect call looks its target up
  std::sort(taken.begin(), taken.end());
  taken.erase(std::unique(taken.begin(), taken.end()), taken.end());
}

void Parser::define_system_function(FunctionHeader& h, const SourceLoc& call) {
  // The runtime's functions, with the signatures nvcc and clang declare
  // (b32 return / b64 pointer, b32 line / b64 size as .b or .u/.s types).
  struct Known {
    const char* name;
    SystemFunction kind;
    std::vector<unsigned> rets, params;  // sizes in bytes
    const char* signature;
  };
  static const Known known[] = {
      {"vprintf",
       SystemFunction::Vprintf,
       {4},
       {8, 8},
       "(.param .b32 ret) vprintf(.param .b64 format, .param .b64 args)"},
      {"__assertfail",
       SystemFunction::AssertFail,
       {},
       {8, 8, 4, 8, 8},
       "__assertfail(.param .b64 message, .param .b64 file, .param .b32 line, .param .b64 "
       "function, .param .b64 char_size)"},
  };
  const Known* k = nullptr;
  for (const Known& x : known)
    if (h.name == x.name) k = &x;
  if (!k)
    fail(call, "call to '" + h.name +
                   "', which is declared but never defined in this module (the runtime "
                   "functions warptlm provides are vprintf and __assertfail)");
  auto sizes = [](const std::vector<ParamDecl>& decls) {
    std::vector<unsigned> out;
    for (const ParamDecl& d : decls) out.push_back(static_cast<unsigned>(d.size));
    return out;
  };
  if (h.is_entry || sizes(h.rets) != k->rets || sizes(h.params) != k->params)
    fail(h.loc, "'" + h.name + "' is the CUDA runtime's and must be declared .extern .func " +
                    k->signature);
  Function f;
  f.name = h.name;
  f.system = k->kind;
  f.loc = h.loc;
  f.begin = f.end = static_cast<Pc>(module_.code.size()) * kInstrBytes;
  h.defined = static_cast<int32_t>(module_.functions.size());
  module_.functions.push_back(std::move(f));
}

void Parser::place_extern_shared() {
  // Dynamic shared memory starts after all static shared variables, at the
  // strictest alignment an extern array asks for. The padding before it
  // counts as static, so that the CTA's static + dynamic bytes cover every
  // dynamic byte the launch asked for.
  uint32_t align = 1;
  for (uint32_t id : extern_shared_) align = std::max(align, module_.symbols[id].align);
  if (extern_shared_.empty()) return;
  module_.shared_static_size = align_up(module_.shared_static_size, align);
  for (uint32_t id : extern_shared_) module_.symbols[id].offset = module_.shared_static_size;
}

}  // namespace ptx

Module parse_ptx(const std::string& text, const std::string& source_name) {
  return ptx::Parser(text, source_name).parse();
}

std::string read_ptx_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw PtxError(path, 0, 0, "is a directory, not a PTX file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw PtxError(path, 0, 0, "cannot open PTX file");
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) throw PtxError(path, 0, 0, "cannot read PTX file");
  if (buf.str().find_first_not_of(" \t\r\n") == std::string::npos)
    throw PtxError(path, 0, 0, "empty PTX file (no .version, .target or kernel)");
  return buf.str();
}

Module parse_ptx_file(const std::string& path) { return parse_ptx(read_ptx_file(path), path); }

}  // namespace warptlm
