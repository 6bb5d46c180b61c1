// %clock64 in timing mode reads the SM's cycle counter at issue: a kernel
// that times a dependent chain measures exactly the cycles the trace shows.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "behaviour_support.h"
#include "common/systemc_child.h"

namespace warptlm::behaviour {
namespace {

using testing::in_child_process;

const char* const kClocked = R"(
.visible .entry clocked(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd0, [out];
  mov.u64 %rd1, %clock64;
  mov.u32 %r0, 1;
  add.u32 %r1, %r0, 1;
  add.u32 %r2, %r1, 1;
  mov.u64 %rd2, %clock64;
  sub.s64 %rd3, %rd2, %rd1;
  st.global.u64 [%rd0], %rd3;
  exit;
}
)";

TEST(Clock, AKernelTimesItselfInSmCycles) {
  in_child_process([] {
    LaunchSpec l = launch_of(1, 32);
    HostBuffer out;
    out.name = "out";
    out.bytes.assign(8, 0);
    l.buffers = {out};
    l.args = {KernelArg::buffer_arg(0)};
    PlatformConfig c = quiet_config();
    c.sm.sp.latency = 4;
    TraceBuffer trace;
    Program program = finalize(parse_ptx(kPtxHeader + kClocked, "clocked.ptx"));
    run_timing(program, "clocked", l, c, nullptr, &trace);
    // ld.param 0; first clock read 1; mov 2 (r0 at 6); adds at 6 and 10;
    // second clock read 11: 11 - 1 = 10 cycles.
    uint64_t measured = 0;
    std::memcpy(&measured, l.buffers[0].bytes.data(), 8);
    EXPECT_EQ(measured, 10u);
    ASSERT_EQ(trace.records.size(), 9u);
    EXPECT_EQ(trace.records[5].step - trace.records[1].step, measured);
  });
}

}  // namespace
}  // namespace warptlm::behaviour
