// Launch sessions (exec/launch_session.h, gpu/timing_session.h): buffers and
// .global variables stay in device memory from launch to launch, statistics
// count across launches, a session's first launch is the same run as a lone
// run_timing, a fault ends the session and a bad launch does not.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <stdexcept>

#include "common/systemc_child.h"
#include "common/temp_path.h"
#include "exec/functional_executor.h"
#include "gpu/timing_run.h"
#include "gpu/timing_session.h"
#include "gpu_test_kernels.h"

namespace warptlm {
namespace {

using testing::in_child_process;

// count: out[tid] = ++calls (a .global counter bumped by thread 0 of the
// grid's only CTA, then read by every thread after the barrier).
const char* const kCounterKernel = R"(.version 7.0
.target sm_70
.address_size 64
.global .u32 calls = 40;

.visible .entry count(.param .u64 out)
{
  .reg .pred %p;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p, %r1, 0;
  @%p bra WAIT;
  ld.global.u32 %r2, [calls];
  add.u32 %r2, %r2, 1;
  st.global.u32 [calls], %r2;
WAIT:
  bar.sync 0;
  ld.global.u32 %r3, [calls];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";

// The add kernel over one buffer in place: each launch adds `value`.
LaunchSpec add_in_place(uint32_t threads, uint32_t value) {
  LaunchSpec l;
  l.grid = Dim3{threads / 32, 1, 1};
  l.block = Dim3{32, 1, 1};
  l.buffers = {HostBuffer{"data", {}}};
  l.args = {KernelArg::buffer_arg(0), KernelArg::buffer_arg(0),
            KernelArg::scalar(Type::U32, value)};
  return l;
}

std::vector<uint32_t> read_u32(const LaunchSession& s, uint64_t address, size_t n) {
  std::vector<uint32_t> v(n);
  s.read(address, v.data(), n * 4);
  return v;
}

// Three launches in place: the buffer keeps each launch's result, and the
// counts add up over the launches.
void expect_buffers_stay(LaunchSession& s) {
  const Program program = testing::program_of(testing::kGpuKernels);
  const uint32_t handle = s.load(program);
  std::vector<uint32_t> init(128);
  for (uint32_t i = 0; i < init.size(); ++i) init[i] = i;
  const uint64_t data = s.allocate(init.size() * 4, "data");
  s.write(data, init.data(), init.size() * 4);
  uint64_t one_launch = 0;
  for (uint32_t k = 1; k <= 3; ++k) {
    LaunchSpec l = add_in_place(128, 10);
    s.launch(handle, "add", l, {data});
    if (k == 1) one_launch = s.run_stats().warp_instructions;
  }
  const std::vector<uint32_t> got = read_u32(s, data, init.size());
  for (uint32_t i = 0; i < init.size(); ++i) ASSERT_EQ(got[i], i + 30) << i;
  EXPECT_EQ(s.launches(), 3u);
  EXPECT_GT(one_launch, 0u);
  EXPECT_EQ(s.run_stats().warp_instructions, 3 * one_launch);
}

TEST(LaunchSession, FunctionalBuffersStayBetweenLaunches) {
  FunctionalSession s(preset("small").exec_config());
  expect_buffers_stay(s);
  EXPECT_TRUE(s.timing_stats().empty());
}

TEST(LaunchSession, TimingBuffersStayBetweenLaunches) {
  in_child_process([] {
    TimingSession s(preset("small"));
    expect_buffers_stay(s);
    const nlohmann::json j = s.timing_stats();
    EXPECT_EQ(j["launches"].get<uint64_t>(), 3u);
    EXPECT_EQ(j["warp_instructions"].get<uint64_t>(), s.run_stats().warp_instructions);
    // cycles: the last launch; busy_cycles: all three.
    EXPECT_GT(j["busy_cycles"].get<uint64_t>(), 2 * j["cycles"].get<uint64_t>());
  });
}

void expect_globals_stay(LaunchSession& s) {
  const uint32_t handle = s.load(testing::program_of(kCounterKernel));
  const uint64_t out = s.allocate(64 * 4, "out");
  for (uint32_t k = 1; k <= 2; ++k) {
    LaunchSpec l;
    l.block = Dim3{64, 1, 1};
    l.buffers = {HostBuffer{"out", {}}};
    l.args = {KernelArg::buffer_arg(0)};
    s.launch(handle, "count", l, {out});
    const std::vector<uint32_t> got = read_u32(s, out, 64);
    for (uint32_t v : got) ASSERT_EQ(v, 40 + k);
  }
}

TEST(LaunchSession, GlobalVariablesKeepTheirValues) {
  FunctionalSession f(preset("small").exec_config());
  expect_globals_stay(f);
  in_child_process([] {
    TimingSession s(preset("small"));
    expect_globals_stay(s);
  });
}

// A session's first launch is the run run_timing makes: every statistic
// equal (each in a process of its own: SystemC elaborates once per process).
TEST(LaunchSession, FirstLaunchIsALoneRun) {
  const Program program = testing::program_of(testing::kReduceKernel);
  for (const char* name : {"small", "fermi"}) {
    SCOPED_TRACE(name);
    const PlatformConfig config = preset(name);
    const std::string alone_path = testing::temp_path(std::string("alone_") + name + ".json");
    in_child_process([&] {
      LaunchSpec alone = testing::reduce_launch(9);
      std::ofstream(alone_path) << run_timing(program, "reduce", alone, config).dump();
    });
    nlohmann::json expected;
    std::ifstream(alone_path) >> expected;
    std::remove(alone_path.c_str());
    ASSERT_TRUE(expected.contains("cycles"));
    in_child_process([&] {
      TimingSession s(config);
      const uint32_t handle = s.load(program);
      LaunchSpec l = testing::reduce_launch(9);
      std::vector<uint64_t> addresses;
      for (HostBuffer& b : l.buffers) {
        addresses.push_back(s.allocate(b.bytes.size(), b.name));
        s.write(addresses.back(), b.bytes.data(), b.bytes.size());
        b.bytes.clear();
      }
      s.launch(handle, "reduce", l, addresses);
      EXPECT_EQ(s.timing_stats(), expected);
      EXPECT_EQ(read_u32(s, addresses[1], 9), testing::reduce_expected(9));
    });
  }
}

void expect_fault_ends_session(LaunchSession& s) {
  const uint32_t handle = s.load(testing::program_of(testing::kGpuKernels));
  const uint64_t data = s.allocate(64 * 4, "data");
  LaunchSpec bad = add_in_place(64, 1);
  bad.args.pop_back();  // a bad launch: refused, the session stays usable
  EXPECT_THROW(s.launch(handle, "add", bad, {data}), std::invalid_argument);
  LaunchSpec ok = add_in_place(64, 1);
  s.launch(handle, "add", ok, {data});
  LaunchSpec crash;
  EXPECT_THROW(s.launch(handle, "crash", crash, {}), KernelFault);
  LaunchSpec after = add_in_place(64, 1);
  try {
    s.launch(handle, "add", after, {data});
    ADD_FAILURE() << "a launch after a fault ran";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unusable after the kernel fault"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(read_u32(s, data, 1)[0], 1u);  // memory stays readable, as after a CUDA fault
  EXPECT_EQ(s.launches(), 2u);
}

TEST(LaunchSession, AFaultEndsTheSessionABadLaunchDoesNot) {
  FunctionalSession f(preset("small").exec_config());
  expect_fault_ends_session(f);
  in_child_process([] {
    TimingSession s(preset("small"));
    expect_fault_ends_session(s);
  });
}

TEST(LaunchSession, BadAddressesAreRefused) {
  FunctionalSession s(preset("small").exec_config());
  const uint32_t handle = s.load(testing::program_of(testing::kGpuKernels));
  const uint64_t data = s.allocate(64, "data");
  uint32_t word = 0;
  EXPECT_THROW(s.read(data + 64, &word, 4), std::invalid_argument);
  EXPECT_THROW(s.write(data + 62, &word, 4), std::invalid_argument);
  EXPECT_THROW(s.release(data + 4), std::invalid_argument);
  EXPECT_THROW(s.program(handle + 1), std::invalid_argument);
  LaunchSpec l = add_in_place(64, 1);
  EXPECT_THROW(s.launch(handle, "add", l, {data + 64}), std::invalid_argument);  // past it
  EXPECT_THROW(s.launch(handle, "add", l, {}), std::invalid_argument);           // count
  s.release(data);
  EXPECT_THROW(s.read(data, &word, 4), std::invalid_argument);
}

// A pointer into an allocation is a buffer from there to its end (d_ptr + n).
TEST(LaunchSession, APointerIntoAnAllocationIsABuffer) {
  FunctionalSession s(preset("small").exec_config());
  const uint32_t handle = s.load(testing::program_of(testing::kGpuKernels));
  std::vector<uint32_t> init(96, 5);
  const uint64_t data = s.allocate(init.size() * 4, "data");
  s.write(data, init.data(), init.size() * 4);
  LaunchSpec l = add_in_place(64, 1);  // 64 threads from element 32 on: exactly to the end
  s.launch(handle, "add", l, {data + 32 * 4});
  const std::vector<uint32_t> got = read_u32(s, data, init.size());
  for (uint32_t i = 0; i < init.size(); ++i) ASSERT_EQ(got[i], i < 32 ? 5u : 6u) << i;
  LaunchSpec over = add_in_place(64, 1);  // from element 64 on, 32 elements past the end
  EXPECT_THROW(s.launch(handle, "add", over, {data + 64 * 4}), KernelFault);
}

TEST(LaunchSession, OneTimingSessionPerProcess) {
  in_child_process([] {
    {
      TimingSession s(preset("small"));
      const uint32_t handle = s.load(testing::program_of(testing::kGpuKernels));
      const uint64_t data = s.allocate(32 * 4, "data");
      LaunchSpec l = add_in_place(32, 1);
      s.launch(handle, "add", l, {data});
    }
    EXPECT_THROW(TimingSession s(preset("small")), std::logic_error);
  });
}

TEST(LaunchSession, ModeNames) {
  EXPECT_NE(
      dynamic_cast<FunctionalSession*>(make_launch_session(preset("small"), "functional").get()),
      nullptr);
  EXPECT_THROW(make_launch_session(preset("small"), "fast"), std::invalid_argument);
}

}  // namespace
}  // namespace warptlm
