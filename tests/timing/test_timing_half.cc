// Half precision in the timing model (tests/data/ptx/half): nvcc's
// .f16x2 / .bf16 / atomicAdd kernels give the functional run's bytes, with
// and without compaction (the bfloat16 atomics of sm_80 are divergent
// atom.cas loops).
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

template <class T>
HostBuffer bytes_of(const std::string& name, const std::vector<T>& v) {
  HostBuffer b;
  b.name = name;
  b.bytes.resize(v.size() * sizeof(T));
  std::memcpy(b.bytes.data(), v.data(), b.bytes.size());
  return b;
}

// Operands of the ops kernels: n elements of random bits each.
LaunchSpec ops_launch(uint32_t n, size_t element) {
  uint64_t s = 0x9e3779b97f4a7c15ull;
  auto random = [&] {
    std::vector<uint8_t> v(n * element);
    for (auto& byte : v) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      byte = uint8_t(s >> 56);
    }
    return v;
  };
  LaunchSpec l;
  l.grid = {(n + 63) / 64, 1, 1};
  l.block = {64, 1, 1};
  l.buffers = {bytes_of("a", random()), bytes_of("b", random()), bytes_of("c", random()),
               bytes_of("out", std::vector<uint8_t>(14 * n * element))};
  for (uint32_t i = 0; i < 4; ++i) l.args.push_back(KernelArg::buffer_arg(i));
  l.args.push_back(KernelArg::scalar(Type::S32, n));
  return l;
}

LaunchSpec atomics_launch() {
  LaunchSpec l;
  l.grid = {3, 1, 1};
  l.block = {64, 1, 1};
  l.buffers = {bytes_of("h", std::vector<uint16_t>{0}), bytes_of("h2", std::vector<uint32_t>{0}),
               bytes_of("b", std::vector<uint16_t>{0}), bytes_of("b2", std::vector<uint32_t>{0})};
  for (uint32_t i = 0; i < 4; ++i) l.args.push_back(KernelArg::buffer_arg(i));
  return l;
}

void expect_matches(const std::string& kernel, const LaunchSpec& launch,
                    const std::string& compaction) {
  SCOPED_TRACE(kernel + " compaction " + compaction);
  in_child_process([&] {
    const Module m = parse_ptx_file(std::string(WARPTLM_TEST_DATA) + "/ptx/half/half.sm80.ptx");
    const Program p = prepare_program(m, "ipdom");
    PlatformConfig config = preset("small");
    config.compaction = compaction;
    LaunchSpec functional = launch, timing = launch;
    run_functional(p, kernel, functional, config.exec_config());
    run_timing(p, kernel, timing, config, nullptr, nullptr, TimingOptions{});
    for (size_t i = 0; i < launch.buffers.size(); ++i)
      EXPECT_TRUE(functional.buffers[i].bytes == timing.buffers[i].bytes) << "buffer " << i;
  });
}

TEST(TimingHalf, PairsAndBfloat16MatchTheFunctionalRun) {
  for (const char* compaction : {"none", "tbc"}) {
    expect_matches("f16x2_ops", ops_launch(200, 4), compaction);
    expect_matches("bf16_ops", ops_launch(200, 2), compaction);
  }
}

TEST(TimingHalf, AtomicAddsMatchTheFunctionalRun) {
  for (const char* compaction : {"none", "tbc"})
    expect_matches("atomics", atomics_launch(), compaction);
}

}  // namespace
}  // namespace warptlm
