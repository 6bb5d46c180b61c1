// ppc_explicit compares paths only at the finalizer's Reconverge markers: a
// program finalized without them is refused with a clear error; with them the
// kernel runs correctly and the markers count as issued instructions.
#include <gtest/gtest.h>

#include "exec_test_util.h"
#include "simt/reconvergence_unit.h"

namespace warptlm {
namespace {
using namespace warptlm::testing;

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
    EXPECT_NE(what.find("prepare_program(module, \"ppc_explicit\")"), std::string::npos) << what;
  }
}

TEST(PpcExplicitMarkers, ProgramWithMarkersRunsAndCountsThem) {
  ASSERT_EQ(reconvergence_program_form("ppc_explicit"), ProgramForm::Markers);
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
