// Asynchronous copies and memory barriers (tests/data/ptx/async: nvcc's PTX
// of the pipeline primitives, cuda::pipeline and cuda::barrier): staged
// cp.async pipelines, 16-byte copies with zero fill, mbarrier phases and
// cp.async tracked by an mbarrier give the CUDA results; cvt.rna.tf32 rounds
// ties away; misuse of an mbarrier is a fault that names it.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "common/async_launches.h"
#include "common/texture_launches.h"
#include "exec/functional_executor.h"
#include "exec/prepared_program.h"
#include "frontend/ptx_parser.h"

namespace warptlm {
namespace {

using namespace warptlm::testing;

const Program& async_program() {
  static const Module m = parse_ptx_file(kAsyncPtx);
  static const Program p = prepare_program(m, "ipdom");
  return p;
}

Program inline_program(const std::string& body, const std::string& params = "") {
  static std::vector<Module> keep;  // the Program refers to its Module
  keep.reserve(16);
  keep.push_back(
      parse_ptx(".version 7.0\n.target sm_80\n.address_size 64\n"
                ".visible .entry k(" +
                    params + ") {\n" + body + "\n}\n",
                "<inline>"));
  return prepare_program(keep.back(), "ipdom");
}

TEST(AsyncCopy, AThreeStageCpAsyncPipelineReadsEveryTileAfterItLanded) {
  const int ctas = 3, n = 128, tiles = 7;
  LaunchSpec l = staged_copy_launch(ctas, tiles);
  const std::vector<float> in = typed_values<float>(l.buffers[0]);
  run_functional(async_program(), "staged_copy", l, ExecConfig{});
  const std::vector<float> out = typed_values<float>(l.buffers[1]);
  for (int c = 0; c < ctas; ++c)
    for (int k = 0; k < tiles; ++k)
      for (int t = 0; t < n; ++t) {
        const size_t base = (size_t(c) * tiles + k) * n;
        ASSERT_EQ(out[base + t], 2 * in[base + t] + in[base + (t + 1) % n])
            << "cta " << c << " tile " << k << " thread " << t;
      }
}

TEST(AsyncCopy, SixteenByteCopiesAndTheZeroFilledTail) {
  const int n = 64;
  for (int valid : {16, 9, 4, 0}) {
    SCOPED_TRACE("valid bytes " + std::to_string(valid));
    std::vector<float> in(size_t(n) * 4);
    for (size_t i = 0; i < in.size(); ++i) in[i] = float(i) + 0.5f;
    LaunchSpec l;
    l.grid = {1, 1, 1};
    l.block = {n, 1, 1};
    l.buffers = {typed_buffer("in", in),
                 typed_buffer("out", std::vector<float>(size_t(n) * 8, -1))};
    l.args = {KernelArg::buffer_arg(0), KernelArg::buffer_arg(1),
              KernelArg::scalar(Type::S32, uint32_t(valid))};
    run_functional(async_program(), "copy16_zfill", l, ExecConfig{});
    const std::vector<uint8_t>& in_bytes = l.buffers[0].bytes;
    const std::vector<uint8_t>& out = l.buffers[1].bytes;
    for (int t = 0; t < n; ++t) {
      // The first half: each thread's neighbour's 16 bytes, copied whole.
      ASSERT_EQ(0, std::memcmp(&out[size_t(t) * 16], &in_bytes[size_t((t + 1) % n) * 16], 16));
      // The second half: `valid` bytes of its own float4, zeros after.
      const uint8_t* tail = &out[size_t(n + t) * 16];
      ASSERT_EQ(0, std::memcmp(tail, &in_bytes[size_t(t) * 16], size_t(valid)));
      for (int b = valid; b < 16; ++b) ASSERT_EQ(tail[b], 0) << "thread " << t << " byte " << b;
    }
  }
}

TEST(AsyncCopy, AnMbarrierSeparatesEveryRoundOfABlockReduction) {
  const int ctas = 4, n = 256;
  const LaunchSpec l = barrier_reduce_launch(ctas);
  const std::vector<int32_t> in = typed_values<int32_t>(l.buffers[0]);
  for (unsigned quantum : {1u, 7u, 1000u}) {  // how long a warp runs before the next one
    SCOPED_TRACE("quantum " + std::to_string(quantum));
    ExecConfig c;
    c.quantum = quantum;
    LaunchSpec run = l;
    run_functional(async_program(), "barrier_reduce", run, c);
    const std::vector<int32_t> sums = typed_values<int32_t>(run.buffers[1]);
    for (int b = 0; b < ctas; ++b) {
      int32_t want = 0;
      for (int t = 0; t < n; ++t) want += in[size_t(b) * n + t];
      EXPECT_EQ(sums[b], want) << "cta " << b;
    }
  }
}

TEST(AsyncCopy, ABarrierTrackedCopyHasLandedWhenTheBarrierCompletes) {
  const int ctas = 2, n = 96;
  std::vector<int32_t> in(size_t(ctas) * n);
  for (size_t i = 0; i < in.size(); ++i) in[i] = int32_t(i) * 5 - 7;
  LaunchSpec l;
  l.grid = {ctas, 1, 1};
  l.block = {n, 1, 1};
  l.buffers = {typed_buffer("in", in), typed_buffer("out", std::vector<int32_t>(in.size(), -1))};
  l.args = {KernelArg::buffer_arg(0), KernelArg::buffer_arg(1)};
  run_functional(async_program(), "barrier_tracked_copy", l, ExecConfig{});
  const std::vector<int32_t> out = typed_values<int32_t>(l.buffers[1]);
  for (int b = 0; b < ctas; ++b)
    for (int t = 0; t < n; ++t)
      ASSERT_EQ(out[size_t(b) * n + t], in[size_t(b) * n + (n - 1 - t)] * 3);
}

TEST(AsyncCopy, CvtRnaTf32RoundsToTenFractionBitsWithTiesAway) {
  // 1 + 2^-11 is halfway between two tf32 values: away from zero gives
  // 1 + 2^-10 (round-to-even would give 1); just below halfway rounds down.
  const std::vector<uint32_t> in_bits = {
      0x3f801000u,  // 1 + 2^-11: a tie
      0xbf801000u,  // its negative
      0x3f800fffu,  // just below the tie
      0x3f803000u,  // 1 + 3*2^-11: a tie above an odd value
      0x7f7fffffu,  // the largest f32 rounds past the largest tf32: infinity
      0x7fc00001u,  // a NaN: the canonical NaN
      0x00000fffu,  // a subnormal below half a tf32 ulp: +0
  };
  const std::vector<uint32_t> want = {0x3f802000u, 0xbf802000u, 0x3f800000u, 0x3f804000u,
                                      0x7f800000u, 0x7fffffffu, 0x00000000u};
  std::vector<float> in(in_bits.size());
  std::memcpy(in.data(), in_bits.data(), in_bits.size() * 4);
  LaunchSpec l;
  l.grid = {1, 1, 1};
  l.block = {32, 1, 1};
  l.buffers = {typed_buffer("in", in),
               typed_buffer("out", std::vector<uint32_t>(in.size(), 0xdeadbeef))};
  l.args = {KernelArg::buffer_arg(0), KernelArg::buffer_arg(1),
            KernelArg::scalar(Type::S32, uint32_t(in.size()))};
  run_functional(async_program(), "to_tf32", l, ExecConfig{});
  const std::vector<uint32_t> out = typed_values<uint32_t>(l.buffers[1]);
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(out[i], want[i]) << std::hex << "input 0x" << in_bits[i];
}

// A small kernel of inline PTX run on one warp; returns the fault's message
// (empty when it ran to the end).
std::string run_inline(const std::string& body, LaunchSpec* launch = nullptr) {
  LaunchSpec none;
  LaunchSpec& l = launch ? *launch : none;
  const Program p = inline_program(body, l.args.empty() ? "" : ".param .u64 out");
  l.block = {32, 1, 1};
  l.grid = {1, 1, 1};
  try {
    run_functional(p, "k", l, ExecConfig{});
  } catch (const KernelFault& f) {
    return f.what();
  }
  return "";
}

TEST(AsyncCopy, MisusedMbarriersAreFaultsThatNameTheObject) {
  const std::string decl = ".shared .align 8 .b64 bar;\n.reg .b64 %rd<4>;\n.reg .pred %p;\n";
  // An arrive on an object nobody initialised.
  std::string e = run_inline(decl + "mbarrier.arrive.shared.b64 %rd1, [bar];\nret;");
  EXPECT_NE(e.find("mbarrier at shared address 0x0 is not initialised"), std::string::npos) << e;
  EXPECT_NE(e.find("thread (0,0,0)"), std::string::npos) << e;
  // An arrival of 9 on a barrier that expects 8.
  e = run_inline(decl +
                 "mbarrier.init.shared.b64 [bar], 8;\nbar.sync 0;\n"
                 "mbarrier.arrive.shared.b64 %rd1, [bar], 9;\nret;");
  EXPECT_NE(e.find("9 arrival(s) with only 8 pending"), std::string::npos) << e;
  // .noComplete on the arrival that completes the phase.
  e = run_inline(decl +
                 "mbarrier.init.shared.b64 [bar], 4;\nbar.sync 0;\n"
                 "mbarrier.arrive.noComplete.shared.b64 %rd1, [bar], 1;\nret;");
  EXPECT_NE(e.find("an arrival with .noComplete completed the phase"), std::string::npos) << e;
  EXPECT_NE(e.find("thread (3,0,0)"), std::string::npos) << e;
  // A count of zero.
  e = run_inline(decl + "mbarrier.init.shared.b64 [bar], 0;\nret;");
  EXPECT_NE(e.find("count 0 is outside 1 .. 2^20-1"), std::string::npos) << e;
  // A test_wait after inval.
  e = run_inline(decl +
                 "mbarrier.init.shared.b64 [bar], 32;\nmbarrier.inval.shared.b64 [bar];\n"
                 "mbarrier.test_wait.shared.b64 %p, [bar], %rd1;\nret;");
  EXPECT_NE(e.find("is not initialised"), std::string::npos) << e;
}

TEST(AsyncCopy, PhasesTokensAndPendingCountsFollowTheArrivals) {
  // One warp, a barrier of 64 arrivals: after the warp's 32 the phase is
  // still open (pending 32, test_wait false); after 32 more it has completed
  // (test_wait on the first token true, .parity 0 true, .parity 1 false).
  const std::string body =
      ".shared .align 8 .b64 bar;\n.reg .b64 %rd<8>;\n.reg .b32 %r<8>;\n.reg .pred %p<4>;\n"
      "ld.param.u64 %rd7, [out];\n"
      "mov.u32 %r1, %tid.x;\n"
      "setp.eq.u32 %p3, %r1, 0;\n"
      "@%p3 mbarrier.init.shared.b64 [bar], 64;\n"
      "bar.sync 0;\n"
      "mbarrier.arrive.shared.b64 %rd1, [bar];\n"
      "mbarrier.pending_count.b64 %r2, %rd1;\n"
      "mbarrier.test_wait.shared.b64 %p1, [bar], %rd1;\n"
      "selp.u32 %r3, 1, 0, %p1;\n"
      "mbarrier.arrive.shared.b64 %rd2, [bar];\n"
      "mbarrier.test_wait.shared.b64 %p1, [bar], %rd1;\n"
      "selp.u32 %r4, 1, 0, %p1;\n"
      "mbarrier.test_wait.parity.shared.b64 %p1, [bar], 0;\n"
      "selp.u32 %r5, 1, 0, %p1;\n"
      "mbarrier.test_wait.parity.shared.b64 %p1, [bar], 1;\n"
      "selp.u32 %r6, 1, 0, %p1;\n"
      "cvt.u64.u32 %rd3, %r1;\n"
      "shl.b64 %rd3, %rd3, 4;\n"
      "add.u64 %rd3, %rd7, %rd3;\n"
      "st.global.v4.u32 [%rd3], {%r2, %r3, %r4, %r5};\n"
      "cvt.u64.u32 %rd4, %r1;\n"
      "shl.b64 %rd4, %rd4, 2;\n"
      "add.u64 %rd4, %rd7, %rd4;\n"
      "st.global.u32 [%rd4+512], %r6;\n"
      "ret;";
  LaunchSpec l;
  l.buffers = {typed_buffer("out", std::vector<uint32_t>(32 * 4 + 32, 99))};
  l.args = {KernelArg::buffer_arg(0)};
  ASSERT_EQ(run_inline(body, &l), "");
  const std::vector<uint32_t> out = typed_values<uint32_t>(l.buffers[0]);
  for (unsigned t = 0; t < 32; ++t) {
    EXPECT_EQ(out[t * 4 + 0], 63 - t) << "pending after thread " << t << "'s arrival";
    EXPECT_EQ(out[t * 4 + 1], 0u) << "the phase is open after 32 of 64 arrivals";
    EXPECT_EQ(out[t * 4 + 2], 1u) << "the first phase has completed";
    EXPECT_EQ(out[t * 4 + 3], 1u) << "parity 0: the first phase completed";
    EXPECT_EQ(out[128 + t], 0u) << "parity 1: the second phase is open";
  }
}

}  // namespace
}  // namespace warptlm
