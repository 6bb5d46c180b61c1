// Thread block compaction seen end to end in the timing model: one CTA of two
// warps branches on the parity of its thread id, so each side of the branch
// holds the even (or odd) lanes of both warps. Without a permutation both
// warps' threads of one side share home lanes (two formed warps per side);
// odd_even moves warp 1's threads one lane over (one formed warp per side),
// as ideal compaction does. The counts below follow the block stack by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "behaviour_support.h"
#include "common/systemc_child.h"
#include "exec/functional_executor.h"

namespace warptlm::behaviour {
namespace {

using testing::in_child_process;

// pc:  0 ld.param, 8 mov, 16 and, 24 setp, 32 @p bra EVEN  (all 64 threads)
//     40 add, 48 bra DONE                                   (odd threads)
//     56 add, 64 mul.wide, 72 add, 80 st.global             (even threads, EVEN)
//     88 exit                                               (DONE: all threads)
// The branch reconverges at DONE (88). `bra DONE` is unconditional: each
// formed warp follows it on its own and arrives at the reconvergence point.
const std::string kParity = R"(
.visible .entry parity(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .reg .pred %p<1>;
  ld.param.u64 %rd0, [out];
  mov.u32 %r0, %tid.x;
  and.b32 %r1, %r0, 1;
  setp.eq.u32 %p0, %r1, 0;
  @%p0 bra EVEN;
  add.u32 %r2, %r0, 100;
  bra DONE;
EVEN:
  add.u32 %r2, %r0, 200;
  mul.wide.u32 %rd1, %r0, 4;
  add.s64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r2;
DONE:
  exit;
}
)";

struct Counts {
  uint64_t warp_instructions, syncs, formations, formed, compacted_memory, compacted_transactions;
};

// One CTA of 64 threads, its output buffer the kernel's parameter.
LaunchSpec parity_launch() {
  LaunchSpec l = launch_of(1, 64);
  l.buffers.push_back(u32_buffer("out", std::vector<uint32_t>(64, 0)));
  l.args = {KernelArg::buffer_arg(0)};
  return l;
}

// kParity on the quiet one-SM platform.
Result parity_run(const std::string& compaction, const std::string& permutation) {
  PlatformConfig c = quiet_config();
  c.compaction = compaction;
  c.permutation = permutation;
  EXPECT_EQ(c.sm.warp_formation_cycles, 1u);  // what the derivations below assume
  return run(kParity, "parity", parity_launch(), c);
}

Counts run_parity(const std::string& compaction, const std::string& permutation) {
  const Result r = parity_run(compaction, permutation);
  return {stat(r, "warp_instructions"),
          stat(r, "sm.compaction_syncs"),
          stat(r, "sm.warp_formations"),
          stat(r, "sm.formed_warps"),
          stat(r, "sm.compacted_memory_instructions"),
          stat(r, "sm.compacted_memory_transactions")};
}

TEST(Compaction, WithoutPermutationEachSideNeedsBothWarps) {
  in_child_process([] {
    // Sets of warps: the CTA's start (2 warps), EVEN (threads 0, 2, .., 62:
    // home lanes 0, 2, .., 30 hold two threads each, so 2 warps), the odd
    // side (2), and DONE after both sides reconverged (2): 4 formations of
    // 8 warps. Synchronisations: the branch, EVEN's and the odd side's
    // arrival at DONE, the exit: 4. Instructions: 5 x 2 before the branch,
    // 4 x 2 on EVEN, 2 x 2 on the odd side, 1 x 2 at DONE = 24, as without
    // compaction. No formed warp mixes static warps.
    const Counts n = run_parity("tbc", "none");
    EXPECT_EQ(n.warp_instructions, 24u);
    EXPECT_EQ(n.syncs, 4u);
    EXPECT_EQ(n.formations, 4u);
    EXPECT_EQ(n.formed, 8u);
    EXPECT_EQ(n.compacted_memory, 0u);
    EXPECT_EQ(n.compacted_transactions, 0u);
  });
}

TEST(Compaction, OddEvenPermutationCompactsEachSideIntoOneWarp) {
  in_child_process([] {
    // odd_even puts warp 1's thread of logical lane l in home lane l ^ 1:
    // each side's 32 threads take 32 distinct home lanes, one warp. Warps:
    // 2 + 1 + 1 + 2 = 6; instructions 10 + 4 + 2 + 2 = 18. EVEN's store is one
    // instruction of a warp holding threads of both static warps; its
    // addresses out[0, 2, .., 62] span 256 bytes: four 64-byte lines.
    const Counts n = run_parity("tbc", "odd_even");
    EXPECT_EQ(n.warp_instructions, 18u);
    EXPECT_EQ(n.syncs, 4u);
    EXPECT_EQ(n.formations, 4u);
    EXPECT_EQ(n.formed, 6u);
    EXPECT_EQ(n.compacted_memory, 1u);
    EXPECT_EQ(n.compacted_transactions, 4u);
  });
}

TEST(Compaction, IdealCompactionPacksEachSideIntoOneWarp) {
  in_child_process([] {
    const Counts n = run_parity("ideal", "none");
    EXPECT_EQ(n.warp_instructions, 18u);
    EXPECT_EQ(n.formed, 6u);
    EXPECT_EQ(n.compacted_memory, 1u);
  });
}

TEST(Compaction, FormedWarpsWaitForTheLastArrivalThenForFormation) {
  in_child_process([] {
    const Result r = parity_run("tbc", "odd_even");
    // Static warps 0 and 1 (one scheduler, lrr): ld.param 0, 1; mov 2, 3;
    // and 6, 7 and setp 10, 11 (SP latency 4); the branch 14, 15. Warp 0
    // arrives at 14 and waits 1 cycle for warp 1. The EVEN warp is formed at
    // 15 + 1 + 1 (formation) = 17: add 17, mul.wide 18, add.s64 22 (mul's
    // result), the store 26. Its threads come from both static warps, but
    // the register file is addressed per lane, so its reads conflict as a
    // static warp's would: none here. EVEN reaches DONE after the store: the
    // odd side is formed at 26 + 2 = 28: add 28, bra 29, reaching DONE.
    // DONE's two warps start at 31, warp 1 first (lrr: warp 0 issued last);
    // warp 1 waits 1 cycle at the exit for warp 0.
    EXPECT_EQ(relative_issue_cycles(r, 0),
              (std::vector<uint64_t>{0, 2, 6, 10, 14, 17, 18, 22, 26, 28, 29, 32}));
    EXPECT_EQ(relative_issue_cycles(r, 1), (std::vector<uint64_t>{1, 3, 7, 11, 15, 31}));
    EXPECT_EQ(stat(r, "sm.compaction_sync_cycles"), 2u);
    EXPECT_EQ(stat(r, "sm.register_bank_conflicts"), 0u);
  });
}

// The parity branch twice, in a loop: pc 0 mov, 8 and, 16 setp, 24 mov;
// LOOP 32 @p bra EVEN; 40 add, 48 bra NEXT; EVEN 56 add; NEXT 64 add,
// 72 setp, 80 @p bra LOOP; 88 exit. The parity branch reconverges at NEXT.
const std::string kParityTwice = R"(
.visible .entry twice()
{
  .reg .b32 %r<4>;
  .reg .pred %p<2>;
  mov.u32 %r0, %tid.x;
  and.b32 %r1, %r0, 1;
  setp.eq.u32 %p0, %r1, 0;
  mov.u32 %r3, 0;
LOOP:
  @%p0 bra EVEN;
  add.u32 %r2, %r0, 100;
  bra NEXT;
EVEN:
  add.u32 %r2, %r0, 200;
NEXT:
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, 2;
  @%p1 bra LOOP;
  exit;
}
)";

TEST(Compaction, CapriRunsPastABranchItLearntIsNotWorthCompacting) {
  in_child_process([] {
    PlatformConfig c = quiet_config();
    c.compaction = "capri";
    Program program = finalize(parse_ptx(kPtxHeader + kParityTwice, "twice.ptx"));
    LaunchSpec l = launch_of(1, 64);
    RunStats rs;
    Result r;
    r.stats = run_timing(program, "twice", l, c, &rs);
    // First instance of the parity branch: no table entry, predicted
    // adequate; the CTA waits and compacts, but without a permutation each
    // side still needs 2 warps (inadequate: a misprediction), and the entry
    // is allocated weakly inadequate. The loop branch is uniform: never
    // predicted, always synchronised. Second instance: the set is the two
    // static warps, the table says inadequate, so each warp runs the branch
    // under its own IPDOM stack to NEXT (a bypass), and the instance is learnt
    // (inadequate again, predicted so). Instructions: 4 x 2 before LOOP; pass
    // 1: branch 2, EVEN 2, odd side 4, NEXT 6; pass 2: 4 per warp (branch,
    // add; add, bra) and NEXT 6; exit 2: 38, as without compaction.
    // Synchronisations: pass 1 branch, both sides at NEXT, loop branch; the
    // bypass's rejoin, loop branch; exit: 7. Sets formed: start, EVEN, odd,
    // NEXT: 4.
    EXPECT_EQ(stat(r, "warp_instructions"), 38u);
    EXPECT_EQ(stat(r, "sm.capri_bypasses"), 1u);
    EXPECT_EQ(stat(r, "sm.compaction_syncs"), 7u);
    EXPECT_EQ(stat(r, "sm.warp_formations"), 4u);
    EXPECT_EQ(stat(r, "sm.formed_warps"), 8u);
    EXPECT_EQ(rs.capri_predictions, 2u);
    EXPECT_EQ(rs.capri_compactions, 1u);
    EXPECT_EQ(rs.capri_mispredictions, 1u);
  });
}

TEST(Compaction, TimingCountsTheFunctionalFormation) {
  // The functional executor's count for the same compaction: NW warps per
  // lockstep instruction.
  Program program = finalize(parse_ptx(kPtxHeader + kParity, "parity.ptx"));
  for (const char* perm : {"none", "odd_even"}) {
    ExecConfig e;
    e.compaction = "tbc";
    e.permutation = perm;
    LaunchSpec l = parity_launch();
    RunStats s = run_functional(program, "parity", l, e);
    EXPECT_EQ(s.warp_instructions, std::string(perm) == "none" ? 24u : 18u) << perm;
  }
}

}  // namespace
}  // namespace warptlm::behaviour
