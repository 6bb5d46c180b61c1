// bar.red, match, elect, WARP_SZ, nanosleep and %globaltimer in the timing
// model (tests/data/ptx/warp_sync): the same results as the functional runs,
// with and without compaction; a nanosleep holds the warp for its duration
// at the SM's clock (slot_sleep) and %globaltimer reads the simulated time.
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
#include "simt/reconvergence_unit.h"

namespace warptlm {
namespace {

const std::string kDir = std::string(WARPTLM_TEST_DATA) + "/ptx/warp_sync/";

HostBuffer u32_buffer(const std::string& name, size_t n, uint32_t seed) {
  HostBuffer b;
  b.name = name;
  std::vector<uint32_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint32_t>((i * 2654435761u + seed) % 9) - 2;
  b.bytes.resize(n * 4);
  std::memcpy(b.bytes.data(), v.data(), b.bytes.size());
  return b;
}

// Kernel `kernel` (sleepy aside) of `file` on 2 CTAs of 96 threads: the
// timing run's buffers equal the functional run's. One timing run per child
// process (SystemC elaborates once).
void expect_timing_matches_functional(const char* file, const std::string& kernel,
                                      const std::string& compaction,
                                      const std::string& scheme = "ipdom") {
  const Module m = parse_ptx_file(kDir + file);
  if (kernel == "elect_leader" && std::string(file).find("clang") != std::string::npos)
    return;  // nvcc's only
  const std::string entry = resolve_kernel_name(m, kernel);
  SCOPED_TRACE(std::string(file) + " " + kernel + " compaction " + compaction + " under " + scheme);
  warptlm::testing::in_child_process([&] {
    const Program p = prepare_program(m, scheme);
    PlatformConfig config = preset("small");
    config.compaction = compaction;
    config.reconvergence = scheme;
    LaunchSpec l;
    l.grid = {2, 1, 1};
    l.block = {96, 1, 1};
    if (kernel == "barrier_reductions" || kernel == "warp_match")
      l.buffers.push_back(u32_buffer("in", 192, 3));
    l.buffers.push_back(u32_buffer("out", 3 * 192, 0));
    for (size_t i = 0; i < l.buffers.size(); ++i) l.args.push_back(KernelArg::buffer_arg(i));
    LaunchSpec functional = l, timing = l;
    run_functional(p, entry, functional, config.exec_config());
    run_timing(p, entry, timing, config);
    for (size_t i = 0; i < l.buffers.size(); ++i)
      EXPECT_TRUE(functional.buffers[i].bytes == timing.buffers[i].bytes) << "buffer " << i;
  });
}

const char* const kKernels[] = {"barrier_reductions", "warp_match", "warp_size", "elect_leader"};

TEST(TimingWarpSync, ResultsMatchTheFunctionalRuns) {
  for (const char* file : {"warp_sync.clang.ptx", "warp_sync.nvcc.ptx"})
    for (const char* kernel : kKernels) expect_timing_matches_functional(file, kernel, "none");
}

TEST(TimingWarpSync, ResultsMatchTheFunctionalRunsUnderCompaction) {
  for (const char* file : {"warp_sync.clang.ptx", "warp_sync.nvcc.ptx"})
    for (const char* kernel : kKernels) expect_timing_matches_functional(file, kernel, "tbc");
}

TEST(TimingWarpSync, BarRedUnderEveryScheme) {
  // Schemes with per-thread barriers let a warp's lanes arrive in pieces;
  // every piece gets the result when the barrier completes.
  for (const std::string& scheme : reconvergence_names())
    expect_timing_matches_functional("warp_sync.clang.ptx", "barrier_reductions", "none", scheme);
}

TEST(TimingWarpSync, BarArriveProducerConsumerUnderEveryScheme) {
  // The producer warp arrives and goes on; the consumer's warp is released
  // when the count is reached (producer_consumer.ptx: 2 CTAs of 64 threads).
  for (const std::string& scheme : reconvergence_names()) {
    SCOPED_TRACE(scheme);
    warptlm::testing::in_child_process([&] {
      const Program p = prepare_program(parse_ptx_file(kDir + "producer_consumer.ptx"), scheme);
      PlatformConfig config = preset("small");
      config.reconvergence = scheme;
      LaunchSpec l;
      l.grid = {2, 1, 1};
      l.block = {64, 1, 1};
      l.buffers.push_back(u32_buffer("out", 128, 0));
      l.args.push_back(KernelArg::buffer_arg(0));
      LaunchSpec functional = l, timing = l;
      run_functional(p, "pc", functional, config.exec_config());
      run_timing(p, "pc", timing, config);
      EXPECT_TRUE(functional.buffers[0].bytes == timing.buffers[0].bytes);
    });
  }
}

struct Sleep {
  nlohmann::json stats;
  std::vector<uint64_t> elapsed;  // per thread: %globaltimer's advance
};

Sleep run_sleepy(uint32_t ns, const std::string& compaction) {
  const Module m = parse_ptx_file(kDir + "warp_sync.clang.ptx");
  PlatformConfig config = preset("small");
  config.compaction = compaction;
  LaunchSpec l;
  l.block = {64, 1, 1};
  HostBuffer out;
  out.name = "out";
  out.bytes.assign(64 * 8, 0);
  l.buffers.push_back(out);
  l.args = {KernelArg::buffer_arg(0), KernelArg::scalar(Type::U32, ns)};
  Sleep s;
  s.stats = run_timing(prepare_program(m, "ipdom"), resolve_kernel_name(m, "sleepy"), l, config);
  s.elapsed.resize(64);
  std::memcpy(s.elapsed.data(), l.buffers[0].bytes.data(), 64 * 8);
  return s;
}

TEST(TimingWarpSync, NanosleepHoldsTheWarpAndTheGlobalTimerSeesIt) {
  const double mhz = preset("small").sm.clock_mhz;
  const uint64_t sleep_cycles = static_cast<uint64_t>(20000 * mhz / 1000);
  for (const char* compaction : {"none", "tbc"}) {
    SCOPED_TRACE(compaction);
    warptlm::testing::in_child_process([&] {
      const Sleep awake = run_sleepy(0, compaction);
      for (size_t t = 0; t < 64; ++t) EXPECT_LT(awake.elapsed[t], 1000u) << t;  // a few cycles
      EXPECT_EQ(awake.stats.at("sm.slot_sleep").get<uint64_t>(), 0u);
      EXPECT_LT(awake.stats.at("cycles").get<uint64_t>(), sleep_cycles);
    });
    warptlm::testing::in_child_process([&] {
      const Sleep asleep = run_sleepy(20000, compaction);
      for (size_t t = 0; t < 64; ++t) {
        EXPECT_GE(asleep.elapsed[t], 20000u) << t;  // at least the requested sleep
        EXPECT_LT(asleep.elapsed[t], 21000u) << t;
      }
      EXPECT_GE(asleep.stats.at("cycles").get<uint64_t>(), sleep_cycles);
      EXPECT_GE(asleep.stats.at("sm.slot_sleep").get<uint64_t>(), sleep_cycles);
    });
  }
}

}  // namespace
}  // namespace warptlm
