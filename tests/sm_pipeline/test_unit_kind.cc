// Which pipeline runs each instruction, on instructions parsed from PTX text.
#include <gtest/gtest.h>

#include <iterator>
#include <string>

#include "frontend/ptx_parser.h"
#include "sm/pipeline/unit_kind.h"

namespace warptlm {
namespace {

struct Case {
  const char* text;
  UnitKind kind;
};

const Case kCases[] = {
    // SFU: transcendental, approximate and float division / square root.
    {"sin.approx.f32 %f1, %f2", UnitKind::Sfu},
    {"cos.approx.ftz.f32 %f1, %f2", UnitKind::Sfu},
    {"ex2.approx.f32 %f1, %f2", UnitKind::Sfu},
    {"lg2.approx.f32 %f1, %f2", UnitKind::Sfu},
    {"rsqrt.approx.f32 %f1, %f2", UnitKind::Sfu},
    {"rcp.rn.f32 %f1, %f2", UnitKind::Sfu},
    {"sqrt.rn.f32 %f1, %f2", UnitKind::Sfu},
    {"div.rn.f32 %f1, %f2, %f3", UnitKind::Sfu},
    {"div.approx.f32 %f1, %f2, %f3", UnitKind::Sfu},
    {"div.rn.f64 %fd1, %fd2, %fd3", UnitKind::Sfu},
    // SP: integer (division included), float arithmetic, conversion, warp ops, control.
    {"div.s32 %r1, %r2, %r3", UnitKind::Sp},
    {"rem.u32 %r1, %r2, %r3", UnitKind::Sp},
    {"add.f32 %f1, %f2, %f3", UnitKind::Sp},
    {"fma.rn.f64 %fd1, %fd2, %fd3, %fd1", UnitKind::Sp},
    {"mul.lo.s32 %r1, %r2, %r3", UnitKind::Sp},
    {"setp.lt.s32 %p1, %r1, %r2", UnitKind::Sp},
    {"cvt.rn.f32.s32 %f1, %r1", UnitKind::Sp},
    {"mov.u32 %r1, %tid.x", UnitKind::Sp},
    {"shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1", UnitKind::Sp},
    {"bar.sync 0", UnitKind::Sp},
    {"membar.gl", UnitKind::Sp},
    {"@%p1 bra L", UnitKind::Sp},
    // LD/ST: every memory access, parameter and constant loads included.
    {"ld.global.f32 %f1, [%rd1]", UnitKind::LdSt},
    {"ld.param.u64 %rd1, [p]", UnitKind::LdSt},
    {"ld.const.u32 %r1, [%rd1]", UnitKind::LdSt},
    {"ld.shared.u32 %r1, [%rd1]", UnitKind::LdSt},
    {"st.local.u32 [%rd1], %r1", UnitKind::LdSt},
    {"atom.global.add.u32 %r1, [%rd1], 1", UnitKind::LdSt},
    {"red.shared.add.u32 [%rd1], %r1", UnitKind::LdSt},
    {"exit", UnitKind::Sp},
};

TEST(UnitKind, ClassifiesParsedInstructions) {
  std::string ptx =
      ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
      ".reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<2>; .reg .f32 %f<4>; .reg .f64 %fd<4>;\n"
      "L:\n";
  for (const Case& c : kCases) ptx += std::string(c.text) + ";\n";
  const Module m = parse_ptx(ptx + "}\n");
  ASSERT_EQ(m.code.size(), std::size(kCases));
  for (size_t i = 0; i < std::size(kCases); ++i)
    EXPECT_EQ(unit_of(m.code[i]), kCases[i].kind)
        << kCases[i].text << " -> " << unit_kind_name(unit_of(m.code[i]));
}

TEST(UnitKind, Names) {
  EXPECT_STREQ(unit_kind_name(UnitKind::Sp), "sp");
  EXPECT_STREQ(unit_kind_name(UnitKind::Sfu), "sfu");
  EXPECT_STREQ(unit_kind_name(UnitKind::LdSt), "ldst");
}

}  // namespace
}  // namespace warptlm
