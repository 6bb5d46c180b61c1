// CTA and warp synchronisation beyond bar.sync (tests/data/ptx/warp_sync:
// clang's and nvcc's PTX of one source): bar.red (__syncthreads_count, _and,
// _or) under every scheme and with compaction, match.any/match.all, WARP_SZ
// at every warp size, elect.sync, nanosleep and %globaltimer in the
// functional executor; the errors for malformed forms and for mixing bar.red
// with bar.sync on one barrier.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "exec/functional_executor.h"
#include "exec/prepared_program.h"
#include "exec_test_util.h"
#include "frontend/ptx_error.h"
#include "frontend/ptx_parser.h"

namespace warptlm {
namespace {
using namespace warptlm::testing;

const std::string kDir = std::string(WARPTLM_TEST_DATA) + "/ptx/warp_sync/";
const char* const kFiles[] = {"warp_sync.clang.ptx", "warp_sync.nvcc.ptx"};

HostBuffer u32_buffer(const std::string& name, const std::vector<uint32_t>& values) {
  HostBuffer b;
  b.name = name;
  b.bytes.resize(values.size() * 4);
  std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
  return b;
}

std::vector<uint32_t> u32_values(const HostBuffer& b) {
  std::vector<uint32_t> v(b.bytes.size() / 4);
  std::memcpy(v.data(), b.bytes.data(), b.bytes.size());
  return v;
}

// Two CTAs of 48 threads (a partial warp at warp size 32): the first all
// positive with one above 100, the second with some non-positive values.
std::vector<int32_t> reduction_inputs() {
  std::vector<int32_t> in(96);
  for (int i = 0; i < 96; ++i) in[i] = i < 48 ? 1 + i * 3 : (i % 7 == 0 ? -i : i % 50);
  return in;
}

std::vector<uint32_t> reduction_reference(const std::vector<int32_t>& in) {
  std::vector<uint32_t> out(3 * in.size());
  for (size_t cta = 0; cta < 2; ++cta) {
    uint32_t count = 0, any = 0;
    for (size_t t = 0; t < 48; ++t) {
      count += in[cta * 48 + t] > 0;
      any |= in[cta * 48 + t] > 100;
    }
    for (size_t t = 0; t < 48; ++t) {
      const size_t i = cta * 48 + t;
      out[3 * i] = count;
      out[3 * i + 1] = count == 48;
      out[3 * i + 2] = any;
    }
  }
  return out;
}

LaunchSpec reduction_launch() {
  LaunchSpec l;
  l.grid = {2, 1, 1};
  l.block = {48, 1, 1};
  l.buffers.push_back(i32_buffer("in", reduction_inputs()));
  l.buffers.push_back(u32_buffer("out", std::vector<uint32_t>(3 * 96, 7)));
  l.args = {KernelArg::buffer_arg(0), KernelArg::buffer_arg(1)};
  return l;
}

TEST(WarpSync, BarRedReducesOverTheCtaUnderEverySchemeAndWarpSize) {
  const std::vector<uint32_t> want = reduction_reference(reduction_inputs());
  ASSERT_EQ(want[0], 48u);
  ASSERT_EQ(want[3 * 48], 40u);  // 8 of the second CTA's values are not positive
  for (const char* file : kFiles) {
    const Module m = parse_ptx_file(kDir + file);
    const std::string entry = resolve_kernel_name(m, "barrier_reductions");
    for (const std::string& scheme : reconvergence_names())
      for (unsigned ws : {8u, 32u}) {
        SCOPED_TRACE(std::string(file) + " under " + scheme + ", warp size " + std::to_string(ws));
        LaunchSpec l = reduction_launch();
        ExecConfig c;
        c.reconvergence = scheme;
        c.warp_size = ws;
        run_functional(prepare_program(m, scheme), entry, l, c);
        EXPECT_EQ(u32_values(l.buffers[1]), want);
      }
  }
}

TEST(WarpSync, BarRedUnderThreadBlockCompaction) {
  const std::vector<uint32_t> want = reduction_reference(reduction_inputs());
  for (const char* file : kFiles) {
    const Module m = parse_ptx_file(kDir + file);
    for (const char* compaction : {"tbc", "ideal"}) {
      SCOPED_TRACE(std::string(file) + " with " + compaction);
      LaunchSpec l = reduction_launch();
      ExecConfig c;
      c.compaction = compaction;
      c.warp_size = 16;
      run_functional(prepare_program(m, "ipdom"), resolve_kernel_name(m, "barrier_reductions"), l,
                     c);
      EXPECT_EQ(u32_values(l.buffers[1]), want);
    }
  }
}

TEST(WarpSync, MatchComparesTheWarpsLanes) {
  std::vector<uint32_t> keys(64);
  for (uint32_t i = 0; i < 64; ++i) keys[i] = i < 32 ? (i * 7) % 5 : 12 + i % 4;
  for (const char* file : kFiles) {
    const Module m = parse_ptx_file(kDir + file);
    for (unsigned ws : {16u, 32u, 64u}) {
      SCOPED_TRACE(std::string(file) + ", warp size " + std::to_string(ws));
      LaunchSpec l;
      l.block = {64, 1, 1};
      l.buffers.push_back(u32_buffer("keys", keys));
      l.buffers.push_back(u32_buffer("out", std::vector<uint32_t>(3 * 64, 7)));
      l.args = {KernelArg::buffer_arg(0), KernelArg::buffer_arg(1)};
      ExecConfig c;
      c.warp_size = ws;
      run_functional(prepare_program(m, "ipdom"), resolve_kernel_name(m, "warp_match"), l, c);
      const std::vector<uint32_t> out = u32_values(l.buffers[1]);
      for (uint32_t i = 0; i < 64; ++i) {
        const uint32_t base = i / ws * ws;
        uint32_t same = 0, lanes = 0;
        bool all = true;
        for (uint32_t j = base; j < base + ws && j - base < 32; ++j) {
          lanes |= 1u << (j - base);
          if (keys[j] == keys[i]) same |= 1u << (j - base);
        }
        for (uint32_t j = base; j < base + ws; ++j) all = all && keys[j] / 4 == keys[base] / 4;
        EXPECT_EQ(out[3 * i], same) << "thread " << i;
        EXPECT_EQ(out[3 * i + 1], all ? lanes : 0u) << "thread " << i;
        EXPECT_EQ(out[3 * i + 2], all ? 1u : 0u) << "thread " << i;
      }
    }
  }
}

TEST(WarpSync, WarpSzIsTheConfiguredWarpSize) {
  for (const char* file : kFiles) {
    const Module m = parse_ptx_file(kDir + file);
    for (unsigned ws : {8u, 16u, 32u, 64u}) {
      LaunchSpec l = one_buffer(1, 40, std::vector<int32_t>(40, -1));
      ExecConfig c;
      c.warp_size = ws;
      run_functional(prepare_program(m, "ipdom"), resolve_kernel_name(m, "warp_size"), l, c);
      EXPECT_EQ(i32_values(l.buffers[0]), std::vector<int32_t>(40, static_cast<int32_t>(ws)))
          << file;
    }
  }
}

TEST(WarpSync, ElectChoosesTheLowestExecutingLane) {
  const Module m = parse_ptx_file(kDir + "warp_sync.nvcc.ptx");
  for (const std::string& scheme : reconvergence_names())
    for (unsigned ws : {16u, 32u}) {
      SCOPED_TRACE(scheme + ", warp size " + std::to_string(ws));
      LaunchSpec l;
      l.block = {64, 1, 1};
      l.buffers.push_back(u32_buffer("out", std::vector<uint32_t>(2 * 64, 7)));
      l.args = {KernelArg::buffer_arg(0)};
      ExecConfig c;
      c.reconvergence = scheme;
      c.warp_size = ws;
      run_functional(prepare_program(m, scheme), resolve_kernel_name(m, "elect_leader"), l, c);
      const std::vector<uint32_t> out = u32_values(l.buffers[0]);
      for (uint32_t i = 0; i < 64; ++i) {
        const bool odd = i % 2 == 1;
        EXPECT_EQ(out[2 * i], odd ? 1u : ~0u) << "thread " << i;  // lane 1: the lowest odd lane
        EXPECT_EQ(out[2 * i + 1], odd && i % ws == 1 ? 1u : 0u) << "thread " << i;
      }
    }
}

TEST(WarpSync, NanosleepRunsAndTheGlobalTimerCountsInstructionsInFunctionalRuns) {
  // Without cycles the functional executor's %globaltimer is the warp's
  // issue count (as %clock64): deterministic, advancing by the instructions
  // between the two reads.
  for (const char* file : kFiles) {
    const Module m = parse_ptx_file(kDir + file);
    LaunchSpec l;
    l.block = {40, 1, 1};
    l.buffers.push_back(u32_buffer("out", std::vector<uint32_t>(2 * 40, 0)));
    l.args = {KernelArg::buffer_arg(0), KernelArg::scalar(Type::U32, 5000)};
    run_functional(prepare_program(m, "ipdom"), resolve_kernel_name(m, "sleepy"), l, ExecConfig{});
    const std::vector<uint32_t> out = u32_values(l.buffers[0]);
    for (uint32_t i = 0; i < 40; ++i) {
      EXPECT_EQ(out[2 * i + 1], 0u) << file;          // high word
      EXPECT_EQ(out[2 * i], 2u) << file << " " << i;  // nanosleep, then the second read
    }
  }
}

// The body's first line is line 7 of the module (after ptx_module's four
// lines and the entry's two).
std::string error_of(const std::string& body) {
  try {
    parse_ptx(ptx_module(".visible .entry k()\n{\n" + body + "\n}\n"), "bad.ptx");
  } catch (const PtxError& e) {
    return e.what();
  }
  return "no error";
}

TEST(WarpSync, MalformedFormsAreErrorsAtTheirLine) {
  const std::string regs = ".reg .pred %p<3>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n";
  EXPECT_NE(error_of(regs + "bar.red.popc.pred %p1, 0, %p2;\nret;")
                .find("bad.ptx:10:1: error: 'bar.red.popc' takes .u32, not .pred"),
            std::string::npos)
      << error_of(regs + "bar.red.popc.pred %p1, 0, %p2;\nret;");
  EXPECT_NE(error_of(regs + "bar.red.u32 %r1, 0, %p2;\nret;").find("needs an operation"),
            std::string::npos);
  EXPECT_NE(error_of(regs + "bar.arrive 0, 64, 1;\nret;").find("bad.ptx:10:"), std::string::npos);
  EXPECT_NE(error_of(regs + "match.any.sync.b32 %r1|%p1, %r2, -1;\nret;").find("bad.ptx:10:"),
            std::string::npos);
  EXPECT_NE(error_of(regs + "match.all.b32 %r1, %r2, -1;\nret;").find("'match' needs .sync"),
            std::string::npos);
  EXPECT_NE(error_of(regs + "elect.sync %r1, -1;\nret;").find("writes d|p"), std::string::npos);
  EXPECT_NE(error_of(regs + "nanosleep.u64 %rd1;\nret;").find("bad.ptx:10:"), std::string::npos);
  EXPECT_NE(
      error_of(regs + "mov.u32 %r1, %pm3;\nret;").find("special register '%pm3' is not supported"),
      std::string::npos);
}

TEST(WarpSync, BarRedAndBarSyncOnOneBarrierIsAFault) {
  const char* body = R"(.visible .entry k()
{
.reg .pred %p<3>;
.reg .b32 %r<4>;
mov.u32 %r1, %tid.x;
setp.lt.u32 %p1, %r1, 32;
@%p1 bra RED;
bar.sync 0;
bra DONE;
RED:
bar.red.popc.u32 %r2, 0, %p1;
DONE:
ret;
}
)";
  try {
    LaunchSpec l;
    l.block = {64, 1, 1};
    run(body, "k", l);
    FAIL() << "no fault";
  } catch (const KernelFault& f) {
    const std::string what = f.what();
    EXPECT_NE(what.find("on barrier 0 while other threads wait there at"), std::string::npos)
        << what;
  }
}

// Producer-consumer with named barriers: warp 0 writes shared memory and
// arrives at barrier 1 (bar.arrive: it goes on at once, here to write its
// own output); warp 1 waits there (bar.sync 1, 64) and reads what warp 0
// wrote. Both warps count, so the barrier completes at 64 threads
// (tests/data/ptx/warp_sync/producer_consumer.ptx).

TEST(WarpSync, BarArriveLetsAProducerGoOnWhileTheConsumerWaits) {
  for (const std::string& scheme : reconvergence_names()) {
    SCOPED_TRACE(scheme);
    ExecConfig c;
    c.reconvergence = scheme;
    LaunchSpec l = one_buffer(1, 64, std::vector<int32_t>(64, -1));
    Program p = prepare_program(parse_ptx_file(kDir + "producer_consumer.ptx"), scheme);
    run_functional(p, "pc", l, c);
    const std::vector<int32_t> out = i32_values(l.buffers[0]);
    for (int t = 0; t < 32; ++t) {
      EXPECT_EQ(out[t], t) << "producer thread " << t;
      EXPECT_EQ(out[32 + t], 7 * t) << "consumer thread " << 32 + t;
    }
  }
  EXPECT_NE(error_of("bar.arrive 1;\nret;").find("'bar.arrive' needs a thread count"),
            std::string::npos);
  ExecConfig tbc;
  tbc.compaction = "tbc";
  LaunchSpec l = one_buffer(1, 64, std::vector<int32_t>(64, -1));
  try {
    run_functional(prepare_program(parse_ptx_file(kDir + "producer_consumer.ptx"), "ipdom"), "pc",
                   l, tbc);
    FAIL() << "no fault";
  } catch (const KernelFault& f) {
    EXPECT_NE(
        std::string(f.what()).find("bar.arrive is not supported under thread block compaction"),
        std::string::npos)
        << f.what();
  }
}

}  // namespace
}  // namespace warptlm
