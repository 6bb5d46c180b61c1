// cta_resources(): registers per thread from the kernel's register pressure
// (the 32-bit registers live at once: 64-bit x2, predicates 0, rounded up to
// 4), whole warps, static + dynamic shared memory; cta_fit_problem(): the
// first limit a CTA passes.
#include <gtest/gtest.h>

#include "exec/cta_fit.h"
#include "exec/functional_executor.h"
#include "frontend/ptx_parser.h"

namespace warptlm {
namespace {

// 18 32-bit units declared; at most 6 live at once (after `cvt.u32.u16`:
// %rd1, %fd1, %r1 and %r2; or before it, with %h1 instead of %r2).
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
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  cvt.rn.f64.u32 %fd1, %r1;
  mov.b16 %h1, 7;
  cvt.u32.u16 %r2, %h1;
  add.f64 %fd1, %fd1, %fd1;
  cvt.rzi.u32.f64 %r3, %fd1;
  add.u32 %r4, %r2, %r3;
  add.u32 %r4, %r4, %r1;
  @%p1 st.global.u32 [%rd1], %r4;
  ret;
}
)";

TEST(CtaResources, RegistersAreThePeakLiveCountRoundedToFour) {
  Program program = finalize(parse_ptx(kKernel));
  const Function& k = *program.module.find_function("k");
  ASSERT_EQ(k.regs.size(), 3u + 5u + 3u + 2u + 2u);  // %p0..2, %r0..4, %rd0..2, %fd0..1, %h0..1
  SmLimits sm;                                       // max 63 registers per thread
  // Per thread: 6 live at most -> 8. 48 threads are 2 warps = 64 lanes: 8 x 64 = 512.
  CtaResources r = cta_resources(program.module, k, Dim3{48, 1, 1}, 28, sm, 32);
  EXPECT_EQ(r.threads, 48u);
  EXPECT_EQ(r.warps, 2u);
  EXPECT_EQ(r.registers, 512u);
  EXPECT_EQ(r.shared_memory, 100u + 28u);  // static tile + dynamic

  // Warp size 8: 48 threads are 6 whole warps: 8 x 48 = 384.
  r = cta_resources(program.module, k, Dim3{4, 4, 3}, 0, sm, 8);
  EXPECT_EQ(r.threads, 48u);
  EXPECT_EQ(r.warps, 6u);
  EXPECT_EQ(r.registers, 384u);
  EXPECT_EQ(r.shared_memory, 100u);

  // The cap: ptxas allocates at most sm.max_registers_per_thread.
  sm.max_registers_per_thread = 5;
  r = cta_resources(program.module, k, Dim3{32, 1, 1}, 0, sm, 32);
  EXPECT_EQ(r.registers, 8u * 32u);  // 5, rounded up to 8
}

TEST(CtaFit, NamesTheFirstResourceACtaNeedsMoreOf) {
  SmLimits sm;  // 1024 threads, 32 warps, 16384 registers, 32768 bytes of shared memory
  CtaResources r;
  r.threads = 1024;
  r.warps = 32;
  r.registers = 16384;
  r.shared_memory = 32768;
  r.local_memory = kLocalMemoryPerThread;
  EXPECT_FALSE(cta_fit_problem(r, 0, sm, 32).has_value());  // every limit exactly met

  CtaResources more = r;
  more.warps = 33;
  auto p = cta_fit_problem(more, 0, sm, 32);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->resource, SmResource::Warps);
  // sm.threads / warp_size is the tighter warp limit at warp size 64.
  p = cta_fit_problem(r, 0, sm, 64);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->resource, SmResource::Warps);
  EXPECT_NE(p->message.find("sm.threads / warp_size = 1024 / 64"), std::string::npos) << p->message;

  more = r;
  more.registers = 16385;
  p = cta_fit_problem(more, 0, sm, 32);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->resource, SmResource::Registers);

  more = r;
  more.shared_memory = 32769;
  p = cta_fit_problem(more, 1, sm, 32);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->resource, SmResource::SharedMemory);
  EXPECT_NE(p->message.find("32769 bytes of shared memory (32768 static + 1 dynamic)"),
            std::string::npos)
      << p->message;

  more = r;
  more.local_memory = kLocalMemoryPerThread + 1;
  p = cta_fit_problem(more, 0, sm, 32);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->resource, SmResource::LocalMemory);
  EXPECT_NE(p->message.find("524289 bytes of local memory"), std::string::npos) << p->message;
}

TEST(LaunchBudget, AutomaticBudgetScalesWithTheLaunchsWarps) {
  // A configured budget is kept.
  EXPECT_EQ(launch_budget(1000, Dim3{1000, 1, 1}, Dim3{1024, 1, 1}, 32), 1000u);
  // 0: 2^24 per warp: one warp of 1 thread, 3 CTAs of 2 warps.
  EXPECT_EQ(launch_budget(0, Dim3{1, 1, 1}, Dim3{1, 1, 1}, 32), uint64_t(1) << 24);
  EXPECT_EQ(launch_budget(0, Dim3{3, 1, 1}, Dim3{33, 1, 1}, 32), 6 * (uint64_t(1) << 24));
  // At most 2^32, also for grids whose warp count overflows 64 bits.
  EXPECT_EQ(launch_budget(0, Dim3{256, 1, 1}, Dim3{32, 1, 1}, 32), uint64_t(1) << 32);
  EXPECT_EQ(launch_budget(0, Dim3{0x7fffffff, 65535, 65535}, Dim3{1024, 1, 1}, 4), uint64_t(1)
                                                                                       << 32);
}

}  // namespace
}  // namespace warptlm
