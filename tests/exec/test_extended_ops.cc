// The executor's side of the instructions added for compiler output: trap
// ends the run with a fault naming the trapping thread, the carry register
// lives in each call frame, and %dynamic_smem_size / %total_smem_size report
// the CTA's shared memory.
#include <gtest/gtest.h>

#include "exec_test_util.h"

namespace warptlm {
namespace {
using namespace warptlm::testing;

// out[tid] = tid; thread `victim` (a parameter) traps first when it is in
// range. A guard no lane satisfies, or a trap on a path nobody takes, does
// nothing.
const char* const kTrap = R"(
.visible .entry trapper(.param .u64 out, .param .u32 victim)
{
  .reg .pred %p<4>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r2, [victim];
  mov.u32 %r1, %tid.x;
  setp.gt.u32 %p2, %r1, 1000;
  @%p2 bra NEVER;
  setp.eq.u32 %p1, %r1, %r2;
  @%p1 trap;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
NEVER:
  trap;
}
)";

LaunchSpec trap_launch(uint32_t victim) {
  LaunchSpec l = one_buffer(1, 40, std::vector<int32_t>(40, -1));
  l.args.push_back(KernelArg::scalar(Type::U32, victim));
  return l;
}

TEST(Trap, FaultNamesKernelPcAndTrappingThread) {
  for (unsigned ws : {8u, 32u}) {
    ExecConfig c;
    c.warp_size = ws;
    try {
      run(kTrap, "trapper", trap_launch(37), c);
      ADD_FAILURE() << "no KernelFault at warp size " << ws;
    } catch (const KernelFault& f) {
      const std::string msg = f.what();
      for (const std::string part :
           {"kernel 'trapper'", "PC 0x30", "`@%p1 trap`", "thread (37,0,0)", "trap executed"})
        EXPECT_NE(msg.find(part), std::string::npos) << "'" << part << "' not in: " << msg;
      EXPECT_NE(msg.find("lane " + std::to_string(37 % ws)), std::string::npos) << msg;
    }
  }
}

TEST(Trap, UnexecutedTrapsDoNothing) {
  KernelRun r = run(kTrap, "trapper", trap_launch(999));
  const auto out = i32_values(r.launch.buffers[0]);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(out[i], i);
}

// out[tid] = the carry out of 0xffffff00 + 16 * tid, computed by a device
// function with its own carry chain; the kernel's chain around the call
// keeps its flag in its own frame.
const char* const kCarryCall = R"(
.func (.param .b32 ret) carry_of(.param .b32 a)
{
  .reg .b32 %r<4>;
  ld.param.u32 %r1, [a];
  add.cc.u32 %r2, %r1, -256;
  addc.u32 %r3, 0, 0;
  st.param.b32 [ret], %r3;
  ret;
}
.visible .entry carries(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 4;
  add.cc.u32 %r5, %r1, -1;
  {
    .param .b32 a;
    .param .b32 ret;
    st.param.b32 [a], %r2;
    call.uni (ret), carry_of, (a);
    ld.param.b32 %r3, [ret];
  }
  addc.u32 %r4, %r3, 0;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  ret;
}
)";

TEST(CarryFlag, EachCallFrameHasItsOwn) {
  for (unsigned ws : {4u, 16u, 32u}) {
    ExecConfig c;
    c.warp_size = ws;
    KernelRun r = run(kCarryCall, "carries", one_buffer(1, 32, std::vector<int32_t>(32, -1)), c);
    const auto out = i32_values(r.launch.buffers[0]);
    for (int t = 0; t < 32; ++t) {
      // Callee: 16 t + 0xffffff00 carries from t = 16 on. Caller: t - 1 + 2^32
      // carries for every t > 0 (tid + 0xffffffff).
      const int callee = t >= 16 ? 1 : 0, caller = t > 0 ? 1 : 0;
      EXPECT_EQ(out[t], callee + caller) << "ws " << ws << " t " << t;
    }
  }
}

// out[0] = %dynamic_smem_size, out[1] = %total_smem_size; the last word of
// the dynamic area is written (every dynamic byte is the CTA's, whatever
// padding the extern array's alignment puts before it).
const char* const kSmem = R"(
.shared .align 4 .b8 fixed[100];
.extern .shared .align 16 .b8 dyn[];
.visible .entry smem(.param .u64 out)
{
  .reg .pred %p1;
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %dynamic_smem_size;
  mov.u32 %r2, %total_smem_size;
  st.global.u32 [%rd1], %r1;
  st.global.u32 [%rd1+4], %r2;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  mov.u32 %r3, dyn;
  add.u32 %r3, %r3, %r1;
  st.shared.u32 [%r3+-4], %r2;
DONE:
  ret;
}
)";

TEST(SpecialRegisters, SharedMemorySizes) {
  for (uint32_t dynamic : {0u, 256u, 4000u}) {
    LaunchSpec l = one_buffer(1, 1, {-1, -1});
    l.shared_bytes = dynamic;
    KernelRun r = run(kSmem, "smem", std::move(l));
    const auto out = i32_values(r.launch.buffers[0]);
    EXPECT_EQ(out[0], int32_t(dynamic));
    EXPECT_EQ(out[1], int32_t(112 + dynamic));  // 100 static bytes padded to dyn's 16
  }
}

}  // namespace
}  // namespace warptlm
