// ppc_explicit compares paths only at the finalizer's Reconverge markers: a
// program finalized without them is refused with a clear error; with them the
// kernel runs correctly and the markers count as issued instructions.
#include <gtest/gtest.h>

#include "exec_test_util.h"
#include "simt/reconvergence_unit.h"

namespace warptlm {
namespace {
using namespace warptlm::testing;

// out[i] = i < 12 ? i * 3 : -i
const char* const kDiverge = R"(
.visible .entry diverge(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  setp.lt.s32 %p1, %r4, 12;
  @%p1 bra THEN;
  neg.s32 %r5, %r4;
  bra.uni JOIN;
THEN:
  mul.lo.s32 %r5, %r4, 3;
JOIN:
  mul.wide.s32 %rd3, %r4, 4;
  add.s64 %rd3, %rd2, %rd3;
  st.global.u32 [%rd3], %r5;
  ret;
}
)";

ExecConfig explicit_ppc() {
  ExecConfig c;
  c.warp_size = 8;
  c.reconvergence = "ppc_explicit";
  return c;
}

TEST(PpcExplicitMarkers, ProgramWithoutMarkersIsRefused) {
  Program p = finalize(parse_ptx(ptx_module(kDiverge), "test.ptx"));
  LaunchSpec l = one_buffer(1, 16, std::vector<int32_t>(16, 0));
  try {
    run_functional(p, "diverge", l, explicit_ppc());
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("'ppc_explicit' needs the finalizer's reconvergence markers"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("insert_reconvergence_markers"), std::string::npos) << what;
  }
}

TEST(PpcExplicitMarkers, ProgramWithMarkersRunsAndCountsThem) {
  ASSERT_TRUE(reconvergence_needs_markers("ppc_explicit"));
  FinalizeOptions fin;
  fin.insert_reconvergence_markers = true;
  Program p = finalize(parse_ptx(ptx_module(kDiverge), "test.ptx"), fin);
  LaunchSpec l = one_buffer(1, 16, std::vector<int32_t>(16, 7));
  RunStats stats = run_functional(p, "diverge", l, explicit_ppc());
  auto out = i32_values(l.buffers[0]);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], i < 12 ? i * 3 : -i) << i;
  // As under ipdom (13 + 15, see test_executor.cc) plus the JOIN marker once
  // per warp: the paths wait in front of it and execute it merged.
  EXPECT_EQ(stats.warp_instructions, 13u + 15u + 2u);
  EXPECT_EQ(stats.divergent_branches, 1u);
}

}  // namespace
}  // namespace warptlm
