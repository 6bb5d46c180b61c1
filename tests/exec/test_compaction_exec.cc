// The functional executor under thread block compaction: configuration
// checks, device-function calls (divergent, with exits and divergent
// returns inside), barriers in lockstep, the watchdog, the trace of formed
// warps, and warp-level operations that stay on the logical lanes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compaction/compactability.h"
#include "compaction/lane_permutation.h"
#include "exec_test_util.h"

namespace warptlm {
namespace {

using testing::i32_values;
using testing::KernelRun;
using testing::one_buffer;
using testing::ptx_module;
using testing::run;

// The message of the std::invalid_argument that `f` throws ("" if none).
template <class F>
std::string invalid_argument_message(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

ExecConfig compacting(const std::string& compaction, const std::string& permutation,
                      unsigned warp_size = 8) {
  ExecConfig c;
  c.warp_size = warp_size;
  c.compaction = compaction;
  c.permutation = permutation;
  return c;
}

TEST(CompactionConfig, NamesAndCombinationsAreChecked) {
  EXPECT_EQ(compaction_scheme_names(), (std::vector<std::string>{"none", "tbc", "capri", "ideal"}));
  std::string msg = invalid_argument_message([] { compacting("dwf", "none").validate(); });
  EXPECT_NE(msg.find("compaction: unknown scheme 'dwf'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("none, tbc, capri, ideal"), std::string::npos) << msg;
  ExecConfig table = compacting("capri", "balanced");
  table.options["capri.entries"] = 24;
  msg = invalid_argument_message([&] { table.validate(); });
  EXPECT_NE(msg.find("capri.entries"), std::string::npos) << msg;
  msg = invalid_argument_message([] { compacting("tbc", "sideways").validate(); });
  EXPECT_NE(msg.find("permutation: unknown permutation 'sideways'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("balanced"), std::string::npos) << msg;
  ExecConfig dual = compacting("tbc", "none");
  dual.reconvergence = "dual_path";
  EXPECT_EQ(invalid_argument_message([&] { dual.validate(); }),
            "compaction 'tbc' uses the IPDOM reconvergence point: it works with "
            "reconvergence=ipdom only, got 'dual_path'");
  // A permutation without compaction changes nothing functional: accepted.
  EXPECT_EQ(invalid_argument_message([] { compacting("none", "balanced").validate(); }), "");
  // The analysis needs the IPDOM stack too.
  ExecConfig plain_dual;
  plain_dual.reconvergence = "dual_path";
  CompactionAnalysis analysis;
  LaunchSpec l = one_buffer(1, 32, std::vector<int32_t>(32, 0));
  Program p = finalize(parse_ptx(ptx_module(testing::kDiverge), "test.ptx"));
  msg = invalid_argument_message(
      [&] { run_functional(p, "diverge", l, plain_dual, nullptr, &analysis); });
  EXPECT_NE(msg.find("analysis"), std::string::npos) << msg;
}

// Odd threads below 20 call pick(tid): thread 5 exits inside it, t % 4 == 1
// returns 3t, t % 4 == 3 returns t + 100 (two ret instructions: the return
// diverges). Others store 0. With 4 warps of 8: warps 0 and 1 call with
// their odd lanes, warp 2 with lanes 1 and 3 (threads 17 and 19), warp 3
// never enters the call (so never pushes its frame).
const char* const kCalls = R"(
.func (.param .b32 retval) pick(.param .b32 x)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  ld.param.b32 %r1, [x];
  setp.eq.u32 %p2, %r1, 5;
  @%p2 exit;
  and.b32 %r2, %r1, 3;
  setp.eq.u32 %p1, %r2, 1;
  @%p1 bra TRIPLE;
  add.s32 %r3, %r1, 100;
  st.param.b32 [retval], %r3;
  ret;
TRIPLE:
  mul.lo.s32 %r3, %r1, 3;
  st.param.b32 [retval], %r3;
  ret;
}

.visible .entry calls(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r3, 0;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 0;
  setp.ge.u32 %p2, %r1, 20;
  or.pred %p3, %p1, %p2;
  @%p3 bra STORE;
  {
  .param .b32 a0;
  st.param.b32 [a0], %r1;
  .param .b32 r0;
  call.uni (r0), pick, (a0);
  ld.param.b32 %r3, [r0];
  }
STORE:
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";

TEST(CompactionExec, DivergentCallsWithExitsAndDivergentReturns) {
  std::vector<std::string> configs = {"ideal"};
  for (const std::string& p : lane_permutation_names()) configs.push_back("tbc/" + p);
  KernelRun plain = run(kCalls, "calls", one_buffer(1, 32, std::vector<int32_t>(32, -1)),
                        compacting("none", "none"));
  for (const std::string& name : configs) {
    SCOPED_TRACE(name);
    const bool ideal = name == "ideal";
    KernelRun r = run(kCalls, "calls", one_buffer(1, 32, std::vector<int32_t>(32, -1)),
                      compacting(ideal ? "ideal" : "tbc", ideal ? "none" : name.substr(4)));
    auto out = i32_values(r.launch.buffers[0]);
    for (int t = 0; t < 32; ++t) {
      int want = 0;
      if (t == 5)
        want = -1;  // exited inside pick: never stored
      else if (t % 2 == 1 && t < 20)
        want = t % 4 == 1 ? 3 * t : t + 100;
      EXPECT_EQ(out[t], want) << "tid " << t;
    }
    EXPECT_EQ(r.stats.thread_instructions, plain.stats.thread_instructions);
  }
}

// Every thread stores its tid in shared memory, then after the barrier reads
// its neighbour's 9 threads on: out[t] = (t + 9) % 32.
const char* const kExchange = R"(
.visible .entry exchange(.param .u64 out)
{
  .shared .align 4 .b8 buf[128];
  .reg .b32 %r<9>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, buf;
  add.s32 %r4, %r3, %r2;
  st.shared.u32 [%r4], %r1;
  bar.sync 0;
  add.s32 %r5, %r1, 9;
  and.b32 %r5, %r5, 31;
  shl.b32 %r6, %r5, 2;
  add.s32 %r7, %r3, %r6;
  ld.shared.u32 %r8, [%r7];
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r8;
  ret;
}
)";

TEST(CompactionExec, BarrierWithTheWholeCtaInTheTopEntryCompletes) {
  KernelRun r = run(kExchange, "exchange", one_buffer(1, 32, std::vector<int32_t>(32, -1)),
                    compacting("tbc", "balanced"));
  auto out = i32_values(r.launch.buffers[0]);
  for (int t = 0; t < 32; ++t) EXPECT_EQ(out[t], (t + 9) % 32) << t;
}

// Even warps (ws 8) wait at one bar.sync, odd warps at another with the same
// id. Warp by warp the barrier completes (32 threads arrive at barrier 0);
// in lockstep the even warps' path reaches its bar.sync with 16 threads while
// the other 16 wait on the other path of the block stack: a deadlock.
const char* const kSplitBarrier = R"(
.visible .entry split(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 3;
  and.b32 %r3, %r2, 1;
  setp.eq.u32 %p1, %r3, 0;
  @%p1 bra EVENW;
  bar.sync 0;
  bra.uni DONE;
EVENW:
  bar.sync 0;
DONE:
  ret;
}
)";

TEST(CompactionExec, BarrierOnTwoPathsIsADeadlockInLockstep) {
  ExecConfig plain;
  plain.warp_size = 8;
  EXPECT_NO_THROW(
      run(kSplitBarrier, "split", one_buffer(1, 32, std::vector<int32_t>(1, 0)), plain));
  try {
    run(kSplitBarrier, "split", one_buffer(1, 32, std::vector<int32_t>(1, 0)),
        compacting("tbc", "none"));
    ADD_FAILURE() << "completed";
  } catch (const KernelFault& f) {
    const std::string what = f.what();
    EXPECT_NE(what.find("barrier deadlock"), std::string::npos) << what;
    EXPECT_NE(what.find("warp 0 at barrier 0"), std::string::npos) << what;
    EXPECT_NE(what.find("warp 2 at barrier 0"), std::string::npos) << what;
    EXPECT_EQ(what.find("warp 1 at"), std::string::npos) << what;
  }
}

const char* const kForever = R"(
.visible .entry forever(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  mov.u32 %r1, %tid.x;
LOOP:
  setp.ne.u32 %p1, %r1, 1000;
  @%p1 bra LOOP;
  ret;
}
)";

TEST(CompactionExec, WatchdogEndsARunawayKernel) {
  ExecConfig c = compacting("tbc", "rev_wid");
  c.instruction_budget = 1000;
  try {
    run(kForever, "forever", one_buffer(1, 32, std::vector<int32_t>(1, 0)), c);
    ADD_FAILURE() << "finished";
  } catch (const KernelFault& f) {
    EXPECT_NE(std::string(f.what()).find("runaway kernel: more than 1000"), std::string::npos)
        << f.what();
  }
}

// out[tid] = tid even ? laneid + 100 * shfl.bfly(tid, 2) + 10000 * activemask
//                     : laneid.
const char* const kWarpOps = R"(
.visible .entry warpops(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %laneid;
  and.b32 %r3, %r1, 1;
  setp.ne.u32 %p1, %r3, 0;
  @%p1 bra STORE;
  shfl.sync.bfly.b32 %r4|%p2, %r1, 2, 31, 0x55555555;
  activemask.b32 %r5;
  mad.lo.s32 %r2, %r4, 100, %r2;
  mad.lo.s32 %r2, %r5, 10000, %r2;
STORE:
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

TEST(CompactionExec, LaneIdAndWarpOperationsStayLogical) {
  for (const char* perm : {"none", "balanced", "random", "flip_odd"}) {
    SCOPED_TRACE(perm);
    KernelRun r = run(kWarpOps, "warpops", one_buffer(1, 32, std::vector<int32_t>(32, -1)),
                      compacting("tbc", perm));
    auto out = i32_values(r.launch.buffers[0]);
    // Even lanes of each warp are active in the path: activemask 0x55 = 85.
    for (int t = 0; t < 32; ++t)
      EXPECT_EQ(out[t], t % 2 ? t % 8 : t % 8 + 100 * (t ^ 2) + 10000 * 85) << "tid " << t;
  }
}

// kDiverge (out[i] = i < 12 ? 3i : -i) on one CTA of 32 threads, warp size
// 8, tbc with odd_even: warps 1 and 3 XOR their lanes with 1.
TEST(CompactionExec, TraceHasOneRecordPerFormedWarp) {
  Program p = finalize(parse_ptx(ptx_module(testing::kDiverge), "test.ptx"));
  LaunchSpec l = one_buffer(1, 32, std::vector<int32_t>(32, 0));
  TraceBuffer trace;
  RunStats st = run_functional(p, "diverge", l, compacting("tbc", "odd_even"), &trace);
  ASSERT_EQ(trace.records.size(), st.warp_instructions);
  for (size_t i = 0; i < trace.records.size(); ++i) EXPECT_EQ(trace.records[i].step, i);
  // The branch (pc 0x38, the 8th instruction) sends threads 0..11 (warp 0,
  // warp 1 lanes 0-3) to THEN. Warp 1's lanes 0-3 sit in home lanes 1 0 3 2,
  // which warp 0 also occupies: 2 formed warps, warp 0 full, formed warp 1
  // holding warp 1's threads in home lanes 0-3. The not-taken path (threads
  // 12..31) needs 3: home lanes of warp 1's lanes 4-7 are 5 4 7 6.
  const Pc then_pc = 0x50;  // THEN: mul.lo; the not-taken side is neg (0x40), bra.uni
  std::vector<TraceRecord> at_then;
  for (const TraceRecord& r : trace.records)
    if (r.pc == then_pc) at_then.push_back(r);
  ASSERT_EQ(at_then.size(), 2u);
  EXPECT_EQ(at_then[0].warp, 0u);
  EXPECT_EQ(at_then[0].mask, 0xffu);
  EXPECT_EQ(at_then[1].warp, 1u);
  EXPECT_EQ(at_then[1].mask, 0x0fu);
  size_t at_neg = 0;
  for (const TraceRecord& r : trace.records) at_neg += r.pc == 0x40 ? 1 : 0;
  EXPECT_EQ(at_neg, 3u);
  // 8 instructions before the branch and 4 after the join with 4 warps; THEN
  // (1 instruction) with 2; the other side (neg, bra) with 3: 48 + 2 + 6.
  EXPECT_EQ(st.warp_instructions, 56u);
}

}  // namespace
}  // namespace warptlm
