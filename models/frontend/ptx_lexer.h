// Splits PTX source into tokens. Comments, `@@DWARF` lines and whitespace are
// dropped here so the parser only ever sees meaningful tokens; every token
// keeps its 1-based line/column (columns count bytes) for diagnostics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace warptlm {

enum class TokKind : uint8_t {
  End,        // end of input (always the last token)
  Ident,      // foo, %r1, $L__BB0_2, _ (the sink)
  Directive,  // .reg, .u32, .x, .shared::cta -- text keeps the leading dot
  Number,     // integer or floating literal; value decoded into `num` / `bits`
  String,     // "..." -- text is the contents without the quotes
  Punct,      // one of , ; : [ ] { } ( ) + - | ! @ < > =
};

enum class NumKind : uint8_t {
  Int,  // decimal, hex, octal or binary integer; `bits` is the value
  F32,  // 0fXXXXXXXX; `bits` holds the IEEE single bits
  F64,  // 0dXXXXXXXXXXXXXXXX or a decimal float literal; `bits` holds IEEE double bits
};

struct Token {
  TokKind kind = TokKind::End;
  std::string text;
  uint32_t line = 0;
  uint32_t col = 0;
  size_t begin = 0;  // byte range [begin, end) in the source
  size_t end = 0;
  NumKind num = NumKind::Int;
  uint64_t bits = 0;

  bool is_punct(char c) const { return kind == TokKind::Punct && text[0] == c; }
  bool is_directive(const char* name) const { return kind == TokKind::Directive && text == name; }
  bool is_ident() const { return kind == TokKind::Ident; }
};

// Throws PtxError (naming source_name) for a character that starts no token,
// a malformed or out-of-range number, or an unterminated comment or string.
std::vector<Token> lex_ptx(const std::string& text, const std::string& source_name);

// Human-readable form of a token for messages: "'foo'", "end of input".
std::string describe(const Token& token);

}  // namespace warptlm
