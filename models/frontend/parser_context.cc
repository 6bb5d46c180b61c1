#include "frontend/parser_context.h"

#include "frontend/ptx_error.h"

namespace warptlm::ptx {

Parser::Parser(const std::string& text, const std::string& source_name)
    : text_(text), source_(source_name), tokens_(lex_ptx(text, source_name)) {
  module_.source_name = source_name;
  scopes_.emplace_back();  // module scope
}

const Token& Parser::peek(size_t k) const {
  size_t i = pos_ + k;
  return i < tokens_.size() ? tokens_[i] : tokens_.back();  // back() is End
}

const Token& Parser::next() {
  const Token& t = tokens_[pos_];
  if (pos_ + 1 < tokens_.size()) ++pos_;
  return t;
}

bool Parser::accept_punct(char c) {
  if (!peek().is_punct(c)) return false;
  next();
  return true;
}

const Token& Parser::expect_punct(char c, const std::string& context) {
  const Token& t = peek();
  if (!t.is_punct(c))
    fail(t, "expected '" + std::string(1, c) + "' " + context + ", found " + describe(t));
  return next();
}

const Token& Parser::expect_ident(const std::string& what) {
  const Token& t = peek();
  if (t.kind != TokKind::Ident) fail(t, "expected " + what + ", found " + describe(t));
  return next();
}

uint64_t Parser::expect_integer(const std::string& what) {
  const Token& t = peek();
  if (t.kind != TokKind::Number || t.num != NumKind::Int)
    fail(t, "expected " + what + " (an integer), found " + describe(t));
  next();
  return t.bits;
}

void Parser::fail(const Token& at, const std::string& message) const {
  throw PtxError(source_, at.line, at.col, message);
}

void Parser::fail(SourceLoc at, const std::string& message) const {
  throw PtxError(source_, at.line, at.col, message);
}

void Parser::declare(const std::string& name, Entity entity, SourceLoc at) {
  auto& scope = scopes_.back();
  if (scope.count(name) != 0) fail(at, "redeclaration of '" + name + "' in the same scope");
  scope.emplace(name, entity);
}

const Entity* Parser::lookup(const std::string& name) const {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto found = it->find(name);
    if (found != it->end()) return &found->second;
  }
  return nullptr;
}

}  // namespace warptlm::ptx
