// Decoding of cp.async, its groups and mbarrier (docs/async-copy.md), and the
// sm_90 forms that are refused by name.
#include <gtest/gtest.h>

#include "parser_test_util.h"

namespace warptlm {
namespace {

Instruction one(const std::string& inst) { return test::decode_mem(inst); }
void bad(const std::string& inst, uint32_t col, const std::string& what) {
  test::expect_mem_error(inst, col, what);
}

TEST(PtxAsync, CpAsyncAndItsGroups) {
  Instruction c = one("cp.async.ca.shared.global [%r1], [%rd1], 4, 2");
  EXPECT_EQ(c.op, Opcode::CpAsync);
  EXPECT_EQ(c.space, Space::Shared);
  ASSERT_EQ(c.ops.size(), 4u);
  EXPECT_EQ(c.ops[0].kind, Operand::Kind::Address);
  EXPECT_EQ(c.ops[1].kind, Operand::Kind::Address);
  EXPECT_EQ(c.ops[2].imm, 4u);
  EXPECT_EQ(c.ops[3].imm, 2u);
  EXPECT_EQ(destination_count(c), 0u);
  // No source size; a predicate ignore-src; hints and a cache policy.
  EXPECT_EQ(one("cp.async.cg.shared::cta.global [%r1], [%rd1], 16").ops[3].kind,
            Operand::Kind::None);
  EXPECT_EQ(one("cp.async.ca.shared.global [%r1], [%rd1], 8, %p1").ops[3].reg_type, Type::Pred);
  EXPECT_EQ(one("cp.async.cg.shared.global.L2::128B [%r1], [%rd1], 16, %r2").op, Opcode::CpAsync);
  EXPECT_EQ(one("cp.async.cg.shared.global.L2::cache_hint [%r1], [%rd1], 16, 16, %rd2").op,
            Opcode::CpAsync);
  EXPECT_EQ(one("cp.async.commit_group").op, Opcode::CpAsyncCommit);
  Instruction w = one("cp.async.wait_group 3");
  EXPECT_EQ(w.op, Opcode::CpAsyncWait);
  EXPECT_EQ(w.ops[0].imm, 3u);
  EXPECT_EQ(one("cp.async.wait_all").ops[0].imm, 0u);

  bad("cp.async.cg.shared.global [%r1], [%rd1], 8", 42, "'cp.async.cg' copies 16 bytes, not 8");
  bad("cp.async.ca.shared.global [%r1], [%rd1], 12", 42, "copies 4, 8 or 16 bytes, not 12");
  bad("cp.async.ca.shared.global [%r1], [%rd1], 4, 8", 45,
      "the source size of 'cp.async' (8) exceeds the copy size (4)");
  bad("cp.async.ca.shared.global [%r1], [%rd1], %r2", 42, "must be a literal: 4, 8 or 16");
  bad("cp.async.shared.global [%r1], [%rd1], 4", 1, "needs a cache operator (.ca or .cg)");
  bad("cp.async.ca.global.shared [%r1], [%rd1], 4", 1, "copies .shared.global");
  bad("cp.async.wait_group %r1", 21, "must be a literal");
  bad("cp.async.bulk.shared::cluster.global [%r1], [%rd1], 16, [%r2]", 9,
      "'cp.async.bulk' (sm_90, the tensor memory accelerator) is not supported");
  bad("cp.reduce.async.bulk.global.shared::cta.add.u32 [%rd1], [%r1], 16", 3,
      "'cp.reduce.async.bulk' (sm_90) is not supported");
}

TEST(PtxAsync, MbarrierOperations) {
  Instruction init = one("mbarrier.init.shared.b64 [sh], %r1");
  EXPECT_EQ(init.op, Opcode::Mbarrier);
  EXPECT_EQ(init.mbarrier, MbarrierOp::Init);
  EXPECT_EQ(init.space, Space::Shared);
  EXPECT_EQ(destination_count(init), 0u);
  Instruction arrive = one("mbarrier.arrive.release.cta.shared::cta.b64 %rd1, [sh]");
  EXPECT_EQ(arrive.mbarrier, MbarrierOp::Arrive);
  EXPECT_EQ(destination_count(arrive), 1u);
  EXPECT_EQ(one("mbarrier.arrive.shared.b64 _, [sh], 4").ops.size(), 3u);
  EXPECT_TRUE(one("mbarrier.arrive.noComplete.shared.b64 %rd1, [sh], 2").no_complete);
  EXPECT_EQ(one("mbarrier.arrive_drop.b64 %rd1, [%rd2]").space, Space::Generic);
  Instruction wait = one("mbarrier.try_wait.parity.acquire.cta.shared.b64 %p1, [sh], %r1, 1000");
  EXPECT_EQ(wait.mbarrier, MbarrierOp::TryWait);
  EXPECT_TRUE(wait.parity);
  EXPECT_EQ(wait.ops.size(), 3u);  // the suspend hint is checked, not kept
  EXPECT_EQ(one("mbarrier.test_wait.shared.b64 %p1, [sh], %rd1").mbarrier, MbarrierOp::TestWait);
  EXPECT_EQ(one("mbarrier.pending_count.b64 %r1, %rd1").mbarrier, MbarrierOp::PendingCount);
  EXPECT_EQ(one("mbarrier.inval.shared.b64 [sh]").mbarrier, MbarrierOp::Inval);
  Instruction cpa = one("cp.async.mbarrier.arrive.noinc.shared.b64 [sh]");
  EXPECT_EQ(cpa.mbarrier, MbarrierOp::CpAsyncArrive);
  EXPECT_TRUE(cpa.no_complete);
  EXPECT_EQ(destination_count(cpa), 0u);

  bad("mbarrier.shared.b64 [sh]", 1, "'mbarrier' needs an operation");
  bad("mbarrier.init.shared.b32 [sh], 4", 21, "'mbarrier' does not accept type '.b32'");
  bad("mbarrier.arrive.noComplete.shared.b64 %rd1, [sh]", 1, "needs 3 operands");
  bad("mbarrier.arrive.expect_tx.shared.b64 %rd1, [sh], 16", 16,
      "'mbarrier.expect_tx' (sm_90, transaction counts of bulk copies) is not supported");
  bad("mbarrier.arrive.release.cluster.shared.b64 %rd1, [sh]", 24, "clusters are not supported");
  bad("mbarrier.init.shared::cluster.b64 [sh], 1", 14, "clusters are not supported");
  bad("mbarrier.init.global.b64 [%rd1], 1", 14, "works on .shared or generic addresses");
}

TEST(PtxAsync, CvtToTf32) {
  Instruction c = one("cvt.rna.tf32.f32 %r1, %f1");
  EXPECT_EQ(c.op, Opcode::Cvt);
  EXPECT_TRUE(c.tf32);
  EXPECT_EQ(c.rnd, Rounding::Rna);
  EXPECT_EQ(c.type, Type::B32);
  EXPECT_TRUE(one("cvt.rna.satfinite.tf32.f32 %r1, %f1").satfinite);
  EXPECT_TRUE(one("cvt.rn.relu.tf32.f32 %r1, %f1").relu);
  bad("cvt.tf32.f32 %r1, %f1", 1, "needs a rounding: .rna, .rn or .rz");
  bad("cvt.rm.tf32.f32 %r1, %f1", 4, "rounds with .rna, .rn or .rz only");
  bad("cvt.rna.relu.tf32.f32 %r1, %f1", 8, "takes no .relu");
}

}  // namespace
}  // namespace warptlm
