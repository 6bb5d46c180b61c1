// PTX kernels and helpers shared by the Gpu and run_timing tests.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "exec/launch.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"

namespace warptlm::testing {

// add: out[i] = in[i] + value for i = global thread index.
// crash: stores through a null pointer.
// hungry: 100 32-bit registers per thread.
inline const char* const kGpuKernels = R"(.version 7.0
.target sm_70
.address_size 64

.visible .entry add(.param .u64 in, .param .u64 out, .param .u32 value)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r1, [value];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.s32 %r5, %r3, %r4, %r2;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r6, [%rd4];
  add.u32 %r7, %r6, %r1;
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r7;
  ret;
}

.visible .entry crash()
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  mov.u64 %rd1, 0;
  mov.u32 %r1, 5;
  st.global.u32 [%rd1], %r1;
  ret;
}

.visible .entry hungry()
{
  .reg .b32 %r<100>;
  ret;
}
)";

// A kernel with 16 KB of static shared memory.
inline const char* const kTiledKernel = R"(.version 7.0
.target sm_70
.address_size 64

.visible .entry tiled()
{
  .shared .align 4 .b8 tile[16384];
  ret;
}
)";

// reduce: each CTA of 64 threads sums f(in[i]) over its threads into out[ctaid],
// f(v) = v odd ? v * v : v, 0 past n; shared memory tree with barriers, a
// divergent branch and a loop.
inline const char* const kReduceKernel = R"(.version 7.0
.target sm_70
.address_size 64

.visible .entry reduce(.param .u64 in, .param .u64 out, .param .u32 n)
{
  .shared .align 4 .b32 buf[64];
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.s32 %r5, %r3, %r4, %r2;
  mov.u32 %r6, 0;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra STORE;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r6, [%rd4];
  and.b32 %r7, %r6, 1;
  setp.eq.u32 %p2, %r7, 0;
  @%p2 bra STORE;
  mul.lo.u32 %r6, %r6, %r6;
STORE:
  mov.u32 %r8, buf;
  shl.b32 %r9, %r2, 2;
  add.u32 %r10, %r8, %r9;
  st.shared.u32 [%r10], %r6;
  bar.sync 0;
  mov.u32 %r11, 32;
LOOP:
  setp.ge.u32 %p3, %r2, %r11;
  @%p3 bra SKIP;
  shl.b32 %r12, %r11, 2;
  add.u32 %r13, %r10, %r12;
  ld.shared.u32 %r14, [%r13];
  ld.shared.u32 %r15, [%r10];
  add.u32 %r15, %r15, %r14;
  st.shared.u32 [%r10], %r15;
SKIP:
  bar.sync 0;
  shr.u32 %r11, %r11, 1;
  setp.ne.u32 %p3, %r11, 0;
  @%p3 bra LOOP;
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra DONE;
  ld.shared.u32 %r14, [buf];
  mul.wide.u32 %rd5, %r3, 4;
  add.s64 %rd6, %rd2, %rd5;
  st.global.u32 [%rd6], %r14;
DONE:
  ret;
}
)";

// spin: every thread adds 1 to buf[tid.x] n times, a load and a store per
// round: a long kernel with memory traffic in flight at any moment.
inline const char* const kSpinKernel = R"(.version 7.0
.target sm_70
.address_size 64

.visible .entry spin(.param .u64 buf, .param .u32 n)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [buf];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
  mov.u32 %r3, %tid.x;
  mul.wide.u32 %rd2, %r3, 4;
  add.s64 %rd3, %rd1, %rd2;
LOOP:
  ld.global.u32 %r4, [%rd3];
  add.u32 %r4, %r4, 1;
  st.global.u32 [%rd3], %r4;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra LOOP;
  ret;
}
)";

inline Program program_of(const char* ptx) { return finalize(parse_ptx(ptx)); }

inline HostBuffer u32_buffer(const std::string& name, const std::vector<uint32_t>& values) {
  HostBuffer b;
  b.name = name;
  b.bytes.resize(values.size() * 4);
  std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
  return b;
}

inline std::vector<uint32_t> u32_values(const HostBuffer& b) {
  std::vector<uint32_t> v(b.bytes.size() / 4);
  std::memcpy(v.data(), b.bytes.data(), v.size() * 4);
  return v;
}

// The reduce launch: `ctas` CTAs of 64 threads over n = 64 * ctas - 56
// elements in[i] = (7 i) % 13.
inline LaunchSpec reduce_launch(uint32_t ctas) {
  const uint32_t n = 64 * ctas - 56;
  std::vector<uint32_t> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = (7 * i) % 13;
  LaunchSpec l;
  l.grid = Dim3{ctas, 1, 1};
  l.block = Dim3{64, 1, 1};
  l.buffers = {u32_buffer("in", in), u32_buffer("out", std::vector<uint32_t>(ctas, 0))};
  l.args = {KernelArg::buffer_arg(0), KernelArg::buffer_arg(1), KernelArg::scalar(Type::U32, n)};
  return l;
}

// What reduce computes, by hand.
inline std::vector<uint32_t> reduce_expected(uint32_t ctas) {
  const uint32_t n = 64 * ctas - 56;
  std::vector<uint32_t> out(ctas, 0);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t v = (7 * i) % 13;
    out[i / 64] += v % 2 ? v * v : v;
  }
  return out;
}

}  // namespace warptlm::testing
