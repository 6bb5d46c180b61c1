// cta_resources(): registers per thread from the kernel's declarations
// (64-bit x2, predicates 0, rounded up to 4), whole warps, static + dynamic
// shared memory.
#include <gtest/gtest.h>

#include "frontend/ptx_parser.h"
#include "sm/kernel_launch.h"

namespace warptlm {
namespace {

const char* const kKernel = R"(.version 7.0
.target sm_70
.address_size 64

.visible .entry k(.param .u64 out)
{
  .shared .align 4 .b8 tile[100];
  .reg .pred %p<3>;
  .reg .b32 %r<5>;
  .reg .b64 %rd<3>;
  .reg .f64 %fd<2>;
  .reg .b16 %h<2>;
  ret;
}
)";

TEST(CtaResources, RegistersCountIn32BitUnitsRoundedToFour) {
  Program program = finalize(parse_ptx(kKernel));
  const Function& k = *program.module.find_function("k");
  ASSERT_EQ(k.regs.size(), 3u + 5u + 3u + 2u + 2u);  // %p0..2, %r0..4, %rd0..2, %fd0..1, %h0..1
  PlatformConfig config;                             // warp size 32
  // Per thread: 0 (pred) + 5 (b32) + 3 x 2 (b64) + 2 x 2 (f64) + 2 (b16) = 17 -> 20.
  // 48 threads are 2 warps = 64 lanes: 20 x 64 = 1280 registers.
  CtaResources r = cta_resources(program, k, Dim3{48, 1, 1}, 28, config);
  EXPECT_EQ(r.threads, 48u);
  EXPECT_EQ(r.warps, 2u);
  EXPECT_EQ(r.registers, 1280u);
  EXPECT_EQ(r.shared_memory, 100u + 28u);  // static tile + dynamic

  // Warp size 8: 48 threads are 6 whole warps: 20 x 48 = 960.
  config.warp_size = 8;
  r = cta_resources(program, k, Dim3{4, 4, 3}, 0, config);
  EXPECT_EQ(r.threads, 48u);
  EXPECT_EQ(r.warps, 6u);
  EXPECT_EQ(r.registers, 960u);
  EXPECT_EQ(r.shared_memory, 100u);
}

}  // namespace
}  // namespace warptlm
