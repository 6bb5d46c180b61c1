// Function pointers (tests/data/ptx/fnptr: nvcc's PTX of a table of device
// functions and of a pointer taken in code): the addresses in a .global
// initialiser and from mov, calls through a register with a
// .callprototype, and clear errors for what is not supported or wrong.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/texture_launches.h"
#include "exec/functional_executor.h"
#include "exec/prepared_program.h"
#include "frontend/ptx_error.h"
#include "frontend/ptx_parser.h"

namespace warptlm {
namespace {

using namespace warptlm::testing;

const Module& fnptr_module() {
  static const Module m =
      parse_ptx_file(std::string(WARPTLM_TEST_DATA) + "/ptx/fnptr/fnptr.sm75.ptx");
  return m;
}

const Program& fnptr_program() {
  static const Program p = prepare_program(fnptr_module(), "ipdom");
  return p;
}

TEST(FunctionPointers, TheInitialiserHoldsTheFunctionsAddresses) {
  const Module& m = fnptr_module();
  const Symbol* table = nullptr;
  for (const Symbol& s : m.symbols)
    if (s.name == "table") table = &s;
  ASSERT_NE(table, nullptr);
  ASSERT_EQ(table->init.size(), 24u);
  const char* names[] = {"_Z6add_opii", "_Z6mul_opii", "_Z6max_opii"};
  for (int i = 0; i < 3; ++i) {
    uint64_t v = 0;
    for (int b = 0; b < 8; ++b) v |= uint64_t(table->init[size_t(i) * 8 + b]) << (8 * b);
    const Function* f = m.find_function(names[i]);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(v, function_address(static_cast<uint32_t>(f - m.functions.data()))) << names[i];
  }
  EXPECT_EQ(m.address_taken.size(), 3u);
}

TEST(FunctionPointers, ACallThroughATableEntryRunsThatFunction) {
  const int n = 200;
  std::vector<int32_t> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = i * 3 - 250;
    b[i] = 17 - i;
  }
  for (int which = 0; which < 3; ++which) {
    SCOPED_TRACE("table entry " + std::to_string(which));
    LaunchSpec l;
    l.grid = {2, 1, 1};
    l.block = {128, 1, 1};
    l.buffers = {typed_buffer("a", a), typed_buffer("b", b),
                 typed_buffer("out", std::vector<int32_t>(n, -1))};
    l.args = {KernelArg::buffer_arg(0), KernelArg::buffer_arg(1), KernelArg::buffer_arg(2),
              KernelArg::scalar(Type::S32, uint32_t(n)),
              KernelArg::scalar(Type::S32, uint32_t(which))};
    run_functional(fnptr_program(), "apply_table", l, ExecConfig{});
    const std::vector<int32_t> out = typed_values<int32_t>(l.buffers[2]);
    for (int i = 0; i < n; ++i) {
      const int32_t want = which == 0   ? a[i] + b[i]
                           : which == 1 ? a[i] * b[i]
                                        : std::max(a[i], b[i]);
      ASSERT_EQ(out[i], want) << "element " << i;
    }
  }
}

TEST(FunctionPointers, APointerTakenInCodeIsPassedDownAndCalledInALoop) {
  const int rows = 64, row = 9;
  std::vector<int32_t> in(size_t(rows) * row);
  for (size_t i = 0; i < in.size(); ++i) in[i] = int32_t(i * 29 % 71) - 30;
  for (int use_max : {0, 1}) {
    LaunchSpec l;
    l.grid = {2, 1, 1};
    l.block = {32, 1, 1};
    l.buffers = {typed_buffer("in", in), typed_buffer("out", std::vector<int32_t>(rows, -1))};
    l.args = {KernelArg::buffer_arg(0), KernelArg::buffer_arg(1),
              KernelArg::scalar(Type::S32, uint32_t(row)),
              KernelArg::scalar(Type::S32, uint32_t(use_max))};
    run_functional(fnptr_program(), "fold_rows", l, ExecConfig{});
    const std::vector<int32_t> out = typed_values<int32_t>(l.buffers[1]);
    for (int r = 0; r < rows; ++r) {
      int32_t want = in[size_t(r) * row];
      for (int k = 1; k < row; ++k) {
        const int32_t v = in[size_t(r) * row + k];
        want = use_max ? std::max(want, v) : want + v;
      }
      ASSERT_EQ(out[r], want) << "row " << r << (use_max ? " (max)" : " (sum)");
    }
  }
}

TEST(FunctionPointers, LanesThatCallDifferentFunctionsAreAFaultNamingThem) {
  LaunchSpec l;
  l.grid = {1, 1, 1};
  l.block = {32, 1, 1};
  l.buffers = {typed_buffer("a", std::vector<int32_t>(32, 2)),
               typed_buffer("b", std::vector<int32_t>(32, 3)),
               typed_buffer("out", std::vector<int32_t>(32, 0))};
  l.args = {KernelArg::buffer_arg(0), KernelArg::buffer_arg(1), KernelArg::buffer_arg(2)};
  try {
    run_functional(fnptr_program(), "per_thread", l, ExecConfig{});
    FAIL() << "a divergent indirect call ran";
  } catch (const KernelFault& f) {
    const std::string e = f.what();
    EXPECT_NE(e.find("kernel 'per_thread'"), std::string::npos) << e;
    EXPECT_NE(e.find("lanes 0 and 1 call different functions"), std::string::npos) << e;
    EXPECT_NE(e.find("thread (1,0,0)"), std::string::npos) << e;
  }
}

std::string parse_error(const std::string& text) {
  try {
    parse_ptx(text, "bad.ptx");
  } catch (const PtxError& e) {
    return e.what();
  }
  return "";
}

const std::string kHead = ".version 7.0\n.target sm_75\n.address_size 64\n";
const std::string kAddOne =
    ".func (.param .b32 r) add_one(.param .b32 x) {\n.reg .b32 %r<2>;\n"
    "ld.param.b32 %r1, [x];\nadd.s32 %r1, %r1, 1;\nst.param.b32 [r], %r1;\nret;\n}\n";

TEST(FunctionPointers, BadUsesAreParseErrorsAtTheirPlace) {
  // A prototype that does not match the call.
  std::string e =
      parse_error(kHead + kAddOne +
                  ".entry k() {\n.reg .b64 %rd<2>;\nmov.u64 %rd1, add_one;\n"
                  "{\n.param .b32 a;\n.param .b32 r;\n"
                  "p : .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);\n"
                  "call (r), %rd1, (a), p;\n}\nret;\n}\n");
  EXPECT_NE(e.find("bad.ptx:18:"), std::string::npos) << e;
  EXPECT_NE(e.find("passes 1 argument(s) and 1 return value(s), but prototype 'p' has 2 and 1"),
            std::string::npos)
      << e;
  // An indirect call without its prototype.
  e = parse_error(kHead + kAddOne +
                  ".entry k() {\n.reg .b64 %rd<2>;\nmov.u64 %rd1, add_one;\n"
                  "{\n.param .b32 a;\n.param .b32 r;\ncall (r), %rd1, (a);\n}\nret;\n}\n");
  EXPECT_NE(e.find("before the call prototype of an indirect call"), std::string::npos) << e;
  // A kernel's address.
  e = parse_error(kHead +
                  ".entry other() { ret; }\n.entry k() {\n.reg .b64 %rd<2>;\n"
                  "mov.u64 %rd1, other;\nret;\n}\n");
  EXPECT_NE(e.find("'other' is a kernel: only a .func's address can be taken"), std::string::npos)
      << e;
  // A function's address in a 32-bit element.
  e = parse_error(kHead + kAddOne + ".global .u32 t[1] = {add_one};\n");
  EXPECT_NE(e.find("its elements must be .u64, .s64 or .b64"), std::string::npos) << e;
  // A variable's address as an initialiser is still refused by name.
  e = parse_error(kHead + ".global .u32 x;\n.global .u64 p = x;\n");
  EXPECT_NE(e.find("address initialisers of variables ('x') are not supported"), std::string::npos)
      << e;
}

TEST(FunctionPointers, ACallThroughSomethingElseIsAFault) {
  // %rd1 holds a data address, not a function's.
  const Module m = parse_ptx(kHead + kAddOne +
                                 ".entry k() {\n.reg .b64 %rd<2>;\nmov.u64 %rd1, 4096;\n"
                                 "{\n.param .b32 a;\n.param .b32 r;\n"
                                 "p : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
                                 "call (r), %rd1, (a), p;\n}\nret;\n}\n",
                             "bad.ptx");
  const Program p = prepare_program(m, "ipdom");
  LaunchSpec l;
  l.grid = {1, 1, 1};
  l.block = {32, 1, 1};
  try {
    run_functional(p, "k", l, ExecConfig{});
    FAIL() << "the call ran";
  } catch (const KernelFault& f) {
    const std::string e = f.what();
    EXPECT_NE(e.find("indirect call through 0x1000, which is not the address of a function"),
              std::string::npos)
        << e;
  }
}

}  // namespace
}  // namespace warptlm
