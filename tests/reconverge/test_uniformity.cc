// The uniformity analysis that lets compiler-side reconvergence keep a
// guarded branch scalar: which predicates every lane of a warp agrees on.
#include <gtest/gtest.h>

#include "frontend/ptx_parser.h"
#include "reconverge/function_reconvergence.h"
#include "reconverge/uniformity.h"

namespace warptlm {
namespace {

Program program(const std::string& body) {
  return finalize(parse_ptx(".version 7.0\n.target sm_70\n.address_size 64\n" + body, "u.ptx"));
}

// The blocks that end in a guarded bra, by whether the analysis finds their
// predicate uniform ("U") or not ("D"), in block order.
std::string verdicts(const Program& p, uint32_t function = 0) {
  const std::vector<bool> uniform = uniform_branch_blocks(p, function);
  const FunctionCfg& cfg = p.cfgs[function];
  std::string out;
  for (uint32_t b = 0; b < cfg.blocks.size(); ++b) {
    const Instruction& last = p.module.at(cfg.blocks[b].end - kInstrBytes);
    if (last.op == Opcode::Bra && last.has_guard) out += uniform[b] ? "U" : "D";
  }
  return out;
}

TEST(Uniformity, ALoopBoundedByAParameterIsUniformOneBoundedByTidIsNot) {
  const Program p = program(R"(
.visible .entry k(.param .u32 n, .param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, 0;
  mov.u32 %r6, %tid.x;
LOOP:
  add.u32 %r3, %r3, %r2;
  setp.lt.u32 %p1, %r3, %r1;
  @%p1 bra LOOP;
  mov.u32 %r4, 0;
TID_LOOP:
  add.u32 %r4, %r4, 1;
  setp.lt.u32 %p2, %r4, %r6;
  @%p2 bra TID_LOOP;
  ret;
}
)");
  EXPECT_EQ(verdicts(p), "UD");
}

TEST(Uniformity, AValueWrittenUnderADivergentBranchIsDivergentAfterIt) {
  // %r3 is 0 or 1 depending on the lane's side of the if: a branch on it
  // after the join diverges, though both writes are constants.
  const Program p = program(R"(
.visible .entry k()
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r3, 0;
  setp.lt.u32 %p1, %r1, 5;
  @%p1 bra JOIN;
  mov.u32 %r3, 1;
JOIN:
  setp.eq.u32 %p2, %r3, 0;
  @%p2 bra END;
  mov.u32 %r4, 2;
END:
  ret;
}
)");
  EXPECT_EQ(verdicts(p), "DD");
}

TEST(Uniformity, ADivergentBreakMakesTheLoopCounterDivergent) {
  // Lanes that break keep their iteration count: the uniform-looking latch
  // test on %r2 diverges once a lane may leave early.
  const Program p = program(R"(
.visible .entry k(.param .u64 data)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [data];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
LOOP:
  setp.eq.u32 %p1, %r1, %r2;
  @%p1 bra AFTER;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p2, %r2, 10;
  @%p2 bra LOOP;
AFTER:
  ret;
}
)");
  EXPECT_EQ(verdicts(p), "DD");
}

TEST(Uniformity, LoadsAtAUniformAddressAreUniformExceptPerLaneMemory) {
  const Program p = program(R"(
.visible .entry k(.param .u64 data)
{
  .reg .pred %p<8>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .local .u32 slot;
  ld.param.u64 %rd1, [data];
  cvta.to.global.u64 %rd2, %rd1;
  ld.global.u32 %r1, [%rd2];
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra A;
A:
  ld.local.u32 %r2, [slot];
  setp.eq.u32 %p2, %r2, 0;
  @%p2 bra B;
B:
  atom.global.add.u32 %r3, [%rd2], 1;
  setp.eq.u32 %p3, %r3, 0;
  @%p3 bra C;
C:
  ld.u32 %r4, [%rd1];
  setp.eq.u32 %p4, %r4, 0;
  @%p4 bra D;
D:
  ret;
}
)");
  // global: uniform; local, an atomic's old value, generic: divergent.
  EXPECT_EQ(verdicts(p), "UDDD");
}

TEST(Uniformity, AUniformBranchStaysScalarInTheReconvergingCfg) {
  const Program p = program(R"(
.visible .entry k(.param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  ld.param.u32 %r1, [n];
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra SKIP;
  add.u32 %r2, %r1, 1;
SKIP:
  ret;
}
)");
  const BranchGraph g = function_branch_graph(p, 0);
  EXPECT_FALSE(g.blocks[0].divergent);
}

}  // namespace
}  // namespace warptlm
