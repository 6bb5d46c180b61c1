// A new warp's registers read as zero where a thread may read them before
// writing them, even when its frame reuses the storage of a warp that wrote
// them (frames zero only those registers: frontend/read_before_write.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "exec/prepared_program.h"
#include "exec_test_util.h"

namespace warptlm::testing {
namespace {

// CTA 0 writes 123 into %r5 and %r6; every thread then stores %r5 (read
// before written in every other CTA) and %r7, which every path writes.
const char* const kConditionalWrite = R"(
.visible .entry cond(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<9>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  mov.u32 %r7, 9;
  setp.ne.s32 %p1, %r2, 0;
  @%p1 bra STORE;
  mov.u32 %r5, 123;
  mov.u32 %r6, 123;
  mov.u32 %r7, 123;
STORE:
  add.s32 %r8, %r5, %r7;
  mul.wide.s32 %rd3, %r4, 4;
  add.s64 %rd3, %rd2, %rd3;
  st.global.u32 [%rd3], %r8;
  ret;
}
)";

TEST(RegisterZeroing, ARegisterReadBeforeItsWriteIsZeroInEveryWarp) {
  const uint32_t grid = 8, block = 64;
  for (const char* scheme : {"ipdom", "sorted_list", "exec_mask"}) {
    SCOPED_TRACE(scheme);
    ExecConfig config;
    config.reconvergence = scheme;
    const Program p = prepare_program(parse_ptx(ptx_module(kConditionalWrite), "test.ptx"), scheme);
    LaunchSpec launch = one_buffer(grid, block, std::vector<int32_t>(grid * block, -1));
    run_functional(p, "cond", launch, config);
    const std::vector<int32_t> out = i32_values(launch.buffers[0]);
    for (uint32_t i = 0; i < grid * block; ++i)
      ASSERT_EQ(out[i], i < block ? 246 : 9) << "thread " << i;
  }
}

}  // namespace
}  // namespace warptlm::testing
