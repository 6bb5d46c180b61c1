// A BranchGraph exported as LLVM IR (reconverge/branch_graph_llvm.h), the
// input of the structurizer comparison: the text for a small graph, label
// counting, and, through LLVM 14's opt (scripts/setup.sh installs llvm-14),
// that the IR of random graphs (irreducible ones among them) is valid and
// that LLVM's structurizer inserts 5 blocks in the slides' example where
// the reconverging transformation inserts 2.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "reconverge/branch_graph_llvm.h"
#include "reconverge/random_branch_graph.h"
#include "reconverge/reconverging_cfg.h"

namespace warptlm {
namespace {

BranchGraph slides_example() {
  const std::vector<std::vector<uint32_t>> succ{{1, 2}, {3}, {3, 4}, {3, 5}, {2, 5}, {}};
  BranchGraph g;
  for (size_t b = 0; b < succ.size(); ++b) {
    BranchGraph::Block blk;
    blk.succ = succ[b];
    blk.divergent = blk.succ.size() == 2;
    blk.name = std::string(1, static_cast<char>('A' + b));
    g.blocks.push_back(blk);
  }
  return g;
}

std::string opt_program() {
  const char* env = std::getenv("WARPTLM_OPT");
  return env ? env : "opt-14";
}

// Runs opt with `passes` on `ir`; the printed module, or a failure naming
// opt's complaint.
std::string run_opt(const std::string& ir, const std::string& passes) {
  // A file of its own: CTest runs the tests of this suite in parallel.
  std::string path = testing::TempDir() + "branch_graph_XXXXXX";
  const int fd = mkstemp(path.data());
  EXPECT_GE(fd, 0) << path;
  if (fd >= 0) close(fd);
  { std::ofstream(path) << ir; }
  const std::string cmd = opt_program() + " -S -passes=" + passes + " " + path + " -o - 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while (p && (n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = p ? pclose(p) : -1;
  std::remove(path.c_str());
  EXPECT_EQ(status, 0) << cmd << " failed (scripts/setup.sh installs llvm-14's opt):\n" << out;
  return out;
}

TEST(BranchGraphLlvm, BlocksBranchesAndConditions) {
  // 0 -> 1, 2 (divergent); 1 -> 3, 2 (uniform); 2 -> 3; 3 exit; 4 unreachable.
  BranchGraph g;
  g.blocks.resize(5);
  g.blocks[0].succ = {1, 2};
  g.blocks[0].divergent = true;
  g.blocks[1].succ = {3, 2};
  g.blocks[2].succ = {3};
  g.blocks[4].succ = {3};
  g.entry = 0;
  const std::string ir = branch_graph_llvm_ir(g, "my kernel");
  EXPECT_NE(ir.find("define amdgpu_kernel void @my_kernel(i32 %uniform)"), std::string::npos);
  EXPECT_NE(ir.find("entry:\n  %lane = call i32 @llvm.amdgcn.workitem.id.x()\n  br label %b0\n"),
            std::string::npos);
  EXPECT_NE(ir.find("%c0 = icmp ult i32 %lane, 0\n  br i1 %c0, label %b1, label %b2\n"),
            std::string::npos);
  EXPECT_NE(ir.find("%c1 = icmp ult i32 %uniform, 1\n  br i1 %c1, label %b3, label %b2\n"),
            std::string::npos);
  EXPECT_NE(ir.find("b2:  ; block 2\n  call void @block(i32 2)\n  br label %b3\n"),
            std::string::npos);
  EXPECT_NE(ir.find("b3:  ; block 3\n  call void @block(i32 3)\n  ret void\n"), std::string::npos);
  EXPECT_EQ(ir.find("b4:"), std::string::npos);  // unreachable: left out
  EXPECT_EQ(llvm_ir_block_count(ir), 5u);        // entry, b0..b3
}

TEST(BranchGraphLlvm, RefusesWhatTheTransformationRefuses) {
  BranchGraph g;
  g.blocks.resize(2);
  g.blocks[0].succ = {0};  // never reaches the exit
  EXPECT_THROW(branch_graph_llvm_ir(g, "f"), CfgError);
}

TEST(BranchGraphLlvm, CountsLabelsAsOptPrintsThem) {
  const std::string ir =
      "; comment: not a label\ndefine void @f() {\nentry:\n  br label %Flow\n\nFlow:"
      "                                             ; preds = %entry\n  br label "
      "%loop.exit.guard\n\nloop.exit.guard:\n  br label %\"a b\"\n\n\"a b\":\n  ret void\n}\n";
  EXPECT_EQ(llvm_ir_block_count(ir), 4u);
}

TEST(BranchGraphLlvm, RandomGraphsAreValidIrThatKeepsEveryBlock) {
  for (uint32_t window : {0u, 4u})
    for (uint64_t seed = 1; seed <= 15; ++seed) {
      RandomGraphShape shape;
      shape.blocks = 25;
      shape.window = window;
      shape.divergent = 0.7;
      const BranchGraph g = random_branch_graph(seed, shape);
      const std::string ir = branch_graph_llvm_ir(g, "g" + std::to_string(seed));
      const std::string out = run_opt(ir, "verify");
      EXPECT_EQ(llvm_ir_block_count(out), llvm_ir_block_count(ir)) << ir;
      // The structurizing passes keep every original block.
      const std::string structured = run_opt(ir, "fix-irreducible,unify-loop-exits,structurizecfg");
      for (uint32_t b = 0; b < g.blocks.size(); ++b) {
        const std::string label = "\nb" + std::to_string(b) + ":";
        if (ir.find(label) == std::string::npos) continue;  // unreachable
        EXPECT_NE(structured.find(label), std::string::npos) << "seed " << seed << " block " << b;
      }
    }
}

TEST(BranchGraphLlvm, TheStructurizerInsertsMoreBlocksThanTheReconvergingTransformation) {
  // The slides' claim, on their example: LLVM 14's structurizer (as AMD's
  // backend runs it) adds Flow blocks and a loop-exit guard, 5 in all; the
  // reconverging transformation adds 2 in the slides' order.
  const BranchGraph g = slides_example();
  const std::string ir = branch_graph_llvm_ir(g, "slides");
  const std::string out = run_opt(ir, "fix-irreducible,unify-loop-exits,structurizecfg");
  EXPECT_EQ(llvm_ir_block_count(out) - llvm_ir_block_count(ir), 5u) << out;
  EXPECT_EQ(make_reconverging(g, {0, 1, 3, 2, 4, 5}).flow_blocks(), 2u);
}

}  // namespace
}  // namespace warptlm
