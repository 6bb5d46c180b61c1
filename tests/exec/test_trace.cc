// The executor's per-issued-instruction trace on a small divergent kernel,
// checked against the issue order derived by hand from the IPDOM rules.
#include <gtest/gtest.h>

#include "exec_test_util.h"

namespace warptlm {
namespace {
using namespace warptlm::testing;

// out[i] = i < 12 ? i * 3 : -i. PCs (8 bytes each) in the comments.
const char* const kDiverge = R"(
.visible .entry diverge(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];         // 0
  cvta.to.global.u64 %rd2, %rd1;    // 8
  mov.u32 %r1, %tid.x;              // 16
  mov.u32 %r2, %ctaid.x;            // 24
  mov.u32 %r3, %ntid.x;             // 32
  mad.lo.s32 %r4, %r2, %r3, %r1;    // 40
  setp.lt.s32 %p1, %r4, 12;         // 48
  @%p1 bra THEN;                    // 56, reconverges at JOIN (88)
  neg.s32 %r5, %r4;                 // 64
  bra.uni JOIN;                     // 72
THEN:
  mul.lo.s32 %r5, %r4, 3;           // 80
JOIN:
  mul.wide.s32 %rd3, %r4, 4;        // 88
  add.s64 %rd3, %rd2, %rd3;         // 96
  st.global.u32 [%rd3], %r5;        // 104
  ret;                              // 112
}
)";

struct Expected {
  uint32_t warp, split;
  Pc pc;
  LaneMask mask;
};

// Appends the issues of pcs [from, to] (step 8) with one warp, split and mask.
void straight(std::vector<Expected>& e, uint32_t warp, uint32_t split, Pc from, Pc to, LaneMask m) {
  for (Pc pc = from; pc <= to; pc += 8) e.push_back({warp, split, pc, m});
}

TEST(Trace, IssueOrderOfDivergentKernelMatchesIpdomRules) {
  ExecConfig c;
  c.warp_size = 8;
  LaunchSpec launch = one_buffer(2, 16, std::vector<int32_t>(32, 0));
  Program p = finalize(parse_ptx(ptx_module(kDiverge), "test.ptx"));
  TraceBuffer trace;
  RunStats stats = run_functional(p, "diverge", launch, c, &trace);

  // CTAs run in order; within a CTA each warp runs up to the 64-instruction
  // quantum, longer than this kernel, so warps run one after another.
  std::vector<Expected> e;
  // CTA 0, warp 0: threads 0..7 all take THEN.
  straight(e, 0, 0, 0, 56, 0xff);
  straight(e, 0, 0, 80, 112, 0xff);
  // CTA 0, warp 1: threads 8..11 (lanes 0..3) take THEN, 12..15 fall through.
  // The stack keeps the reconvergence entry (split 0) and pushes the
  // not-taken path (split 1) then the taken path (split 2), which runs first.
  straight(e, 1, 0, 0, 56, 0xff);
  straight(e, 1, 2, 80, 80, 0x0f);
  straight(e, 1, 1, 64, 72, 0xf0);
  straight(e, 1, 0, 88, 112, 0xff);
  // CTA 1 (global warps 2 and 3): threads 16..31, nobody takes THEN.
  for (uint32_t w : {2u, 3u}) {
    straight(e, w, 0, 0, 72, 0xff);
    straight(e, w, 0, 88, 112, 0xff);
  }
  ASSERT_EQ(trace.records.size(), e.size());
  ASSERT_EQ(trace.records.size(), stats.warp_instructions);
  for (size_t i = 0; i < e.size(); ++i) {
    const TraceRecord& r = trace.records[i];
    SCOPED_TRACE("record " + std::to_string(i));
    EXPECT_EQ(r.step, i);
    EXPECT_EQ(r.sm, 0u);
    EXPECT_EQ(r.warp, e[i].warp);
    EXPECT_EQ(r.split, e[i].split);
    EXPECT_EQ(r.pc, e[i].pc);
    EXPECT_EQ(r.mask, e[i].mask);
  }
}

TEST(Trace, TracingDoesNotChangeTheRun) {
  ExecConfig c;
  c.warp_size = 8;
  Program p = finalize(parse_ptx(ptx_module(kDiverge), "test.ptx"));
  LaunchSpec a = one_buffer(2, 16, std::vector<int32_t>(32, 0)), b = a;
  TraceBuffer trace;
  RunStats with = run_functional(p, "diverge", a, c, &trace);
  RunStats without = run_functional(p, "diverge", b, c);
  EXPECT_EQ(with.to_json(), without.to_json());
  EXPECT_EQ(i32_values(a.buffers[0]), i32_values(b.buffers[0]));
}

TEST(Trace, FaultCarriesItsSite) {
  // Every thread stores at out[tid + 3] of an 8-int buffer, so threads 5, 6
  // and 7 are out of bounds; lane 5 is the first the semantics visit.
  const char* const kOob = R"(
.visible .entry oob(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  add.s32 %r2, %r1, 3;
  mul.wide.s32 %rd3, %r2, 4;
  add.s64 %rd3, %rd2, %rd3;
  st.global.u32 [%rd3], %r1;
  ret;
}
)";
  Program p = finalize(parse_ptx(ptx_module(kOob), "test.ptx"));
  LaunchSpec launch = one_buffer(1, 8, std::vector<int32_t>(8, 0));
  try {
    run_functional(p, "oob", launch);
    FAIL() << "no fault";
  } catch (const KernelFault& f) {
    EXPECT_EQ(f.site.kernel, "oob");
    EXPECT_EQ(f.site.pc, 48u);
    ASSERT_TRUE(f.site.has_thread);
    EXPECT_EQ(f.site.tid.x, 5u);
    EXPECT_EQ(f.site.lane, 5u);
    ASSERT_TRUE(f.site.has_address);
    EXPECT_EQ(f.site.space, Space::Global);
    EXPECT_EQ(f.site.address % 256, 32u);  // allocations are 256-byte aligned; out[8]
    EXPECT_NE(std::string(f.what()).find("past the end of 'out'"), std::string::npos) << f.what();
  }
}

}  // namespace
}  // namespace warptlm
