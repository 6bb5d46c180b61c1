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
// hungry: 100 32-bit registers per thread, all live at once (r1..r99
// built from r0, then summed into it).
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
  mov.u32 %r0, %tid.x;
  add.u32 %r1, %r0, 1;
  add.u32 %r2, %r1, 1;
  add.u32 %r3, %r2, 1;
  add.u32 %r4, %r3, 1;
  add.u32 %r5, %r4, 1;
  add.u32 %r6, %r5, 1;
  add.u32 %r7, %r6, 1;
  add.u32 %r8, %r7, 1;
  add.u32 %r9, %r8, 1;
  add.u32 %r10, %r9, 1;
  add.u32 %r11, %r10, 1;
  add.u32 %r12, %r11, 1;
  add.u32 %r13, %r12, 1;
  add.u32 %r14, %r13, 1;
  add.u32 %r15, %r14, 1;
  add.u32 %r16, %r15, 1;
  add.u32 %r17, %r16, 1;
  add.u32 %r18, %r17, 1;
  add.u32 %r19, %r18, 1;
  add.u32 %r20, %r19, 1;
  add.u32 %r21, %r20, 1;
  add.u32 %r22, %r21, 1;
  add.u32 %r23, %r22, 1;
  add.u32 %r24, %r23, 1;
  add.u32 %r25, %r24, 1;
  add.u32 %r26, %r25, 1;
  add.u32 %r27, %r26, 1;
  add.u32 %r28, %r27, 1;
  add.u32 %r29, %r28, 1;
  add.u32 %r30, %r29, 1;
  add.u32 %r31, %r30, 1;
  add.u32 %r32, %r31, 1;
  add.u32 %r33, %r32, 1;
  add.u32 %r34, %r33, 1;
  add.u32 %r35, %r34, 1;
  add.u32 %r36, %r35, 1;
  add.u32 %r37, %r36, 1;
  add.u32 %r38, %r37, 1;
  add.u32 %r39, %r38, 1;
  add.u32 %r40, %r39, 1;
  add.u32 %r41, %r40, 1;
  add.u32 %r42, %r41, 1;
  add.u32 %r43, %r42, 1;
  add.u32 %r44, %r43, 1;
  add.u32 %r45, %r44, 1;
  add.u32 %r46, %r45, 1;
  add.u32 %r47, %r46, 1;
  add.u32 %r48, %r47, 1;
  add.u32 %r49, %r48, 1;
  add.u32 %r50, %r49, 1;
  add.u32 %r51, %r50, 1;
  add.u32 %r52, %r51, 1;
  add.u32 %r53, %r52, 1;
  add.u32 %r54, %r53, 1;
  add.u32 %r55, %r54, 1;
  add.u32 %r56, %r55, 1;
  add.u32 %r57, %r56, 1;
  add.u32 %r58, %r57, 1;
  add.u32 %r59, %r58, 1;
  add.u32 %r60, %r59, 1;
  add.u32 %r61, %r60, 1;
  add.u32 %r62, %r61, 1;
  add.u32 %r63, %r62, 1;
  add.u32 %r64, %r63, 1;
  add.u32 %r65, %r64, 1;
  add.u32 %r66, %r65, 1;
  add.u32 %r67, %r66, 1;
  add.u32 %r68, %r67, 1;
  add.u32 %r69, %r68, 1;
  add.u32 %r70, %r69, 1;
  add.u32 %r71, %r70, 1;
  add.u32 %r72, %r71, 1;
  add.u32 %r73, %r72, 1;
  add.u32 %r74, %r73, 1;
  add.u32 %r75, %r74, 1;
  add.u32 %r76, %r75, 1;
  add.u32 %r77, %r76, 1;
  add.u32 %r78, %r77, 1;
  add.u32 %r79, %r78, 1;
  add.u32 %r80, %r79, 1;
  add.u32 %r81, %r80, 1;
  add.u32 %r82, %r81, 1;
  add.u32 %r83, %r82, 1;
  add.u32 %r84, %r83, 1;
  add.u32 %r85, %r84, 1;
  add.u32 %r86, %r85, 1;
  add.u32 %r87, %r86, 1;
  add.u32 %r88, %r87, 1;
  add.u32 %r89, %r88, 1;
  add.u32 %r90, %r89, 1;
  add.u32 %r91, %r90, 1;
  add.u32 %r92, %r91, 1;
  add.u32 %r93, %r92, 1;
  add.u32 %r94, %r93, 1;
  add.u32 %r95, %r94, 1;
  add.u32 %r96, %r95, 1;
  add.u32 %r97, %r96, 1;
  add.u32 %r98, %r97, 1;
  add.u32 %r99, %r98, 1;
  add.u32 %r0, %r0, %r1;
  add.u32 %r0, %r0, %r2;
  add.u32 %r0, %r0, %r3;
  add.u32 %r0, %r0, %r4;
  add.u32 %r0, %r0, %r5;
  add.u32 %r0, %r0, %r6;
  add.u32 %r0, %r0, %r7;
  add.u32 %r0, %r0, %r8;
  add.u32 %r0, %r0, %r9;
  add.u32 %r0, %r0, %r10;
  add.u32 %r0, %r0, %r11;
  add.u32 %r0, %r0, %r12;
  add.u32 %r0, %r0, %r13;
  add.u32 %r0, %r0, %r14;
  add.u32 %r0, %r0, %r15;
  add.u32 %r0, %r0, %r16;
  add.u32 %r0, %r0, %r17;
  add.u32 %r0, %r0, %r18;
  add.u32 %r0, %r0, %r19;
  add.u32 %r0, %r0, %r20;
  add.u32 %r0, %r0, %r21;
  add.u32 %r0, %r0, %r22;
  add.u32 %r0, %r0, %r23;
  add.u32 %r0, %r0, %r24;
  add.u32 %r0, %r0, %r25;
  add.u32 %r0, %r0, %r26;
  add.u32 %r0, %r0, %r27;
  add.u32 %r0, %r0, %r28;
  add.u32 %r0, %r0, %r29;
  add.u32 %r0, %r0, %r30;
  add.u32 %r0, %r0, %r31;
  add.u32 %r0, %r0, %r32;
  add.u32 %r0, %r0, %r33;
  add.u32 %r0, %r0, %r34;
  add.u32 %r0, %r0, %r35;
  add.u32 %r0, %r0, %r36;
  add.u32 %r0, %r0, %r37;
  add.u32 %r0, %r0, %r38;
  add.u32 %r0, %r0, %r39;
  add.u32 %r0, %r0, %r40;
  add.u32 %r0, %r0, %r41;
  add.u32 %r0, %r0, %r42;
  add.u32 %r0, %r0, %r43;
  add.u32 %r0, %r0, %r44;
  add.u32 %r0, %r0, %r45;
  add.u32 %r0, %r0, %r46;
  add.u32 %r0, %r0, %r47;
  add.u32 %r0, %r0, %r48;
  add.u32 %r0, %r0, %r49;
  add.u32 %r0, %r0, %r50;
  add.u32 %r0, %r0, %r51;
  add.u32 %r0, %r0, %r52;
  add.u32 %r0, %r0, %r53;
  add.u32 %r0, %r0, %r54;
  add.u32 %r0, %r0, %r55;
  add.u32 %r0, %r0, %r56;
  add.u32 %r0, %r0, %r57;
  add.u32 %r0, %r0, %r58;
  add.u32 %r0, %r0, %r59;
  add.u32 %r0, %r0, %r60;
  add.u32 %r0, %r0, %r61;
  add.u32 %r0, %r0, %r62;
  add.u32 %r0, %r0, %r63;
  add.u32 %r0, %r0, %r64;
  add.u32 %r0, %r0, %r65;
  add.u32 %r0, %r0, %r66;
  add.u32 %r0, %r0, %r67;
  add.u32 %r0, %r0, %r68;
  add.u32 %r0, %r0, %r69;
  add.u32 %r0, %r0, %r70;
  add.u32 %r0, %r0, %r71;
  add.u32 %r0, %r0, %r72;
  add.u32 %r0, %r0, %r73;
  add.u32 %r0, %r0, %r74;
  add.u32 %r0, %r0, %r75;
  add.u32 %r0, %r0, %r76;
  add.u32 %r0, %r0, %r77;
  add.u32 %r0, %r0, %r78;
  add.u32 %r0, %r0, %r79;
  add.u32 %r0, %r0, %r80;
  add.u32 %r0, %r0, %r81;
  add.u32 %r0, %r0, %r82;
  add.u32 %r0, %r0, %r83;
  add.u32 %r0, %r0, %r84;
  add.u32 %r0, %r0, %r85;
  add.u32 %r0, %r0, %r86;
  add.u32 %r0, %r0, %r87;
  add.u32 %r0, %r0, %r88;
  add.u32 %r0, %r0, %r89;
  add.u32 %r0, %r0, %r90;
  add.u32 %r0, %r0, %r91;
  add.u32 %r0, %r0, %r92;
  add.u32 %r0, %r0, %r93;
  add.u32 %r0, %r0, %r94;
  add.u32 %r0, %r0, %r95;
  add.u32 %r0, %r0, %r96;
  add.u32 %r0, %r0, %r97;
  add.u32 %r0, %r0, %r98;
  add.u32 %r0, %r0, %r99;
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
