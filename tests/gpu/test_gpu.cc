// The Gpu top through its control socket: launch errors (one per cause, each
// with STATUS, ERROR, message and interrupt), a completed launch with its
// interrupt and cycle count, the sticky kernel fault, and a foreign memory.
#include <gtest/gtest.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstring>
#include <sstream>

#include "common/systemc_child.h"
#include "gpu_bench.h"

namespace warptlm {
namespace {

using testing::AddBuffers;
using testing::Bench;
using testing::entry;
using testing::ForeignMemory;
using testing::in_child_process;
using testing::program_add;
using testing::ScriptHost;
using testing::settle;
using testing::setup_add;
using testing::setup_add_in;

TEST(Gpu, LaunchErrorsSetStatusErrorAndTheInterrupt) {
  in_child_process([] {
    Bench* b = nullptr;
    uint32_t h1 = 0, h2 = 0;
    auto script = [&](ScriptHost& host) {
      Gpu& gpu = b->gpu;
      EXPECT_EQ(host.read(reg::kId), kGpuId);
      host.set(reg::kIrqEnable, kIrqError);
      // Rings the doorbell, expects a refusal with `error` and `message`, acknowledges it.
      auto refused = [&](GpuError error, const std::string& message) {
        host.set(reg::kLaunch, 1);
        EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::LaunchError));
        EXPECT_EQ(host.read(reg::kError), uint32_t(error));
        EXPECT_EQ(gpu.last_error(), message);
        EXPECT_EQ(host.read(reg::kLaunchCyclesLo), 0u);
        settle();
        EXPECT_TRUE(b->irq.read());
        EXPECT_EQ(host.read(reg::kIrqStatus), kIrqError);
        host.set(reg::kIrqStatus, kIrqError);
        settle();
        EXPECT_FALSE(b->irq.read());
      };
      refused(GpuError::BadProgram, "launch: PROGRAM = 0 is not a program handle (loaded: 1..2)");
      host.set(reg::kProgram, 3);
      refused(GpuError::BadProgram, "launch: PROGRAM = 3 is not a program handle (loaded: 1..2)");
      host.set(reg::kProgram, h1);
      const uint32_t add = entry(gpu, h1, "add"), crash = entry(gpu, h1, "crash"),
                     hungry = entry(gpu, h1, "hungry");
      host.set(reg::kKernel, add + 8);  // inside `add`, not its entry
      std::ostringstream expected;
      expected << std::hex << "launch: KERNEL = 0x" << add + 8
               << " is not the entry address of a kernel of program 1 (kernels: add at 0x" << add
               << ", crash at 0x" << crash << ", hungry at 0x" << hungry << ")";
      refused(GpuError::BadKernel, expected.str());
      host.set(reg::kKernel, add);
      host.set(reg::kGridX, 0);
      refused(GpuError::BadGrid, "launch: grid dimensions must be positive, got (0,1,1)");
      host.set(reg::kGridX, 1);
      host.set(reg::kGridY, 65536);
      refused(GpuError::BadGrid,
              "launch: grid (1,65536,1) exceeds the PTX limits (2147483647,65535,65535)");
      host.set(reg::kGridY, 1);
      host.set(reg::kBlockX, 1025);
      refused(GpuError::BadBlock,
              "launch: block x and y dimensions may be at most 1024, got (1025,1,1)");
      host.set(reg::kBlockX, 32);
      host.set(reg::kBlockY, 32);
      host.set(reg::kBlockZ, 2);
      refused(GpuError::BadBlock, "launch: a CTA may hold at most 1024 threads, block has 2048");
      host.set(reg::kBlockZ, 1);
      // 1024 threads = 32 warps; the small preset's SM has min(16, 512 / 32) = 16 warp slots.
      refused(GpuError::CtaWarps,
              "launch: kernel 'add' with block (32,32,1): a CTA needs 32 warp slots (1024 threads "
              "in warps of 32), an SM has 16 (min(sm.warps = 16, sm.threads / warp_size = 512 / "
              "32))");
      host.set(reg::kBlockX, 16);
      // `add` takes 20 bytes of parameters (u64, u64, u32); address 0 holds no allocation.
      refused(GpuError::BadParams,
              "launch: the parameter buffer of kernel 'add' (20 bytes at PARAM_ADDR 0x0) is not "
              "inside one device allocation" +
                  std::string(gpu.default_store().describe(0).empty()
                                  ? ""
                                  : " (" + gpu.default_store().describe(0) + ")"));
      // 100 registers per thread (already a multiple of 4, under the cap of 255 set below) x 512
      // threads = 51200 > 32768.
      host.set(reg::kKernel, hungry);
      host.set(reg::kBlockX, 512);
      host.set(reg::kBlockY, 1);
      refused(GpuError::CtaRegisters,
              "launch: kernel 'hungry' with block (512,1,1): a CTA needs 51200 registers (100 per "
              "thread x 512 threads), an SM has 32768 (sm.registers)");
      // 16384 static + 20000 dynamic = 36384 bytes > 32768.
      host.set(reg::kProgram, h2);
      host.set(reg::kKernel, entry(gpu, h2, "tiled"));
      host.set(reg::kBlockX, 32);
      host.set(reg::kDynShared, 20000);
      refused(GpuError::CtaShared,
              "launch: kernel 'tiled' with block (32,1,1): a CTA needs 36384 bytes of shared "
              "memory (16384 static + 20000 dynamic), an SM has 32768 (sm.shared_memory)");
      EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);  // refusals take no time
    };
    PlatformConfig config = preset("small");
    config.sm.max_registers_per_thread = 255;  // charge all 100 declared registers
    Bench bench(script, config);
    b = &bench;
    h1 = bench.gpu.load_program(testing::program_of(testing::kGpuKernels));
    h2 = bench.gpu.load_program(testing::program_of(testing::kTiledKernel));
    sc_core::sc_start();
    EXPECT_TRUE(bench.host.finished);
    EXPECT_TRUE(bench.gpu.has_default_dram());
  });
}

TEST(Gpu, ALaunchCompletesWithTheInterruptAndItsCycleCount) {
  in_child_process([] {
    Bench* b = nullptr;
    AddBuffers buffers;
    uint32_t handle = 0;
    sc_core::sc_time irq_at;
    auto script = [&](ScriptHost& host) {
      Gpu& gpu = b->gpu;
      host.set(reg::kIrqEnable, kIrqDone);
      program_add(host, gpu, handle, buffers);
      host.set(reg::kLaunch, 1);
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Running));
      // While it runs: launch registers and the doorbell refuse, IRQ registers accept.
      EXPECT_EQ(host.write(reg::kGridX, 4), tlm::TLM_COMMAND_ERROR_RESPONSE);
      EXPECT_EQ(host.write(reg::kLaunch, 1), tlm::TLM_COMMAND_ERROR_RESPONSE);
      EXPECT_EQ(host.write(reg::kIrqEnable, kIrqDone), tlm::TLM_OK_RESPONSE);
      while (!b->irq.read()) sc_core::wait(b->irq.value_changed_event());
      irq_at = sc_core::sc_time_stamp();
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Done));
      EXPECT_EQ(host.read(reg::kError), 0u);
      // The launch began at time 0 (cycle 0) and ended when the interrupt rose.
      const uint64_t cycles = irq_at.value() / gpu.cycle().value();
      EXPECT_GT(cycles, 0u);
      EXPECT_EQ(host.read(reg::kLaunchCyclesLo), cycles);
      EXPECT_EQ(host.read(reg::kLaunchCyclesHi), 0u);
      EXPECT_EQ(host.read(reg::kCycleLo), cycles);
      EXPECT_EQ(host.read(reg::kIrqStatus), kIrqDone);
      host.set(reg::kIrqStatus, kIrqDone);
      settle();
      EXPECT_FALSE(b->irq.read());
      EXPECT_EQ(gpu.stats()["cycles"].get<uint64_t>(), cycles);

      // A second launch with another value reuses the registers as they are.
      const uint32_t value = 7;
      gpu.default_store().write(buffers.params + 16, &value, 4);
      host.set(reg::kLaunch, 1);
      sc_core::wait(gpu.launch_finished_event());
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Done));
    };
    Bench bench(script);
    b = &bench;
    handle = bench.gpu.load_program(testing::program_of(testing::kGpuKernels));
    buffers = setup_add(bench.gpu, 100);
    sc_core::sc_start();
    ASSERT_TRUE(bench.host.finished);
    testing::expect_add(bench.gpu.default_store(), buffers.out, 7);
    nlohmann::json s = bench.gpu.stats();
    EXPECT_EQ(s["launches"].get<uint64_t>(), 2u);
    EXPECT_EQ(s["ctas"].get<uint64_t>(), 4u);   // 2 per launch
    EXPECT_EQ(s["warps"].get<uint64_t>(), 4u);  // one warp per CTA
    EXPECT_EQ(s["occupancy.ctas_dispatched"].get<uint64_t>(), 4u);
    EXPECT_EQ(s["thread_instructions"].get<uint64_t>(),
              32 * s["warp_instructions"].get<uint64_t>());
    EXPECT_DOUBLE_EQ(s["simd_utilisation"].get<double>(), 1.0);
  });
}

// A second program whose two kernels write different functions of `in`.
const char* const kScaleKernels = R"(.version 7.0
.target sm_70
.address_size 64

.visible .entry scale(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r2, [%rd4];
  mul.lo.u32 %r3, %r2, 3;
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r3;
  ret;
}

.visible .entry negate(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r2, [%rd4];
  neg.s32 %r3, %r2;
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r3;
  ret;
}
)";

// Launches of different programs and kernels on one GPU each run their own
// kernel, and the instruction budget counts each launch on its own: 2 CTAs
// of `add` issue 26 warp instructions, 13 on each SM, so five launches under
// a budget of 30 stay within it while the SMs' totals pass it.
TEST(Gpu, EachLaunchRunsItsOwnKernelUnderItsOwnBudget) {
  in_child_process([] {
    Bench* b = nullptr;
    AddBuffers buffers;
    uint32_t h_add = 0, h_scale = 0;
    auto script = [&](ScriptHost& host) {
      Gpu& gpu = b->gpu;
      auto run = [&](const char* what) {
        host.set(reg::kLaunch, 1);
        sc_core::wait(gpu.launch_finished_event());
        EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Done))
            << what << ": " << gpu.last_error();
      };
      auto out = [&](uint32_t i) {
        uint32_t v = 0;
        gpu.default_store().read(buffers.out + 4 * i, &v, 4);
        return v;
      };
      program_add(host, gpu, h_add, buffers);
      for (int i = 0; i < 3; ++i) run("add");
      EXPECT_EQ(out(33), 33000u + 9);
      // scale and negate take (in, out): the first 16 bytes of add's parameters.
      host.set(reg::kProgram, h_scale);
      host.set(reg::kKernel, entry(gpu, h_scale, "scale"));
      host.set(reg::kGridX, 1);
      run("scale");
      for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(out(i), 3000u * i) << "scale, thread " << i;
      host.set(reg::kKernel, entry(gpu, h_scale, "negate"));
      run("negate");
      for (uint32_t i = 0; i < 32; ++i)
        EXPECT_EQ(out(i), static_cast<uint32_t>(-1000 * static_cast<int32_t>(i)))
            << "negate, thread " << i;
      program_add(host, gpu, h_add, buffers);
      run("add again");
      EXPECT_EQ(out(63), 63000u + 9);
    };
    PlatformConfig config = preset("small");
    config.instruction_budget = 30;
    Bench bench(script, config);
    b = &bench;
    h_add = bench.gpu.load_program(testing::program_of(testing::kGpuKernels));
    h_scale = bench.gpu.load_program(testing::program_of(kScaleKernels));
    buffers = setup_add(bench.gpu, 9);
    sc_core::sc_start();
    EXPECT_TRUE(bench.host.finished);
    EXPECT_EQ(bench.gpu.stats()["launches"].get<uint64_t>(), 6u);
  });
}

TEST(Gpu, AKernelFaultIsReportedAndSticky) {
  in_child_process([] {
    Bench* b = nullptr;
    AddBuffers buffers;
    uint32_t handle = 0;
    auto script = [&](ScriptHost& host) {
      Gpu& gpu = b->gpu;
      host.set(reg::kIrqEnable, kIrqMask);
      host.set(reg::kProgram, handle);
      host.set(reg::kKernel, entry(gpu, handle, "crash"));
      host.set(reg::kLaunch, 1);
      while (!b->irq.read()) sc_core::wait(b->irq.value_changed_event());
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Fault));
      EXPECT_EQ(host.read(reg::kError), uint32_t(GpuError::KernelFault));
      EXPECT_EQ(host.read(reg::kIrqStatus), kIrqError);
      ASSERT_TRUE(gpu.fault().has_value());
      EXPECT_NE(std::string(gpu.fault()->what()).find("kernel 'crash'"), std::string::npos)
          << gpu.fault()->what();
      EXPECT_EQ(gpu.last_error(), gpu.fault()->what());
      host.set(reg::kIrqStatus, kIrqMask);
      // The fault is sticky: every later launch is refused.
      program_add(host, gpu, handle, buffers);
      host.set(reg::kLaunch, 1);
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::LaunchError));
      EXPECT_EQ(host.read(reg::kError), uint32_t(GpuError::Faulted));
      EXPECT_EQ(gpu.last_error().rfind("launch: the GPU is unusable after the kernel fault of "
                                       "launch 1 (kernel 'crash'",
                                       0),
                0u)
          << gpu.last_error();
    };
    Bench bench(script);
    b = &bench;
    handle = bench.gpu.load_program(testing::program_of(testing::kGpuKernels));
    buffers = setup_add(bench.gpu, 1);
    sc_core::sc_start();
    EXPECT_TRUE(bench.host.finished);
  });
}

TEST(Gpu, AForeignMemoryHoldsTheDataAndSeesTheTraffic) {
  in_child_process([] {
    Bench* b = nullptr;
    AddBuffers buffers;
    uint32_t handle = 0;
    auto script = [&](ScriptHost& host) {
      host.set(reg::kIrqEnable, kIrqMask);
      program_add(host, b->gpu, handle, buffers);
      host.set(reg::kLaunch, 1);
      while (!b->irq.read()) sc_core::wait(b->irq.value_changed_event());
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Done)) << b->gpu.last_error();
    };
    Bench bench(script);
    b = &bench;
    ForeignMemory foreign("foreign");
    bench.gpu.memory.bind(foreign.socket);
    handle = bench.gpu.load_program(testing::program_of(testing::kGpuKernels));
    buffers = setup_add_in(foreign.memory, 5);
    sc_core::sc_start();
    ASSERT_TRUE(bench.host.finished);
    EXPECT_FALSE(bench.gpu.has_default_dram());
    // The instructions read and wrote the foreign memory itself (at issue,
    // through debug transport): out[i] = in[i] + 5 is there.
    testing::expect_add(foreign.memory, buffers.out, 5);
    // The timing traffic reached it too: the loads of `in` (256 bytes = 4
    // lines of 64) miss the L2 and read memory.
    EXPECT_EQ(foreign.reads, 4u);
    nlohmann::json s = bench.gpu.stats();
    EXPECT_FALSE(s.contains("dram.reads"));
    EXPECT_EQ(s["memory_port.reads"].get<uint64_t>(), 4u);
    EXPECT_GT(s["memory_port.debug_reads"].get<uint64_t>(), 0u);
    EXPECT_GT(s["memory_port.debug_writes"].get<uint64_t>(), 0u);
  });
}

TEST(Gpu, AForeignMemoryFaultNamesTheAddress) {
  in_child_process([] {
    Bench* b = nullptr;
    AddBuffers buffers;
    uint32_t handle = 0;
    auto script = [&](ScriptHost& host) {
      host.set(reg::kIrqEnable, kIrqMask);
      program_add(host, b->gpu, handle, buffers);
      host.set(reg::kLaunch, 1);
      while (!b->irq.read()) sc_core::wait(b->irq.value_changed_event());
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Fault));
    };
    Bench bench(script);
    b = &bench;
    ForeignMemory foreign("foreign");
    bench.gpu.memory.bind(foreign.socket);
    handle = bench.gpu.load_program(testing::program_of(testing::kGpuKernels));
    buffers = setup_add_in(foreign.memory, 5);
    // `out` points past the memory's 64 KB: the first store faults.
    const uint64_t bad_out = 0x30000;
    foreign.memory.write(buffers.params + 8, &bad_out, 8);
    sc_core::sc_start();
    ASSERT_TRUE(bench.gpu.fault().has_value());
    const std::string what = bench.gpu.fault()->what();
    EXPECT_NE(what.find("kernel 'add'"), std::string::npos) << what;
    EXPECT_NE(what.find("0x30000"), std::string::npos) << what;
    EXPECT_NE(what.find("refused the access"), std::string::npos) << what;
    EXPECT_TRUE(bench.gpu.fault()->site.has_address);
  });
}

TEST(Gpu, ATlmErrorResponseIsAKernelFault) {
  in_child_process([] {
    Bench* b = nullptr;
    AddBuffers buffers;
    uint32_t handle = 0;
    auto script = [&](ScriptHost& host) {
      host.set(reg::kIrqEnable, kIrqMask);
      program_add(host, b->gpu, handle, buffers);
      host.set(reg::kLaunch, 1);
      while (!b->irq.read()) sc_core::wait(b->irq.value_changed_event());
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Fault));
    };
    Bench bench(script);
    b = &bench;
    ForeignMemory foreign("foreign");
    foreign.fail_transactions = true;  // debug (functional) accesses still work
    bench.gpu.memory.bind(foreign.socket);
    handle = bench.gpu.load_program(testing::program_of(testing::kGpuKernels));
    buffers = setup_add_in(foreign.memory, 5);
    sc_core::sc_start();
    ASSERT_TRUE(bench.gpu.fault().has_value());
    const std::string what = bench.gpu.fault()->what();
    // The load of `in` (lines 0x10000 and 0x10040 for warp 0) missed the L2;
    // memory answered a line read with an error.
    EXPECT_NE(what.find("kernel 'add'"), std::string::npos) << what;
    EXPECT_NE(what.find("`ld.global.u32"), std::string::npos) << what;
    EXPECT_NE(what.find("memory system answered an error for the load of the line at 0x100"),
              std::string::npos)
        << what;
    EXPECT_TRUE(bench.gpu.fault()->site.has_thread);
    EXPECT_TRUE(bench.gpu.fault()->site.has_address);
  });
}

// Two GPUs in one simulation share nothing: each has its own wake-up
// scheduler and SM clock, so a launch takes the same cycles whether or not
// another GPU runs beside it, and when it starts. GPU b starts 7 cycles after
// a and adds another value; both finish with their own results.
TEST(Gpu, TwoGpusInOneSimulationRunIndependently) {
  in_child_process([] {
    struct Side {
      Bench* bench = nullptr;
      AddBuffers buffers;
      uint32_t handle = 0;
      uint64_t cycles = 0;
    } a, b;
    bool b_done = false;
    sc_core::sc_event b_finished;
    auto launch = [](ScriptHost& host, Side& s) {
      program_add(host, s.bench->gpu, s.handle, s.buffers);
      host.set(reg::kLaunch, 1);
      sc_core::wait(s.bench->gpu.launch_finished_event());
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Done));
      s.cycles = host.read(reg::kLaunchCyclesLo);
    };
    Bench bench_a([&](ScriptHost& host) {
      launch(host, a);
      while (!b_done) sc_core::wait(b_finished);
    });
    Bench bench_b([&](ScriptHost& host) {
      sc_core::wait(b.bench->gpu.cycle() * 7.0);
      launch(host, b);
      b_done = true;
      b_finished.notify(sc_core::SC_ZERO_TIME);
      sc_core::wait();  // never returns: a's script ends the simulation
    });
    a.bench = &bench_a;
    b.bench = &bench_b;
    a.handle = bench_a.gpu.load_program(testing::program_of(testing::kGpuKernels));
    b.handle = bench_b.gpu.load_program(testing::program_of(testing::kGpuKernels));
    a.buffers = setup_add(bench_a.gpu, 100);
    b.buffers = setup_add(bench_b.gpu, 5);
    sc_core::sc_start();
    ASSERT_TRUE(bench_a.host.finished);
    ASSERT_TRUE(b_done);
    EXPECT_GT(a.cycles, 0u);
    EXPECT_EQ(a.cycles, b.cycles);
    testing::expect_add(bench_a.gpu.default_store(), a.buffers.out, 100);
    testing::expect_add(bench_b.gpu.default_store(), b.buffers.out, 5);
    EXPECT_EQ(bench_a.gpu.stats()["cycles"], bench_b.gpu.stats()["cycles"]);
    EXPECT_EQ(bench_a.gpu.stats()["warp_instructions"], bench_b.gpu.stats()["warp_instructions"]);
  });
}

}  // namespace
}  // namespace warptlm

namespace warptlm {
namespace {

TEST(Gpu, DebugTransportOnTheControlSocketHasNoSideEffects) {
  in_child_process([] {
    Bench* b = nullptr;
    auto script = [&](ScriptHost& host) {
      // A debugger reads the ID and writes LAUNCH: the value, no launch.
      uint8_t data[4] = {1, 0, 0, 0};
      tlm::tlm_generic_payload p;
      p.set_command(tlm::TLM_WRITE_COMMAND);
      p.set_address(reg::kLaunch);
      p.set_data_ptr(data);
      p.set_data_length(4);
      EXPECT_EQ(host.socket->transport_dbg(p), 0u);
      settle();
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Idle));
      p.set_command(tlm::TLM_READ_COMMAND);
      p.set_address(reg::kId);
      EXPECT_EQ(host.socket->transport_dbg(p), 4u);
      EXPECT_EQ(uint32_t(data[0]) | uint32_t(data[1]) << 8 | uint32_t(data[2]) << 16 |
                    uint32_t(data[3]) << 24,
                kGpuId);
      EXPECT_FALSE(b->irq.read());
    };
    Bench bench(script);
    b = &bench;
    sc_core::sc_start();
    EXPECT_TRUE(bench.host.finished);
  });
}

}  // namespace
}  // namespace warptlm
