// The PTX lexer: token kinds, literal decoding, skipped text, positions and
// lexical errors.
#include <gtest/gtest.h>

#include <cstring>

#include "frontend/ptx_error.h"
#include "frontend/ptx_lexer.h"

namespace warptlm {
namespace {

std::vector<Token> lex(const std::string& s) { return lex_ptx(s, "t.ptx"); }

uint64_t double_bits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

void expect_lex_error(const std::string& text, uint32_t line, uint32_t col,
                      const std::string& what) {
  try {
    lex(text);
    ADD_FAILURE() << "lexed without error; expected " << what;
  } catch (const PtxError& e) {
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_EQ(e.col(), col) << e.what();
    EXPECT_NE(e.message().find(what), std::string::npos) << e.what();
  }
}

TEST(PtxLexer, KindsAndPositions) {
  auto t = lex("ld.global.f32 %f1, [%rd2+-4];\n@!%p1 bra $L__BB0_2;");
  ASSERT_EQ(t.size(), 19u);
  EXPECT_EQ(t[0].kind, TokKind::Ident);
  EXPECT_EQ(t[0].text, "ld");
  EXPECT_EQ(t[1].kind, TokKind::Directive);
  EXPECT_EQ(t[1].text, ".global");
  EXPECT_EQ(t[1].col, 3u);
  EXPECT_EQ(t[2].text, ".f32");
  EXPECT_EQ(t[3].text, "%f1");
  EXPECT_EQ(t[3].col, 15u);
  EXPECT_TRUE(t[4].is_punct(','));
  EXPECT_TRUE(t[5].is_punct('['));
  EXPECT_TRUE(t[7].is_punct('+'));
  EXPECT_TRUE(t[8].is_punct('-'));
  EXPECT_EQ(t[9].kind, TokKind::Number);
  EXPECT_EQ(t[9].bits, 4u);
  EXPECT_TRUE(t[12].is_punct('@'));
  EXPECT_EQ(t[12].line, 2u);
  EXPECT_EQ(t[12].col, 1u);
  EXPECT_TRUE(t[13].is_punct('!'));
  EXPECT_EQ(t[16].text, "$L__BB0_2");
  EXPECT_EQ(t.back().kind, TokKind::End);
}

TEST(PtxLexer, ByteRangesCoverTheText) {
  std::string src = "mov.u32  %r1, 7;";
  auto t = lex(src);
  EXPECT_EQ(src.substr(t[2].begin, t[2].end - t[2].begin), "%r1");
  EXPECT_EQ(t[2].begin, t[1].end + 2);  // the two spaces
}

TEST(PtxLexer, IntegerLiterals) {
  auto t = lex("42 0x1F 0X10 017 0b101 7U 0xFFFFFFFFU 0 18446744073709551615");
  const uint64_t want[] = {42, 31, 16, 15, 5, 7, 0xFFFFFFFFu, 0, ~uint64_t(0)};
  for (size_t i = 0; i < 9; ++i) {
    EXPECT_EQ(t[i].kind, TokKind::Number) << i;
    EXPECT_EQ(t[i].num, NumKind::Int) << i;
    EXPECT_EQ(t[i].bits, want[i]) << t[i].text;
  }
}

TEST(PtxLexer, FloatLiterals) {
  auto t = lex("0f3F800000 0fBF000000 0d4004000000000000 1.5 2.5e3 1e-2 0.0");
  EXPECT_EQ(t[0].num, NumKind::F32);
  EXPECT_EQ(t[0].bits, 0x3F800000u);
  EXPECT_EQ(t[1].num, NumKind::F32);
  EXPECT_EQ(t[1].bits, 0xBF000000u);
  EXPECT_EQ(t[2].num, NumKind::F64);
  EXPECT_EQ(t[2].bits, double_bits(2.5));
  EXPECT_EQ(t[3].num, NumKind::F64);
  EXPECT_EQ(t[3].bits, double_bits(1.5));
  EXPECT_EQ(t[4].bits, double_bits(2500.0));
  EXPECT_EQ(t[5].bits, double_bits(0.01));
  EXPECT_EQ(t[6].bits, double_bits(0.0));
  EXPECT_EQ(t[7].kind, TokKind::End);
}

TEST(PtxLexer, DirectivesKeepQualifiedNames) {
  auto t = lex(".shared::cta .v4 .b8");
  EXPECT_EQ(t[0].text, ".shared::cta");
  EXPECT_EQ(t[1].text, ".v4");
  EXPECT_EQ(t[2].text, ".b8");
}

TEST(PtxLexer, SkipsCommentsAndDwarfLines) {
  auto t = lex("// line comment\n/* block\n comment */ ret; @@DWARF .byte 1, 2\nexit;");
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[0].text, "ret");
  EXPECT_EQ(t[0].line, 3u);
  EXPECT_EQ(t[0].col, 13u);
  EXPECT_EQ(t[2].text, "exit");
  EXPECT_EQ(t[2].line, 4u);
}

TEST(PtxLexer, Strings) {
  auto t = lex(".file 1 \"/tmp/a \\\"b\\\".cu\"");
  EXPECT_EQ(t[2].kind, TokKind::String);
  EXPECT_EQ(t[2].text, "/tmp/a \"b\".cu");
  EXPECT_EQ(describe(t[2]), "string \"/tmp/a \"b\".cu\"");
  EXPECT_EQ(describe(t[3]), "end of input");
  EXPECT_EQ(describe(t[0]), "'.file'");
}

TEST(PtxLexer, Errors) {
  expect_lex_error("ret;\n  /* never closed", 2, 3, "unterminated /* comment");
  expect_lex_error("mov.u32 %r1, 0x;", 1, 14, "malformed number '0x'");
  expect_lex_error("mov.u32 %r1, 12ab;", 1, 14, "malformed number '12ab'");
  expect_lex_error("mov.f32 %f1, 0f3F80;", 1, 14, "malformed number '0f3F80'");
  expect_lex_error("mov.u32 %r1, 09;", 1, 14, "malformed number '09'");
  expect_lex_error("mov.u64 %rd1, 18446744073709551616;", 1, 15, "does not fit in 64 bits");
  expect_lex_error("add.s32 %r1, %r2, #3;", 1, 19, "unexpected character '#'");
  expect_lex_error(".file 1 \"abc\n", 1, 9, "unterminated string");
  expect_lex_error("mov.u32 % , 1;", 1, 9, "expected a name after '%'");
  expect_lex_error("x 1.5e999", 1, 3, "out of range");
}

}  // namespace
}  // namespace warptlm
