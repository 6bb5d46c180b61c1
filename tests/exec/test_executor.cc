// The functional executor on small hand-written PTX kernels: results,
// statistics, calls, barriers, warp sizes.
#include <gtest/gtest.h>

#include "exec_test_util.h"

namespace warptlm {
namespace {
using namespace warptlm::testing;

TEST(Executor, DivergentKernelIsCorrectAtEveryWarpSize) {
  for (unsigned ws : {4u, 8u, 16u, 32u, 64u}) {
    ExecConfig c;
    c.warp_size = ws;
    KernelRun r = run(kDiverge, "diverge", one_buffer(2, 16, std::vector<int32_t>(32, 7)), c);
    auto out = i32_values(r.launch.buffers[0]);
    for (int i = 0; i < 32; ++i)
      EXPECT_EQ(out[i], i < 12 ? i * 3 : -i) << "ws " << ws << " i " << i;
    EXPECT_EQ(r.stats.ctas, 2u);
  }
}

TEST(Executor, StatisticsCountDivergenceAndUtilisation) {
  ExecConfig c;
  c.warp_size = 8;
  // One CTA of 16 threads = 2 warps: warp 0 (tid 0..7) all take THEN; warp 1
  // (tid 8..15) splits 4/4 at the setp.
  KernelRun r = run(kDiverge, "diverge", one_buffer(1, 16, std::vector<int32_t>(16, 0)), c);
  EXPECT_EQ(r.stats.warps, 2u);
  EXPECT_EQ(r.stats.branches, 2u);
  EXPECT_EQ(r.stats.divergent_branches, 1u);
  // warp 0: 8 up to and including @p bra, then mul and 4 after: 13 full-warp instructions.
  // warp 1: 8 full, [mul] on 4 lanes, [neg, bra.uni] on 4 lanes, then 4 full: 15.
  EXPECT_EQ(r.stats.warp_instructions, 13u + 15u);
  EXPECT_EQ(r.stats.thread_instructions, 13u * 8 + 12u * 8 + 3u * 4);
  EXPECT_DOUBLE_EQ(r.stats.activity_factor(), (13.0 * 8 + 12 * 8 + 12) / (28.0 * 8));
  // 8-lane warps on the default 32-lane SIMD unit leave three quarters of its lanes idle.
  EXPECT_DOUBLE_EQ(r.stats.simd_utilisation(), (13.0 * 8 + 12 * 8 + 12) / (28.0 * 32));
}

TEST(Executor, RunsAreDeterministic) {
  KernelRun a = run(kDiverge, "diverge", one_buffer(3, 32, std::vector<int32_t>(96, 0)));
  KernelRun b = run(kDiverge, "diverge", one_buffer(3, 32, std::vector<int32_t>(96, 0)));
  EXPECT_EQ(a.stats.to_json(), b.stats.to_json());
  EXPECT_EQ(a.launch.buffers[0].bytes, b.launch.buffers[0].bytes);
}

// A device function with a parameter and a return value, called divergently,
// and a recursive one using local memory.
const char* const kCalls = R"(
.func (.param .b32 retval) triple(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [x];
  mul.lo.s32 %r2, %r1, 3;
  st.param.b32 [retval], %r2;
  ret;
}

.func (.param .b32 retval) fact(.param .b32 n)
{
  .local .align 4 .b8 __local_depot1[4];
  .reg .b64 %SP;
  .reg .b64 %SPL;
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  mov.u64 %SPL, __local_depot1;
  cvta.local.u64 %SP, %SPL;
  ld.param.b32 %r1, [n];
  st.u32 [%SP+0], %r1;
  setp.le.s32 %p1, %r1, 1;
  @%p1 bra BASE;
  add.s32 %r2, %r1, -1;
  {
  .param .b32 arg0;
  st.param.b32 [arg0], %r2;
  .param .b32 ret0;
  call.uni (ret0), fact, (arg0);
  ld.param.b32 %r3, [ret0];
  }
  ld.u32 %r4, [%SP+0];
  mul.lo.s32 %r5, %r3, %r4;
  st.param.b32 [retval], %r5;
  ret;
BASE:
  mov.u32 %r5, 1;
  st.param.b32 [retval], %r5;
  ret;
}

.visible .entry calls(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.eq.s32 %p1, %r2, 0;
  @%p1 bra EVEN;
  {
  .param .b32 a0;
  st.param.b32 [a0], %r1;
  .param .b32 r0;
  call.uni (r0), triple, (a0);
  ld.param.b32 %r3, [r0];
  }
  bra.uni STORE;
EVEN:
  shr.u32 %r4, %r1, 1;
  {
  .param .b32 a0;
  st.param.b32 [a0], %r4;
  .param .b32 r0;
  call.uni (r0), fact, (a0);
  ld.param.b32 %r3, [r0];
  }
STORE:
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd3, %rd2, %rd3;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";

TEST(Executor, DeviceFunctionCallsPassParametersAndRecurse) {
  for (unsigned ws : {8u, 32u}) {
    ExecConfig c;
    c.warp_size = ws;
    KernelRun r = run(kCalls, "calls", one_buffer(1, 16, std::vector<int32_t>(16, 0)), c);
    auto out = i32_values(r.launch.buffers[0]);
    const int fact[] = {1, 1, 2, 6, 24, 120, 720, 5040};
    for (int t = 0; t < 16; ++t)
      EXPECT_EQ(out[t], t % 2 ? 3 * t : fact[t / 2]) << "ws " << ws << " tid " << t;
  }
}

// Shared-memory tree sum over one CTA with barriers: out[ctaid] = sum of tid.
const char* const kSharedSum = R"(
.visible .entry ssum(.param .u64 out)
{
  .shared .align 4 .b8 buf[256];
  .reg .pred %p<3>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ntid.x;
  shl.b32 %r3, %r1, 2;
  mov.u32 %r4, buf;
  add.s32 %r5, %r4, %r3;
  st.shared.u32 [%r5], %r1;
  bar.sync 0;
  shr.u32 %r6, %r2, 1;
LOOP:
  setp.ge.u32 %p1, %r1, %r6;
  @%p1 bra SKIP;
  shl.b32 %r7, %r6, 2;
  add.s32 %r8, %r5, %r7;
  ld.shared.u32 %r9, [%r8];
  ld.shared.u32 %r10, [%r5];
  add.s32 %r10, %r10, %r9;
  st.shared.u32 [%r5], %r10;
SKIP:
  bar.sync 0;
  shr.u32 %r6, %r6, 1;
  setp.ne.s32 %p2, %r6, 0;
  @%p2 bra LOOP;
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra DONE;
  ld.shared.u32 %r11, [buf];
  ld.param.u64 %rd1, [out];
  mov.u32 %r9, %ctaid.x;
  mul.wide.u32 %rd2, %r9, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r11;
DONE:
  ret;
}
)";

TEST(Executor, SharedMemoryAndBarriersAcrossWarps) {
  ExecConfig c;
  c.warp_size = 8;
  KernelRun r = run(kSharedSum, "ssum", one_buffer(3, 64, std::vector<int32_t>(3, -1)), c);
  auto out = i32_values(r.launch.buffers[0]);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(out[i], 63 * 64 / 2);
}

// Warps take turns through a global spin lock (atomic CAS, exch to release):
// each warp's lane 0 adds its warp id + 1 to a counter inside the lock.
const char* const kSpin = R"(
.visible .entry spin(.param .u64 data)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [data];
  mov.u32 %r1, %laneid;
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra DONE;
TRY:
  atom.global.cas.b32 %r2, [%rd1], 0, 1;
  setp.ne.s32 %p2, %r2, 0;
  @%p2 bra TRY;
  ld.volatile.global.u32 %r3, [%rd1+4];
  mov.u32 %r4, %warpid;
  add.s32 %r5, %r4, 1;
  add.s32 %r3, %r3, %r5;
  st.volatile.global.u32 [%rd1+4], %r3;
  membar.gl;
  atom.global.exch.b32 %r6, [%rd1], 0;
DONE:
  ret;
}
)";

TEST(Executor, SpinLockAcrossWarpsCompletes) {
  ExecConfig c;
  c.warp_size = 8;
  KernelRun r = run(kSpin, "spin", one_buffer(1, 64, {0, 0}), c);
  auto d = i32_values(r.launch.buffers[0]);
  EXPECT_EQ(d[0], 0);
  EXPECT_EQ(d[1], 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8);
}

}  // namespace
}  // namespace warptlm
