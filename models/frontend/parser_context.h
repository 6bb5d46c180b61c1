// The recursive-descent PTX parser. One Parser reads one module; its member
// functions are spread over several files by job:
//   parser_context.cc      token cursor, scopes, errors, layout helpers
//   ptx_parser.cc          module-level directives, function headers, linking
//   parser_decls.cc        .reg and variable declarations, symbol layout
//   parser_init.cc         variable initialisers
//   parser_body.cc         function bodies: scopes, labels, instructions
//   parser_operands.cc     operand syntax
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/ir.h"
#include "frontend/parser_decoder.h"
#include "frontend/ptx_lexer.h"

namespace warptlm::ptx {

// What a name in scope denotes.
struct Entity {
  enum class Kind : uint8_t { Reg, Symbol };
  Kind kind = Kind::Reg;
  uint32_t index = 0;  // into Function::regs or Module::symbols
};

// A parameter or return value in a function header. Materialised as a Symbol
// only when the header belongs to a definition.
struct ParamDecl {
  std::string name;
  Type type = Type::B8;
  uint64_t size = 0;
  uint32_t align = 1;
  SourceLoc loc;
};

// Every .entry/.func seen, declared or defined, by name.
struct FunctionHeader {
  std::string name;
  bool is_entry = false;
  std::vector<ParamDecl> rets, params;
  SourceLoc loc;
  int32_t defined = -1;  // index in Module::functions once the body is parsed
};

class Parser {
 public:
  Parser(const std::string& text, const std::string& source_name);
  Module parse();

 private:
  // ---- token cursor and diagnostics (parser_context.cc) ----
  const Token& peek(size_t k = 0) const;
  const Token& next();
  bool accept_punct(char c);
  const Token& expect_punct(char c, const std::string& context);
  const Token& expect_ident(const std::string& what);
  uint64_t expect_integer(const std::string& what);
  [[noreturn]] void fail(const Token& at, const std::string& message) const;
  [[noreturn]] void fail(SourceLoc at, const std::string& message) const;
  static SourceLoc loc_of(const Token& t) { return SourceLoc{t.line, t.col}; }

  // ---- scopes (parser_context.cc) ----
  void push_scope() { scopes_.emplace_back(); }
  void pop_scope() { scopes_.pop_back(); }
  void declare(const std::string& name, Entity entity, SourceLoc at);
  const Entity* lookup(const std::string& name) const;
  bool in_function() const { return fn_ >= 0; }
  Function& function() { return module_.functions[fn_]; }

  // ---- module level (ptx_parser.cc) ----
  void parse_module_item();
  void parse_target();
  void parse_function(bool is_entry, bool is_extern);
  void parse_performance_directives(const FunctionHeader& header);
  void check_redeclaration(const FunctionHeader& old_h, const FunctionHeader& new_h,
                           const Token& at);
  void begin_function(FunctionHeader& header);
  void skip_section();
  void skip_line_directive(const Token& keyword);
  void link_calls();
  // Resolves the function names used as values (function_refs_) to
  // function_address() numbers and fills Module::address_taken.
  void link_function_addresses();
  // Defines the runtime function (vprintf, __assertfail) that header `h`
  // declares and a call at `call` uses, or fails for any other undefined one.
  void define_system_function(FunctionHeader& h, const SourceLoc& call);
  void place_extern_shared();

  // ---- declarations (parser_decls.cc) ----
  struct VarAttrs {
    Type type = Type::None;
    uint32_t align = 0;  // 0 = natural
    unsigned vec = 1;
    SourceLoc type_loc;
  };
  VarAttrs parse_var_attrs(Space space, bool in_header);
  std::vector<ParamDecl> parse_param_list();
  ParamDecl parse_param_decl();
  void parse_variable(Space space, bool is_extern);
  void parse_reg_decl();
  uint32_t add_symbol(Symbol symbol, const Token& name_tok);
  void lay_out(Symbol& symbol, bool kernel_param);

  // ---- initialisers (parser_init.cc) ----
  void parse_initializer(Symbol& symbol, const std::vector<uint64_t>& dims, unsigned vec,
                         bool unsized_first);
  void parse_init_list(Symbol& symbol, const std::vector<uint64_t>& extents, size_t level,
                       uint64_t first_elem, uint64_t* max_elem);
  void store_init_value(Symbol& symbol, uint64_t elem);

  // ---- function bodies (parser_body.cc) ----
  void parse_body(const Token& open);
  void parse_label(const Token& name);
  // name: .callprototype (rets) _ (params);  -- the signature of an indirect call.
  void parse_call_prototype(const Token& name);
  void parse_instruction();
  std::string instruction_text(size_t first_tok, size_t end_tok) const;
  void finish_function();
  uint32_t carry_flag_reg();

  // ---- operands (parser_operands.cc) ----
  RawOperand parse_operand(bool label_context);
  RawOperand parse_address();
  RawOperand parse_vector();
  RawOperand parse_name_operand(const Token& name, bool label_context);
  RawOperand parse_number_operand(bool negative);
  void parse_call_operands(std::vector<RawOperand>* ops);
  RawOperand parse_param_name_list(const char* what);

  const std::string& text_;
  std::string source_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;

  Module module_;
  // scopes_[0] is module scope; a function adds its own and one per { }.
  std::vector<std::unordered_map<std::string, Entity>> scopes_;
  std::vector<FunctionHeader> headers_;
  std::unordered_map<std::string, size_t> header_index_;
  std::vector<uint32_t> extern_shared_;

  struct PendingCall {
    size_t inst;
    std::string callee;
    SourceLoc loc;
  };
  std::vector<PendingCall> calls_;
  // A function's name used as a value: operand `at` of instruction `index`
  // (mov), or the 8 bytes at offset `at` of symbol `index`'s initialiser.
  struct FunctionRef {
    bool in_init = false;
    size_t index = 0;
    uint64_t at = 0;
    std::string name;
    SourceLoc loc;
  };
  std::vector<FunctionRef> function_refs_;
  // The current function's call prototypes: parameter and return sizes.
  struct CallPrototype {
    std::vector<uint64_t> rets, params;
  };
  std::unordered_map<std::string, CallPrototype> prototypes_;

  // The function being parsed.
  int32_t fn_ = -1;
  int64_t carry_reg_ = -1;  // its hidden carry register, once declared
  struct PendingBranch {
    size_t inst;
    size_t op;
    std::string label;
    SourceLoc loc;
  };
  std::vector<PendingBranch> branches_;
  std::unordered_map<std::string, SourceLoc> label_locs_;
};

// Rounds `value` up to a multiple of `align` (a power of two).
inline uint64_t align_up(uint64_t value, uint64_t align) {
  return (value + align - 1) & ~(align - 1);
}

}  // namespace warptlm::ptx
