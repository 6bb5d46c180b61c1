// register_pressure(): the peak of the 32-bit registers live at once, with
// 64-bit registers twice, predicates not at all, guarded writes that do not
// end a life, values live around a loop, and callees' peaks on top of what
// lives across a call.
#include <gtest/gtest.h>

#include <string>

#include "frontend/ptx_parser.h"
#include "frontend/register_pressure.h"

namespace warptlm {
namespace {

unsigned pressure(const std::string& body, const std::string& funcs = "",
                  const std::string& kernel = "k") {
  const Module m = parse_ptx(".version 7.0\n.target sm_70\n.address_size 64\n" + funcs +
                             "\n.visible .entry k(.param .u64 out)\n{\n" + body + "\n}\n");
  for (uint32_t i = 0; i < m.functions.size(); ++i)
    if (m.functions[i].name == kernel) return register_pressure(m, i);
  ADD_FAILURE() << "no function " << kernel;
  return 0;
}

const char* const kDecls = R"(  .reg .pred %p<3>;
  .reg .b32 %r<9>;
  .reg .b64 %rd<3>;)";

TEST(RegisterPressure, CountsLiveValuesNotDeclarations) {
  // Two loads live together with the 64-bit address: 2 + 1 + 1.
  EXPECT_EQ(pressure(std::string(kDecls) + R"(
  ld.param.u64 %rd1, [out];
  ld.global.u32 %r1, [%rd1];
  ld.global.u32 %r2, [%rd1+4];
  add.s32 %r3, %r1, %r2;
  st.global.u32 [%rd1], %r3;
  ret;)"),
            4u);
  // A chain reuses: never more than the address and one value.
  EXPECT_EQ(pressure(std::string(kDecls) + R"(
  ld.param.u64 %rd1, [out];
  ld.global.u32 %r1, [%rd1];
  add.s32 %r2, %r1, 1;
  add.s32 %r3, %r2, 1;
  add.s32 %r4, %r3, 1;
  st.global.u32 [%rd1], %r4;
  ret;)"),
            3u);
}

TEST(RegisterPressure, AGuardedWriteKeepsTheOldValueLive) {
  // %r1 = 5 may survive the guarded write, so it is live across it with %r2.
  EXPECT_EQ(pressure(std::string(kDecls) + R"(
  ld.param.u64 %rd1, [out];
  mov.u32 %r2, %tid.x;
  setp.eq.u32 %p1, %r2, 0;
  mov.u32 %r1, 5;
  @%p1 mov.u32 %r1, %r2;
  st.global.u32 [%rd1], %r1;
  ret;)"),
            4u);
}

TEST(RegisterPressure, ValuesLiveAroundALoop) {
  // %r1 (counter), %r2 (sum), %r3 (limit) and %rd1 live through the loop.
  EXPECT_EQ(pressure(std::string(kDecls) + R"(
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 0;
  mov.u32 %r2, 0;
  ld.global.u32 %r3, [%rd1];
LOOP:
  add.s32 %r2, %r2, %r1;
  add.s32 %r1, %r1, 1;
  setp.lt.s32 %p1, %r1, %r3;
  @%p1 bra LOOP;
  st.global.u32 [%rd1], %r2;
  ret;)"),
            5u);
}

TEST(RegisterPressure, ACallAddsTheCalleesPeak) {
  const std::string callee = R"(.func (.param .b32 ret) f(.param .b32 x)
{
  .reg .b32 %s<4>;
  ld.param.b32 %s1, [x];
  add.s32 %s2, %s1, 1;
  mul.lo.s32 %s3, %s1, %s2;
  st.param.b32 [ret], %s3;
  ret;
})";
  const std::string body = std::string(kDecls) + R"(
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  {
  .param .b32 a;
  .param .b32 b;
  st.param.b32 [a], %r1;
  call (b), f, (a);
  ld.param.b32 %r2, [b];
  }
  add.s32 %r3, %r2, %r1;
  st.global.u32 [%rd1], %r3;
  ret;)";
  EXPECT_EQ(pressure(body, callee, "f"), 2u);  // %s1 and %s2 together
  EXPECT_EQ(pressure(body, callee), 5u);       // %rd1 and %r1 across the call, + 2
}

}  // namespace
}  // namespace warptlm
