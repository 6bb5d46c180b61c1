// The reconverging transformation on real PTX: how a function's blocks
// become a BranchGraph (branch targets first, guarded returns, bra.uni
// uniform, one exit), every scenario kernel made reconverging with each
// lane's path kept, and the analyze views.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/ptx_parser.h"
#include "lane_paths.h"
#include "reconverge/function_reconvergence.h"

namespace warptlm {
namespace {

Program program(const std::string& body) {
  return finalize(parse_ptx(".version 7.0\n.target sm_70\n.address_size 64\n" + body, "t.ptx"));
}

const char* const kGuardedReturn = R"(
.visible .entry k(.param .u32 n)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 5;
  @%p1 ret;
  setp.eq.u32 %p2, %r1, 7;
  @%p2 bra.uni DONE;
  add.u32 %r2, %r1, 1;
DONE:
  ret;
}
)";

TEST(FunctionReconvergence, BlocksBecomeABranchGraphWithOneExit) {
  const Program p = program(kGuardedReturn);
  std::vector<Pc> begin;
  const BranchGraph g = function_branch_graph(p, 0, &begin);
  // B0 ends in @%p1 ret: the exit when the guard holds, else B1; B1's
  // bra.uni is uniform; B3 (DONE) returns.
  ASSERT_EQ(g.blocks.size(), 5u);
  const uint32_t exit = 4;
  EXPECT_EQ(g.blocks[0].succ, (std::vector<uint32_t>{exit, 1}));
  EXPECT_TRUE(g.blocks[0].divergent);
  EXPECT_EQ(g.blocks[1].succ, (std::vector<uint32_t>{3, 2}));
  EXPECT_FALSE(g.blocks[1].divergent);  // bra.uni
  EXPECT_EQ(g.blocks[2].succ, (std::vector<uint32_t>{3}));
  EXPECT_EQ(g.blocks[3].succ, (std::vector<uint32_t>{exit}));
  EXPECT_TRUE(g.blocks[exit].succ.empty());
  EXPECT_EQ(g.blocks[exit].name, "exit");
  EXPECT_EQ(begin[0], 0u);
  EXPECT_EQ(begin[exit], kExitPc);
  // Already reconverging: the exit post-dominates B0.
  const FunctionReconvergence r = reconverge_function(p, 0);
  EXPECT_EQ(r.cfg.flow_blocks(), 0u);
  EXPECT_NE(reconverging_text(r).find("already reconverging (unchanged)"), std::string::npos);
}

TEST(FunctionReconvergence, AnInfiniteLoopIsRefusedNamingTheFunctionAndBlock) {
  const Program p = program(R"(
.visible .entry spin()
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 ret;
LOOP:
  bra.uni LOOP;
}
)");
  try {
    reconverge_function(p, 0);
    FAIL() << "no error";
  } catch (const CfgError& e) {
    EXPECT_STREQ(
        e.what(),
        "function spin: B1 cannot reach the exit (an infinite loop): its lanes would never "
        "reconverge");
  }
}

TEST(FunctionReconvergence, EveryScenarioKernelBecomesReconvergingAndKeepsEveryLanesPath) {
  unsigned functions = 0, transformed = 0;
  for (const auto& dir : std::filesystem::directory_iterator(WARPTLM_SOURCE_DIR "/scenarios")) {
    const std::filesystem::path ptx = dir.path() / "kernel.ptx";
    if (!std::filesystem::exists(ptx)) continue;
    SCOPED_TRACE(ptx.string());
    const Program p = finalize(parse_ptx_file(ptx.string()));
    for (uint32_t f = 0; f < p.module.functions.size(); ++f) {
      if (p.cfgs[f].blocks.empty()) continue;
      const FunctionReconvergence r = reconverge_function(p, f);
      ASSERT_TRUE(is_reconverging(r.cfg));
      testing::expect_same_lanes(r.graph, r.cfg, 32, f);
      ++functions;
      transformed += r.cfg.flow_blocks() > 0;
    }
  }
  EXPECT_GE(functions, 24u);
  EXPECT_GE(transformed, 10u);  // unstructured and if-else kernels need flow blocks
}

TEST(FunctionReconvergence, TheDotViewDrawsFlowBlocksDashedAndUniformEdgesDotted) {
  const Program p = finalize(parse_ptx_file(WARPTLM_SOURCE_DIR "/scenarios/collatz/kernel.ptx"));
  const FunctionReconvergence r = reconverge_function(p, 0);
  ASSERT_EQ(r.cfg.flow_blocks(), 1u);
  const std::string dot = reconverging_dot(p, r);
  EXPECT_EQ(dot.rfind("digraph \"collatz_steps\" {", 0), 0u) << dot;
  EXPECT_NE(dot.find("\"flow0\" [label=\"flow0\", style=dashed];"), std::string::npos) << dot;
  EXPECT_NE(dot.find("\"B2\" -> \"B6\" [style=dotted];"), std::string::npos) << dot;
  const std::string text = reconverging_text(r);
  EXPECT_NE(text.find("1 flow block inserted"), std::string::npos) << text;
  EXPECT_NE(text.find("flow0 -> B7 B4  divergent"), std::string::npos) << text;
  EXPECT_NE(text.find("from B6 for B7 -> B7"), std::string::npos) << text;
}

}  // namespace
}  // namespace warptlm
