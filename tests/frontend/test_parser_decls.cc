// Declarations: registers and scopes, variables in every state space,
// initialisers, and the layout of symbols (offsets, sizes, frames).
#include <gtest/gtest.h>

#include <cstring>

#include "parser_test_util.h"

namespace warptlm {
namespace {

using test::expect_body_error;
using test::expect_ptx_error;
using test::parse_kernel;

const Symbol& symbol(const Module& m, const std::string& name) {
  for (const auto& s : m.symbols)
    if (s.name == name) return s;
  ADD_FAILURE() << "no symbol " << name;
  return m.symbols.at(0);
}

std::vector<uint8_t> bytes(std::initializer_list<int> v) {
  std::vector<uint8_t> out;
  for (int b : v) out.push_back(static_cast<uint8_t>(b));
  return out;
}

TEST(PtxDecls, RegisterRangesAndLists) {
  Module m = parse_kernel(
      "  .reg .pred %p<3>;\n  .reg .b32 %r<2>, %x, %y;\n  .reg .f64 %fd1;\n  .reg .b64 %SP;");
  const auto& regs = m.functions[0].regs;
  ASSERT_EQ(regs.size(), 9u);
  EXPECT_EQ(regs[0].name, "%p0");
  EXPECT_EQ(regs[2].name, "%p2");
  EXPECT_EQ(regs[2].type, Type::Pred);
  EXPECT_EQ(regs[3].name, "%r0");
  EXPECT_EQ(regs[4].name, "%r1");
  EXPECT_EQ(regs[5].name, "%x");
  EXPECT_EQ(regs[5].type, Type::B32);
  EXPECT_EQ(regs[6].name, "%y");
  EXPECT_EQ(regs[7].type, Type::F64);
  EXPECT_EQ(regs[8].name, "%SP");
}

TEST(PtxDecls, NestedScopesGetDistinctRegistersAndResolveLexically) {
  Module m = parse_kernel(R"(  .reg .b32 %r<2>;
  {
  .reg .b32 temp;
  mov.b32 temp, %r1;
  }
  {
  .reg .b32 temp;
  .reg .b32 %r1;
  mov.b32 temp, %r1;
  }
  mov.b32 %r0, %r1;)");
  const auto& regs = m.functions[0].regs;
  ASSERT_EQ(regs.size(), 5u);  // %r0 %r1 temp temp %r1(inner)
  ASSERT_EQ(m.code.size(), 3u);
  EXPECT_EQ(m.code[0].ops[0].reg, 2u);
  EXPECT_EQ(m.code[0].ops[1].reg, 1u);
  EXPECT_EQ(m.code[1].ops[0].reg, 3u);  // the second scope's temp
  EXPECT_EQ(m.code[1].ops[1].reg, 4u);  // the shadowing %r1
  EXPECT_EQ(m.code[2].ops[1].reg, 1u);  // the outer %r1 again
  expect_body_error("  {\n  .reg .b32 t;\n  }\n  mov.b32 t, 1;", 4, 11,
                    "undeclared identifier 't'");
  expect_body_error("  .reg .b32 %r<2>;\n  .reg .b32 %r1;", 2, 13,
                    "redeclaration of '%r1' in the same scope");
}

TEST(PtxDecls, ModuleVariablesAndInitialisers) {
  Module m = parse_ptx(R"(.version 7.0
.target sm_70
.address_size 64
.global .align 4 .u32 counter = 7;
.global .s16 neg[3] = {-1, 2, -3};
.visible .global .align 8 .f64 scale = 0d4004000000000000;
.global .f32 fl[3] = {1.5, 0f40000000, 2};
.const .align 16 .b8 table[5] = {1, 2, 0x10};
.const .b32 grid[2][3] = {{1, 2, 3}, {4}};
.global .u8 flat[2][2] = {1, 2, 3};
.global .u32 sized[] = {9, 8, 7};
.global .v2 .f32 vec[2] = {{1.0, 2.0}, {3.0, 4.0}};
.global .v4 .b32 quad;
.global .u64 big = 0xFFFFFFFFFFFFFFFF, small = 3;
)");
  const Symbol& c = symbol(m, "counter");
  EXPECT_EQ(c.space, Space::Global);
  EXPECT_EQ(c.type, Type::U32);
  EXPECT_EQ(c.size, 4u);
  EXPECT_EQ(c.offset, 0u);
  EXPECT_EQ(c.function, -1);
  EXPECT_EQ(c.init, bytes({7, 0, 0, 0}));

  const Symbol& n = symbol(m, "neg");
  EXPECT_EQ(n.offset, 4u);
  EXPECT_EQ(n.align, 2u);
  EXPECT_EQ(n.init, bytes({0xff, 0xff, 2, 0, 0xfd, 0xff}));

  const Symbol& s = symbol(m, "scale");
  EXPECT_EQ(s.offset, 16u);
  double d;
  std::memcpy(&d, s.init.data(), 8);
  EXPECT_EQ(d, 2.5);

  const Symbol& f = symbol(m, "fl");
  ASSERT_EQ(f.init.size(), 12u);
  float fv[3];
  std::memcpy(fv, f.init.data(), 12);
  EXPECT_EQ(fv[0], 1.5f);
  EXPECT_EQ(fv[1], 2.0f);
  EXPECT_EQ(fv[2], 2.0f);

  const Symbol& t = symbol(m, "table");
  EXPECT_EQ(t.space, Space::Const);
  EXPECT_EQ(t.align, 16u);
  EXPECT_EQ(t.offset, 0u);
  EXPECT_EQ(t.init, bytes({1, 2, 16, 0, 0}));

  const Symbol& g = symbol(m, "grid");
  EXPECT_EQ(g.size, 24u);
  EXPECT_EQ(g.offset, 8u);  // after table (5 bytes), aligned to 4
  EXPECT_EQ(g.init,
            bytes({1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(m.const_data_size, 32u);

  EXPECT_EQ(symbol(m, "flat").init, bytes({1, 2, 3, 0}));
  EXPECT_EQ(symbol(m, "sized").size, 12u);
  EXPECT_EQ(symbol(m, "sized").init, bytes({9, 0, 0, 0, 8, 0, 0, 0, 7, 0, 0, 0}));

  const Symbol& v = symbol(m, "vec");
  EXPECT_EQ(v.type, Type::F32);
  EXPECT_EQ(v.size, 16u);
  EXPECT_EQ(v.align, 8u);
  float vv[4];
  std::memcpy(vv, v.init.data(), 16);
  EXPECT_EQ(vv[3], 4.0f);

  const Symbol& q = symbol(m, "quad");
  EXPECT_EQ(q.size, 16u);
  EXPECT_EQ(q.align, 16u);
  EXPECT_TRUE(q.init.empty());

  EXPECT_EQ(symbol(m, "big").init, std::vector<uint8_t>(8, 0xff));
  EXPECT_EQ(symbol(m, "small").init, bytes({3, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(m.global_data_size, symbol(m, "small").offset + 8);
}

TEST(PtxDecls, InitialiserErrors) {
  const std::string h = ".version 7.0\n.target sm_70\n";
  expect_ptx_error(h + ".global .u32 a[2] = {1, 2, 3};\n", 3, 28, "too many initialisers for 'a'");
  expect_ptx_error(h + ".global .u64 p = generic(a);\n", 3, 18,
                   "address initialisers of variables ('generic') are not supported");
  expect_ptx_error(h + ".global .u8 b = 256;\n", 3, 17, "does not fit in .u8");
  expect_ptx_error(h + ".global .u32 c = 1.5;\n", 3, 18,
                   "floating-point literal cannot initialise");
  expect_ptx_error(h + ".global .u32 d[2][2] = {{1, 2, 3}};\n", 3, 32, "too many initialisers");
  expect_ptx_error(h + ".global .u32 e[2] = {{1}};\n", 3, 22, "too many levels of braces");
  expect_ptx_error(h + ".global .u32 f[2][2] = {1, {2}};\n", 3, 28, "mixes values and { } lists");
  expect_ptx_error(h + ".global .u32 g[];\n", 3, 14, "needs a size or an initialiser");
  expect_ptx_error(h + ".shared .u32 s = 1;\n", 3, 16, "only .global and .const");
  expect_ptx_error(h + ".global .u32 x = 1 2;\n", 3, 20, "expected ';' after variable declaration");
}

TEST(PtxDecls, FunctionScopeStaticsLiveInTheModuleSegments) {
  Module m = parse_ptx(R"(.version 7.0
.target sm_70
.global .u32 first = 1;
.entry k()
{
  .global .align 8 .u64 hidden = 5;
  .const .f32 table[2] = {1.0, 2.0};
  ret;
}
)");
  const Symbol& h = symbol(m, "hidden");
  EXPECT_EQ(h.space, Space::Global);
  EXPECT_EQ(h.function, 0);
  EXPECT_EQ(h.offset, 8u);
  EXPECT_EQ(h.init, bytes({5, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(symbol(m, "table").space, Space::Const);
  EXPECT_EQ(m.global_data_size, 16u);
  EXPECT_EQ(m.const_data_size, 8u);
}

TEST(PtxDecls, SharedStaticAndDynamic) {
  Module m = parse_ptx(R"(.version 7.0
.target sm_70
.address_size 64
.extern .shared .align 16 .b8 dyn[];
.shared .align 4 .b8 a[10];
.visible .entry k()
{
  .shared .align 8 .f64 b[3];
  ret;
}
)");
  const Symbol& a = symbol(m, "a");
  const Symbol& b = symbol(m, "b");
  const Symbol& dyn = symbol(m, "dyn");
  EXPECT_EQ(a.offset, 0u);
  EXPECT_EQ(b.offset, 16u);
  EXPECT_EQ(b.function, 0);
  EXPECT_EQ(m.shared_static_size, 48u);  // 40, padded to where the dynamic area starts
  EXPECT_TRUE(dyn.is_extern);
  EXPECT_EQ(dyn.size, 0u);
  EXPECT_EQ(dyn.align, 16u);
  EXPECT_EQ(dyn.offset, 48u);  // 40 rounded up to 16

  Module inner =
      test::parse_kernel("  .extern .shared .align 8 .b8 smem[];\n  .shared .b8 pad[3];\n  ret;");
  EXPECT_EQ(symbol(inner, "smem").function, 0);
  EXPECT_TRUE(symbol(inner, "smem").is_extern);
  EXPECT_EQ(symbol(inner, "smem").offset, 8u);
}

TEST(PtxDecls, LocalDepotAndGenericStackPointer) {
  Module m = parse_kernel(R"(  .local .align 8 .b8 __local_depot0[32];
  .local .u32 extra;
  .reg .b64 %SP;
  .reg .b64 %SPL;
  mov.u64 %SPL, __local_depot0;
  cvta.local.u64 %SP, %SPL;
  st.u32 [%SP+8], 1;)");
  const Symbol& depot = symbol(m, "__local_depot0");
  EXPECT_EQ(depot.space, Space::Local);
  EXPECT_EQ(depot.size, 32u);
  EXPECT_EQ(depot.offset, 0u);
  EXPECT_EQ(depot.function, 0);
  EXPECT_EQ(symbol(m, "extra").offset, 32u);
  EXPECT_EQ(m.functions[0].local_size, 36u);
  EXPECT_EQ(m.code[0].ops[1].kind, Operand::Kind::Symbol);
  EXPECT_EQ(m.code[1].op, Opcode::Cvta);
  EXPECT_EQ(m.code[1].space, Space::Local);
  EXPECT_EQ(m.code[2].space, Space::Generic);
  EXPECT_EQ(m.code[2].ops[0].offset, 8);
}

TEST(PtxDecls, KernelParameterBuffer) {
  Module m = parse_kernel("  ret;",
                          ".param .u32 a, .param .u64 .ptr .global .align 16 p, "
                          ".param .align 8 .b8 s[12], .param .f32 f, .param .v2 .u32 v");
  const Function& k = m.functions[0];
  ASSERT_EQ(k.params.size(), 5u);
  const Symbol& a = m.symbols[k.params[0]];
  const Symbol& p = m.symbols[k.params[1]];
  const Symbol& s = m.symbols[k.params[2]];
  const Symbol& f = m.symbols[k.params[3]];
  const Symbol& v = m.symbols[k.params[4]];
  EXPECT_EQ(a.space, Space::Param);
  EXPECT_EQ(a.offset, 0u);
  EXPECT_EQ(p.offset, 8u);
  EXPECT_EQ(p.align, 8u);  // .ptr .align describes the pointee only
  EXPECT_EQ(s.offset, 16u);
  EXPECT_EQ(s.size, 12u);
  EXPECT_EQ(f.offset, 28u);
  EXPECT_EQ(v.offset, 32u);
  EXPECT_EQ(v.size, 8u);
  EXPECT_EQ(k.param_buffer_size, 40u);
  EXPECT_EQ(k.param_frame_size, 0u);
}

TEST(PtxDecls, FunctionFrameHoldsReturnsParamsAndCallSiteParams) {
  Module m = parse_ptx(R"(.version 7.0
.target sm_70
.address_size 64
.func (.param .b64 ret0) f(.param .b32 x, .param .align 4 .b8 agg[6])
{
  .reg .b32 %r1;
  {
  .param .b32 param0;
  st.param.b32 [param0], %r1;
  call.uni g, (param0);
  }
  {
  .param .b64 param0;
  }
  ret;
}
.func g(.param .b32 y)
{
  ret;
}
)");
  const Function& f = m.functions[0];
  EXPECT_EQ(m.symbols[f.rets[0]].offset, 0u);
  EXPECT_EQ(m.symbols[f.params[0]].offset, 8u);
  EXPECT_EQ(m.symbols[f.params[1]].offset, 12u);
  EXPECT_EQ(symbol(m, "param0").offset, 20u);
  EXPECT_EQ(m.symbols[m.symbols.size() - 2].name, "param0");  // sibling scope's param0
  EXPECT_EQ(m.symbols[m.symbols.size() - 2].offset, 24u);
  EXPECT_EQ(f.param_frame_size, 32u);
  EXPECT_EQ(f.param_buffer_size, 0u);
  EXPECT_EQ(m.functions[1].param_frame_size, 4u);
}

TEST(PtxDecls, DeclarationErrors) {
  expect_body_error("  .reg .v4 .f32 %v;", 1, 8, "vector registers");
  expect_body_error("  .reg %r1;", 1, 8, "expected a register type after .reg");
  expect_body_error("  .local .pred q;", 1, 10, ".pred is only a register type");
  expect_body_error("  .local .align 3 .b8 x[4];", 1, 17, "alignment must be a power of two");
  expect_body_error("  .local .b8 x[0];", 1, 15, "array size must be positive");
  expect_body_error("  .local .b8 x[2][];", 1, 18, "only the first array dimension");
  expect_body_error("  .shared .b32 s; .shared .b32 s;", 1, 32, "redeclaration of 's'");
  expect_ptx_error(".version 7.0\n.reg .b32 %r1;\n", 2, 1, "registers must be declared inside");
  expect_ptx_error(".version 7.0\n.local .b32 l;\n", 2, 1, "module-scope .local");
  expect_ptx_error(".version 7.0\n.extern .global .b32 e;\n", 2, 9, "'.extern .global' variables");
  expect_ptx_error(".version 7.0\n.entry k(.reg .b32 r)\n{\n ret;\n}\n", 2, 10,
                   "register parameters (.reg) are not supported");
  expect_ptx_error(".version 7.0\n.shared .b8 s[4];\n.extern .shared .b8 d[4];\n", 3, 21,
                   "must be an unsized array");
  expect_ptx_error(".version 7.0\n.global .b32 f;\n.func f()\n{\n ret;\n}\n", 3, 7,
                   "already declared as a variable");
}

}  // namespace
}  // namespace warptlm
