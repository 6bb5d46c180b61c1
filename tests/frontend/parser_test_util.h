// Helpers shared by the parser tests: wrap a kernel body into a module, and
// check that parsing fails at an exact position with a given message.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "frontend/ptx_parser.h"

namespace warptlm::test {

// A module holding one kernel `k` with `params` and body `body`. The body's
// first line is line kBodyLine of the module.
constexpr uint32_t kBodyLine = 6;
inline std::string kernel_ptx(const std::string& body, const std::string& params = "") {
  return ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k(" + params + ")\n{\n" +
         body + "\n}\n";
}

inline Module parse_kernel(const std::string& body, const std::string& params = "") {
  return parse_ptx(kernel_ptx(body, params));
}

// Parses `ptx` (named "t.ptx") and expects a PtxError at line:col whose
// message contains `what`.
inline void expect_ptx_error(const std::string& ptx, uint32_t line, uint32_t col,
                             const std::string& what) {
  try {
    parse_ptx(ptx, "t.ptx");
    ADD_FAILURE() << "parsed without error; expected \"" << what << "\"";
  } catch (const PtxError& e) {
    EXPECT_EQ(e.file(), "t.ptx");
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_EQ(e.col(), col) << e.what();
    EXPECT_NE(e.message().find(what), std::string::npos) << e.what();
  }
}

// The same for a kernel body: `line` counts from the body's first line (1).
inline void expect_body_error(const std::string& body, uint32_t line, uint32_t col,
                              const std::string& what) {
  expect_ptx_error(kernel_ptx(body), kBodyLine + line - 1, col, what);
}

// The only instruction of a one-instruction kernel after `decls`.
inline Instruction decode_one(const std::string& decls, const std::string& inst) {
  Module m = parse_kernel(decls + "\n" + inst + ";");
  EXPECT_EQ(m.code.size(), 1u);
  return m.code.at(0);
}

// Registers most instruction tests use.
inline constexpr char kStdRegs[] =
    ".reg .pred %p<4>; .reg .b16 %rs<4>; .reg .b32 %r<8>; .reg .b64 %rd<8>;"
    " .reg .f32 %f<8>; .reg .f64 %fd<8>;";

// The memory and synchronisation tests: kStdRegs and a 64-byte .shared array
// `sh`. decode_mem() decodes one instruction after them; expect_mem_error()
// expects `inst` to fail at column `col` of its line with `what`.
inline std::string mem_decls() { return std::string(kStdRegs) + " .shared .align 8 .b8 sh[64];"; }
inline Instruction decode_mem(const std::string& inst) { return decode_one(mem_decls(), inst); }
inline void expect_mem_error(const std::string& inst, uint32_t col, const std::string& what) {
  expect_body_error(mem_decls() + "\n" + inst + ";", 2, col, what);
}

}  // namespace warptlm::test
