#include "frontend/ptx_lexer.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "frontend/ptx_error.h"

namespace warptlm {

namespace {

bool is_follow(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
unsigned hex_value(char c) {
  if (is_digit(c)) return c - '0';
  return (c | 0x20) - 'a' + 10;
}

class Lexer {
 public:
  Lexer(const std::string& text, const std::string& source) : text_(text), source_(source) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    for (;;) {
      skip_blanks_and_comments();
      Token t;
      t.line = line_;
      t.col = col_;
      t.begin = pos_;
      if (pos_ >= text_.size()) {
        t.kind = TokKind::End;
        t.end = pos_;
        out.push_back(std::move(t));
        return out;
      }
      lex_one(t);
      t.end = pos_;
      out.push_back(std::move(t));
    }
  }

 private:
  char peek(size_t k = 0) const { return pos_ + k < text_.size() ? text_[pos_ + k] : '\0'; }

  void advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }

  [[noreturn]] void fail(uint32_t line, uint32_t col, const std::string& message) const {
    throw PtxError(source_, line, col, message);
  }

  void skip_to_eol() {
    while (pos_ < text_.size() && text_[pos_] != '\n') advance();
  }

  void skip_blanks_and_comments() {
    for (;;) {
      char c = peek();
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
        advance();
      } else if (c == '/' && peek(1) == '/') {
        skip_to_eol();
      } else if (c == '/' && peek(1) == '*') {
        uint32_t line = line_, col = col_;
        advance();
        advance();
        while (!(peek() == '*' && peek(1) == '/')) {
          if (pos_ >= text_.size()) fail(line, col, "unterminated /* comment");
          advance();
        }
        advance();
        advance();
      } else if (c == '@' && peek(1) == '@') {
        // Old nvcc -G output carries raw DWARF as `@@DWARF ...` lines.
        skip_to_eol();
      } else {
        return;
      }
    }
  }

  void lex_one(Token& t) {
    char c = peek();
    if (is_digit(c)) {
      lex_number(t);
    } else if (c == '.' && is_follow(peek(1))) {
      lex_directive(t);
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' ||
               c == '%') {
      lex_ident(t);
    } else if (c == '"') {
      lex_string(t);
    } else if (std::strchr(",;:[]{}()+-|!@<>=", c) != nullptr) {
      t.kind = TokKind::Punct;
      t.text = std::string(1, c);
      advance();
    } else {
      std::string shown = (c >= 32 && c < 127) ? std::string(1, c) : "\\x" + to_hex(c);
      fail(t.line, t.col, "unexpected character '" + shown + "'");
    }
  }

  static std::string to_hex(char c) {
    static const char* digits = "0123456789abcdef";
    unsigned v = static_cast<unsigned char>(c);
    return std::string{digits[v >> 4], digits[v & 15]};
  }

  void lex_ident(Token& t) {
    t.kind = TokKind::Ident;
    size_t start = pos_;
    char first = peek();
    advance();
    while (is_follow(peek())) advance();
    t.text = text_.substr(start, pos_ - start);
    // `%` alone is no name; `_` and `$` alone are (the sink, a label char).
    if (first == '%' && t.text.size() == 1) fail(t.line, t.col, "expected a name after '%'");
  }

  void lex_directive(Token& t) {
    t.kind = TokKind::Directive;
    size_t start = pos_;
    advance();
    for (;;) {
      while (is_follow(peek())) advance();
      // Qualified modifiers such as .shared::cta or .L2::evict_last.
      if (peek() == ':' && peek(1) == ':' && is_follow(peek(2))) {
        advance();
        advance();
        continue;
      }
      break;
    }
    t.text = text_.substr(start, pos_ - start);
  }

  void lex_string(Token& t) {
    t.kind = TokKind::String;
    advance();
    std::string value;
    for (;;) {
      char c = peek();
      if (pos_ >= text_.size() || c == '\n') fail(t.line, t.col, "unterminated string literal");
      if (c == '"') {
        advance();
        break;
      }
      if (c == '\\' && pos_ + 1 < text_.size() && text_[pos_ + 1] != '\n') {
        advance();
        c = peek();
      }
      value += c;
      advance();
    }
    t.text = std::move(value);
  }

  void lex_number(Token& t) {
    t.kind = TokKind::Number;
    size_t start = pos_;
    while (is_digit(peek())) advance();
    bool decimal_float = false;
    if (peek() == '.' && is_digit(peek(1))) {
      decimal_float = true;
      advance();
      while (is_digit(peek())) advance();
    }
    char e1 = peek(1);
    if ((peek() == 'e' || peek() == 'E') &&
        (is_digit(e1) || ((e1 == '+' || e1 == '-') && is_digit(peek(2))))) {
      decimal_float = true;
      advance();
      if (peek() == '+' || peek() == '-') advance();
      while (is_digit(peek())) advance();
    }
    // Trailing name characters belong to the literal (0x1F, 0f3F800000, 7U);
    // if they do not decode, the whole run is one malformed number.
    while (is_follow(peek())) advance();
    t.text = text_.substr(start, pos_ - start);
    if (decimal_float) {
      decode_decimal_float(t);
    } else {
      decode_integer_or_bits(t);
    }
  }

  [[noreturn]] void malformed(const Token& t) const {
    fail(t.line, t.col, "malformed number '" + t.text + "'");
  }

  void decode_decimal_float(Token& t) const {
    const char* s = t.text.c_str();
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(s, &end);
    if (end != s + t.text.size()) malformed(t);
    if (errno == ERANGE && (v > 1.0 || v < -1.0))
      fail(t.line, t.col, "floating-point literal '" + t.text + "' is out of range");
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    t.num = NumKind::F64;
    t.bits = bits;
  }

  void decode_integer_or_bits(Token& t) const {
    std::string s = t.text;
    if (s.size() >= 2 && s[0] == '0' &&
        (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
      size_t digits = (s[1] == 'f' || s[1] == 'F') ? 8 : 16;
      if (s.size() != 2 + digits) malformed(t);
      uint64_t v = 0;
      for (size_t i = 2; i < s.size(); ++i) {
        if (!is_hex(s[i])) malformed(t);
        v = (v << 4) | hex_value(s[i]);
      }
      t.num = digits == 8 ? NumKind::F32 : NumKind::F64;
      t.bits = v;
      return;
    }
    if (!s.empty() && (s.back() == 'U' || s.back() == 'u')) s.pop_back();  // unsigned suffix
    unsigned base = 10;
    size_t i = 0;
    if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
      base = 16;
      i = 2;
    } else if (s.size() >= 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
      base = 2;
      i = 2;
    } else if (s.size() >= 2 && s[0] == '0') {
      base = 8;
      i = 1;
    }
    if (i >= s.size()) malformed(t);
    uint64_t v = 0;
    for (; i < s.size(); ++i) {
      char c = s[i];
      if (!is_hex(c)) malformed(t);
      unsigned d = hex_value(c);
      if (d >= base) malformed(t);
      if (v > (~uint64_t(0) - d) / base)
        fail(t.line, t.col, "integer literal '" + t.text + "' does not fit in 64 bits");
      v = v * base + d;
    }
    t.num = NumKind::Int;
    t.bits = v;
  }

  const std::string& text_;
  const std::string& source_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  uint32_t col_ = 1;
};

}  // namespace

std::vector<Token> lex_ptx(const std::string& text, const std::string& source_name) {
  return Lexer(text, source_name).run();
}

std::string describe(const Token& token) {
  // A token of hostile input may be megabytes long: quote its start.
  constexpr size_t kShown = 64;
  std::string text = token.text.substr(0, kShown);
  if (token.text.size() > kShown) text += "... (" + std::to_string(token.text.size()) + " bytes)";
  switch (token.kind) {
    case TokKind::End:
      return "end of input";
    case TokKind::String:
      return "string \"" + text + "\"";
    default:
      return "'" + text + "'";
  }
}

}  // namespace warptlm
