// Helpers for executor tests: build a program from PTX text and launch it
// with int32 buffers.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "exec/functional_executor.h"
#include "frontend/program.h"
#include "frontend/ptx_parser.h"

namespace warptlm::testing {

// out[i] = i < 12 ? i * 3 : -i, for i = global thread index.
inline const char* const kDiverge = R"(
.visible .entry diverge(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  setp.lt.s32 %p1, %r4, 12;
  @%p1 bra THEN;
  neg.s32 %r5, %r4;
  bra.uni JOIN;
THEN:
  mul.lo.s32 %r5, %r4, 3;
JOIN:
  mul.wide.s32 %rd3, %r4, 4;
  add.s64 %rd3, %rd2, %rd3;
  st.global.u32 [%rd3], %r5;
  ret;
}
)";

// out[ctaid * 32 + tid] = cond ? 2 : 1 with cond = (ctaid == 0 ? tid < 16 :
// tid even): one branch whose CTA-wide pattern is the low half in CTA 0 and
// the even threads in CTAs 1 and 2 (CAPRI's tests: test_capri_exec.cc and
// tests/sm/test_compaction_issue.cc).
inline const char* const kCapriMixed = R"(
.visible .entry mixed(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  and.b32 %r3, %r1, 1;
  setp.lt.u32 %p2, %r1, 16;
  selp.u32 %r4, 1, 0, %p2;
  xor.b32 %r5, %r3, 1;
  setp.eq.s32 %p3, %r2, 0;
  selp.u32 %r6, %r4, %r5, %p3;
  setp.ne.s32 %p1, %r6, 0;
  @%p1 bra A;
  mov.u32 %r7, 1;
  bra.uni J;
A:
  mov.u32 %r7, 2;
J:
  mad.lo.s32 %r8, %r2, 32, %r1;
  mul.wide.u32 %rd3, %r8, 4;
  add.s64 %rd3, %rd2, %rd3;
  st.global.u32 [%rd3], %r7;
  ret;
}
)";

inline std::string ptx_module(const std::string& body) {
  return ".version 7.0\n.target sm_70\n.address_size 64\n\n" + body;
}

inline HostBuffer i32_buffer(const std::string& name, const std::vector<int32_t>& values) {
  HostBuffer b;
  b.name = name;
  b.bytes.resize(values.size() * 4);
  std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
  return b;
}

inline std::vector<int32_t> i32_values(const HostBuffer& b) {
  std::vector<int32_t> v(b.bytes.size() / 4);
  std::memcpy(v.data(), b.bytes.data(), v.size() * 4);
  return v;
}

struct KernelRun {
  RunStats stats;
  LaunchSpec launch;
};

inline KernelRun run(const std::string& ptx, const std::string& entry, LaunchSpec launch,
                     ExecConfig config = {}) {
  Program p = finalize(parse_ptx(ptx_module(ptx), "test.ptx"));
  KernelRun r;
  r.stats = run_functional(p, entry, launch, config);
  r.launch = std::move(launch);
  return r;
}

// A launch of `threads` threads in CTAs of `block` with one int32 buffer.
inline LaunchSpec one_buffer(uint32_t grid, uint32_t block, std::vector<int32_t> values) {
  LaunchSpec l;
  l.grid = {grid, 1, 1};
  l.block = {block, 1, 1};
  l.buffers.push_back(i32_buffer("out", values));
  l.args.push_back(KernelArg::buffer_arg(0));
  return l;
}

}  // namespace warptlm::testing
