// A store executed at issue must not be undone by a timing write that was
// already on its way to memory: the L2 writes a dirty line back while the
// DRAM's queue is full (the request waits, its data refreshed when it left
// the GPU), a warp stores into that line meanwhile, and the DRAM takes the
// write's data when it accepts it. Before the memory port refreshed its
// in-flight writes on every store (interconnect/memory_port.h), 6 of these
// 2,048 words came back stale, as 1 in 32,768 tickets of the spinlock
// scenario on fermi with tbc and three CTAs per SM. Kernel:
// tests/data/ptx/coherence/scatter.cu.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "common/systemc_child.h"
#include "config/platform_config.h"
#include "exec/functional_executor.h"
#include "exec/prepared_program.h"
#include "frontend/ptx_parser.h"
#include "gpu/timing_run.h"

namespace warptlm {
namespace {
using namespace warptlm::testing;

constexpr uint32_t kLines = 64, kRounds = 3, kThreads = 32 * kLines;

LaunchSpec scatter_launch() {
  LaunchSpec l;
  l.grid = {kThreads / 256, 1, 1};
  l.block = {256, 1, 1};
  HostBuffer out;
  out.name = "out";
  out.bytes.assign(kThreads * 4, 0xcd);
  l.buffers = {out};
  l.args = {KernelArg::buffer_arg(0), KernelArg::scalar(Type::U32, kLines),
            KernelArg::scalar(Type::U32, kRounds)};
  return l;
}

TEST(TimingInFlightWrites, AStoreIntoALineBeingWrittenBackIsKept) {
  in_child_process([] {
    const Module m =
        parse_ptx_file(std::string(WARPTLM_TEST_DATA) + "/ptx/coherence/scatter.clang.ptx");
    const Program p = prepare_program(m, "ipdom");
    PlatformConfig config = preset("small");
    config.memory.l2.size = 4096;  // a few lines per slice: dirty lines leave all the time
    config.memory.l2.assoc = 4;
    config.memory.dram.channels = 1;  // its queue fills, so writebacks wait to be accepted
    LaunchSpec functional = scatter_launch(), timing = scatter_launch();
    run_functional(p, "scatter", functional, config.exec_config());
    const nlohmann::json stats = run_timing(p, "scatter", timing, config);

    std::vector<uint32_t> want(kThreads);
    for (uint32_t t = 0; t < kThreads; ++t)
      want[(t % 32) * kLines + t / 32] = t * kRounds + kRounds - 1;
    std::vector<uint32_t> got(kThreads);
    std::memcpy(got.data(), timing.buffers[0].bytes.data(), kThreads * 4);
    unsigned stale = 0;
    for (uint32_t i = 0; i < kThreads; ++i) stale += got[i] != want[i];
    EXPECT_EQ(stale, 0u) << "words whose last store was undone";
    EXPECT_TRUE(functional.buffers[0].bytes == timing.buffers[0].bytes);
    // The situation arose: writes waited at the DRAM, and stores overlapped writes in flight.
    EXPECT_GT(stats.at("dram.queue_full").get<uint64_t>(), 0u);
    EXPECT_GT(stats.at("memory_port.writes_patched").get<uint64_t>(), 0u);
  });
}

}  // namespace
}  // namespace warptlm
