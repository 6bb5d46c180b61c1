// Structural errors: each is a PtxError at the offending token, never a
// silent skip. (Opcode-specific errors are tested with each opcode family.)
#include <gtest/gtest.h>

#include "parser_test_util.h"

namespace warptlm {
namespace {

using test::expect_body_error;
using test::expect_ptx_error;

TEST(PtxErrors, Instructions) {
  expect_body_error("  frobnicate.u32 %r1;", 1, 3, "unknown instruction 'frobnicate'");
  expect_body_error("  .reg .b32 %r1;\n  mov.u32 %r1, 1\n  ret;", 3, 3,
                    "expected ';' after instruction 'mov.u32', found 'ret'");
  expect_body_error("  ret\n  exit;", 2, 3, "expected ';' after instruction 'ret', found 'exit'");
  expect_body_error("  .reg .b32 %r<3>;\n  add.s32 %r1, , %r2;", 2, 16,
                    "expected an operand, found ','");
  expect_body_error("  .reg .b32 %r1;\n  ld .global.u32 %r1, [%r1];", 2, 6,
                    "expected an operand, found '.global'");
  expect_body_error("  .reg .b32 %r1;\n  mov.u32 %r1, -%r1;", 2, 17, "expected a number after '-'");
  expect_body_error("  .reg .b32 %r1;\n  mov.u32 %r1, 0x1G;", 2, 16, "malformed number '0x1G'");
  expect_body_error("  @ ;", 1, 5, "expected a predicate register after '@'");
  expect_body_error("  ;", 1, 3, "expected an instruction, label or declaration, found ';'");
  expect_body_error("  .entry x;", 1, 3, "unexpected directive '.entry' in function body");
}

TEST(PtxErrors, TypesThatAreNotModelledAreNamed) {
  // fp8 conversions: the type named, not "needs a type suffix"; tf32 is a
  // destination only.
  expect_body_error("  .reg .b32 %r1;\n  .reg .f32 %f1;\n  cvt.rn.f32.tf32 %f1, %r1;", 3, 13,
                    "'cvt' makes a .tf32 from an .f32 only");
  expect_body_error(
      "  .reg .b16 %h1;\n  .reg .f32 %f<3>;\n  cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;", 3, 19,
      "'cvt.e4m3x2': the type .e4m3x2 is not supported");
}

TEST(PtxErrors, Labels) {
  expect_body_error("L1:\n  ret;\nL1:\n  ret;", 3, 1,
                    "duplicate label 'L1' (first defined at line 6)");
  expect_body_error("  bra.uni $L__BB0_9;\n  ret;", 1, 11,
                    "undefined label '$L__BB0_9' in function 'k'");
  expect_body_error(
      "  bra.uni END;\n  ret;\nEND:", 1, 11,
      "branch to label 'END' at the end of function 'k' with no instruction after it");
  // Labels are per function.
  expect_ptx_error(
      ".version 7.0\n.target sm_70\n.func f()\n{\nA:\n ret;\n}\n.func g()\n{\n bra A;\n}\n", 10, 6,
      "undefined label 'A' in function 'g'");
}

TEST(PtxErrors, BracesAndComments) {
  expect_ptx_error(".version 7.0\n.target sm_70\n.entry k()\n{\n  ret;\n", 4, 1,
                   "unterminated body of function 'k': missing '}'");
  expect_ptx_error(".version 7.0\n.target sm_70\n.entry k()\n{\n  {\n  ret;\n", 5, 3,
                   "unterminated '{': missing '}'");
  expect_ptx_error(".version 7.0\n.target sm_70\n.entry k()\n{\n  ret; /* oops\n}\n", 5, 8,
                   "unterminated /* comment");
  expect_ptx_error(".version 7.0\n}\n", 2, 1, "expected a directive at module scope, found '}'");
  expect_ptx_error(".version 7.0\n.entry k()\nret;\n", 3, 1,
                   "expected '{' or ';' after the header");
}

TEST(PtxErrors, ModuleDirectives) {
  expect_ptx_error(".version seven\n", 1, 10, "expected a version number");
  expect_ptx_error(".version 7\n", 1, 10, "expected a version number");
  expect_ptx_error(".version 7.0\n.target gfx90a\n", 2, 9, "unknown target 'gfx90a'");
  expect_ptx_error(".version 7.0\n.target sm_70, map_f64_to_f32\n", 2, 16,
                   "'map_f64_to_f32' is not supported");
  expect_ptx_error(".version 7.0\n.target sm_70, fast\n", 2, 16, "unknown target option 'fast'");
  expect_ptx_error(".version 7.0\n.address_size 48\n", 2, 15, "address size must be 32 or 64");
  expect_ptx_error(".version 7.0\n.alias a, b;\n", 2, 1,
                   "unknown or unsupported directive '.alias' at module scope");
  expect_ptx_error(".version 7.0\nmov.u32 %r1, 1;\n", 2, 1, "expected a directive at module scope");
  expect_ptx_error(".version 7.0\n.visible ret;\n", 2, 10, "expected a declaration after linkage");
  expect_ptx_error(".version 7.0\n.entry k() -> x\n", 2, 12, "expected '{' or ';'");
  expect_ptx_error(".version 7.0\n.entry (.param .b32 r) k()\n", 2, 8,
                   "a kernel (.entry) cannot have return values");
  expect_ptx_error(".version 7.0\n.extern .func f()\n{\n ret;\n}\n", 3, 1,
                   "an .extern function cannot have a body");
  expect_ptx_error(".version 7.0\n.func f(.param .b32 a[])\n", 2, 22,
                   "parameter arrays need a size");
  expect_ptx_error(".version 7.0\n.func f(.param .b32 a = 1)\n", 2, 23,
                   "parameters cannot have initialisers");
}

TEST(PtxErrors, NamesAndFunctionPointers) {
  const std::string h = ".version 7.0\n.target sm_70\n.func f()\n{\n ret;\n}\n";
  // A function's address is a 64-bit value (docs/function-pointers.md).
  expect_ptx_error(h + ".entry k()\n{\n .reg .b32 %r1;\n mov.u32 %r1, f;\n}\n", 10, 15,
                   "a function's address is 64 bits");
  expect_ptx_error(h + ".entry k()\n{\n .reg .b64 %rd1;\n ld.u64 %rd1, [f];\n}\n", 10, 16,
                   "cannot take the address of function 'f'");
  expect_ptx_error(h + ".entry k()\n{\n call.uni k, ();\n}\n", 9, 11, "cannot call kernel 'k'");
}

TEST(PtxErrors, IntegerLiteralsMustFitTheirOperand) {
  // ptxas keeps the low bits of any literal; warptlm refuses one that does not fit.
  expect_body_error("  .reg .b32 %r1;\n  mov.u32 %r1, 4294967297;", 2, 16,
                    "operand 2 of 'mov' is .u32: the literal 4294967297 does not fit in 32 bits "
                    "(allowed: -2147483648 to 4294967295)");
  expect_body_error("  .reg .b16 %h1;\n  mov.u16 %h1, 70000;", 2, 16,
                    "operand 2 of 'mov' is .u16: the literal 70000 does not fit in 16 bits "
                    "(allowed: -32768 to 65535)");
  expect_body_error("  .reg .b32 %r1;\n  add.s32 %r1, %r1, -2147483649;", 2, 21,
                    "the literal -2147483649 does not fit in 32 bits");
  // Signed or unsigned, whatever fits the width passes: clang writes both.
  Module m = test::parse_kernel(
      "  .reg .b16 %h1;\n  .reg .b32 %r1;\n  mov.u32 %r1, -1;\n  mov.s32 %r1, 4294967295;\n"
      "  mov.u16 %h1, -1;\n  mov.s16 %h1, 65535;\n  ret;");
  EXPECT_EQ(m.code.size(), 5u);
}

TEST(PtxErrors, ArraySizesThatWrapOrExceedTheirSpace) {
  const std::string h = ".version 7.0\n.target sm_70\n.address_size 64\n";
  expect_ptx_error(h + ".shared .align 4 .b32 s[4611686018427387904];\n", 4, 23,
                   "variable 's': array size overflows 64 bits (4-byte elements x "
                   "4611686018427387904)");
  expect_ptx_error(h + ".shared .b64 s[9223372036854775807];\n", 4, 14,
                   "array size overflows 64 bits");
  expect_ptx_error(h + ".shared .b8 s[8589934592];\n", 4, 13,
                   "array of 8589934592 bytes (1-byte elements x 8589934592) exceeds the 4 GiB "
                   "(2^32-byte) window of .shared");
  expect_ptx_error(h + ".global .b32 g[1024][1024][1024][1024][1024];\n", 4, 14,
                   "exceeds the 2^48-byte address space of .global");
  expect_ptx_error(h + ".entry k(.param .b8 p[4294967297])\n{\n ret;\n}\n", 4, 21,
                   "parameter 'p': array of 4294967297 bytes");
}

TEST(PtxErrors, SpacesHoldTheirVariablesTogether) {
  const std::string h = ".version 7.0\n.target sm_70\n.address_size 64\n";
  // One .const bank is 64 KiB, as ptxas has it.
  expect_ptx_error(h + ".const .b8 c[65537];\n", 4, 12,
                   "array of 65537 bytes (1-byte elements x 65537) exceeds the 64 KiB bank of "
                   ".const");
  expect_ptx_error(h + ".const .b8 a[40000];\n.const .b8 b[40000];\n", 5, 12,
                   "variable 'b' ends at byte 80000 of the module's .const variables, past the 64 "
                   "KiB bank of .const");
  // Each fits, together they pass the window (and would wrap with enough of them).
  expect_ptx_error(h + ".shared .b8 a[4294967295];\n.shared .b8 b[2];\n", 5, 13,
                   "variable 'b' ends at byte 4294967297 of the module's .shared variables");
  expect_ptx_error(h + ".entry k()\n{\n .local .b8 a[4294967295];\n .local .b8 b[16];\n ret;\n}\n",
                   7, 13,
                   "variable 'b' ends at byte 4294967311 of the function's .local variables");
}

TEST(PtxErrors, VersionsAreSmallMajorMinorPairs) {
  const std::string tail = "\n.target sm_70\n.address_size 64\n";
  expect_ptx_error(".version 18446744073709551616.0" + tail, 1, 10,
                   "'18446744073709551616.0' is not a PTX ISA version");
  expect_ptx_error(".version 0.5" + tail, 1, 10, "is not a PTX ISA version");
  expect_ptx_error(".version 7.123" + tail, 1, 10, "is not a PTX ISA version");
  EXPECT_NO_THROW(parse_ptx(".version 8.5" + tail));
  EXPECT_NO_THROW(parse_ptx(".version 10.0" + tail));
}

TEST(PtxErrors, MessagesQuoteABoundedPrintableExcerpt) {
  // An 8 MB name is quoted by its start, not echoed whole.
  const std::string name(8 << 20, 'a');
  try {
    parse_ptx(".version 7.0\n.target sm_70\n.address_size 64\n.entry k()\n{\n  " + name +
              " %r1;\n}\n");
    ADD_FAILURE() << "no PtxError";
  } catch (const PtxError& e) {
    EXPECT_LT(std::string(e.what()).size(), 1200u);
    EXPECT_EQ(e.line(), 6u);
    EXPECT_EQ(e.col(), 3u);
  }
  // A NUL byte (and any control byte) is shown escaped.
  std::string ptx = ".version 7.0\n.target sm_70\n";
  ptx += '\0';
  try {
    parse_ptx(ptx);
    ADD_FAILURE() << "no PtxError";
  } catch (const PtxError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\0'), std::string::npos);
    EXPECT_NE(what.find("\\x00"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace warptlm
