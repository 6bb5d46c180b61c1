// The GPU bound to TLM models written by others: Accellera's example targets
// and router (SystemC's TLM examples, built here from the copy Debian's
// libsystemc-doc installs, not kept in this repository). A host loads the
// program through the registers, places data through the same bus, and the
// GPU runs: loosely timed against a b_transport-only target at a non-zero
// base, against a target that grants DMI and withdraws it every microsecond,
// and against the 4-phase AT example target; approximately timed against a
// target with neither DMI nor debug transport, which it refuses clearly.
#include <gtest/gtest.h>

#ifdef WARPTLM_TLM_EXAMPLES
#define REPORT_DEFINE_GLOBALS
#include "SimpleBusLT.h"
#include "at_target_4_phase.h"
#include "lt_dmi_target.h"
#include "lt_target.h"
#include "reporting.h"
#endif

#include <tlm_utils/simple_initiator_socket.h>

#include <cstring>
#include <memory>
#include <string>

#include "common/systemc_child.h"
#include "gpu/gpu_bench.h"
#include "transaction/blocking_access.h"

namespace warptlm {
namespace {

#ifdef WARPTLM_TLM_EXAMPLES

using testing::in_child_process;
using testing::ScriptHost;

// The host's second port: buffers and results over the bus, by b_transport
// from the host's thread.
struct BusPort : sc_core::sc_module {
  explicit BusPort(sc_core::sc_module_name n) : sc_module(n), socket("socket") {}
  bool access(tlm::tlm_command cmd, uint64_t address, void* data, unsigned n) {
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    return blocking_access(socket, cmd, address, data, n, delay) == tlm::TLM_OK_RESPONSE;
  }
  bool write(uint64_t address, const void* data, unsigned n) {
    return access(tlm::TLM_WRITE_COMMAND, address, const_cast<void*>(data), n);
  }
  bool read(uint64_t address, void* data, unsigned n) {
    return access(tlm::TLM_READ_COMMAND, address, data, n);
  }
  tlm_utils::simple_initiator_socket<BusPort> socket;
};

// The second target of SimpleBusLT<2, 2> answers at 0x1000_0000 (address
// bits 31..28 select the port).
constexpr uint64_t kBase = 0x10000000;
constexpr uint64_t kImage = kBase, kName = kBase + 0x1000, kIn = kBase + 0x2000,
                   kOut = kBase + 0x3000, kParams = kBase + 0x4000;
constexpr uint64_t kMemoryBytes = 0x100000;

const sc_core::sc_time kNs(1, sc_core::SC_NS);

PlatformConfig lt_config() {
  PlatformConfig c = preset("small");
  c.coding_style = "lt";
  c.lt.quantum_ns = 1000;
  return c;
}

// GPU and host on SimpleBusLT<2, 2>: port 0 an lt_target at 0, port 1 `Target`.
template <class Target>
struct BusPlatform {
  BusPlatform(std::function<void(ScriptHost&)> script, const PlatformConfig& config,
              std::unique_ptr<Target> target)
      : gpu("gpu", config),
        irq("irq"),
        host("host", std::move(script)),
        data("data"),
        bus("bus"),
        low("low", 0, "low_socket", kMemoryBytes, 4, 10 * kNs, 50 * kNs, 30 * kNs),
        high(std::move(target)) {
    gpu.irq.bind(irq);
    host.socket.bind(gpu.control);
    gpu.memory.bind(bus.target_socket[0]);
    data.socket.bind(bus.target_socket[1]);
    bus.initiator_socket[0].bind(low.m_memory_socket);
    bus.initiator_socket[1].bind(high->m_memory_socket);
  }
  Gpu gpu;
  sc_core::sc_signal<bool> irq;
  ScriptHost host;
  BusPort data;
  SimpleBusLT<2, 2> bus;
  lt_target low;
  std::unique_ptr<Target> high;
};

void wait_irq(sc_core::sc_signal<bool>& irq) {
  while (!irq.read()) sc_core::wait(irq.value_changed_event());
}

// The add kernel's image, name, input and parameters placed over the bus.
void place_add(BusPort& data, uint32_t value) {
  const unsigned image_bytes = static_cast<unsigned>(std::strlen(testing::kGpuKernels));
  EXPECT_TRUE(data.write(kImage, testing::kGpuKernels, image_bytes));
  EXPECT_TRUE(data.write(kName, "add", 3));
  testing::place_add(data, testing::AddBuffers{kIn, kOut, kParams}, value);
}

// LOAD, kernel by name, launch add; returns STATUS at the interrupt.
uint32_t run_add(ScriptHost& host, Gpu& gpu, sc_core::sc_signal<bool>& irq) {
  host.set(reg::kIrqEnable, kIrqMask);
  host.set(reg::kImageAddrLo, static_cast<uint32_t>(kImage));
  host.set(reg::kImageSize, static_cast<uint32_t>(std::strlen(testing::kGpuKernels)));
  host.set(reg::kCommand, uint32_t(GpuCommand::Load));
  EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Done)) << gpu.last_error();
  host.set(reg::kNameAddrLo, static_cast<uint32_t>(kName));
  host.set(reg::kNameSize, 3);
  host.set(reg::kCommand, uint32_t(GpuCommand::KernelByName));
  EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Done)) << gpu.last_error();
  host.set(reg::kGridX, 2);
  host.set(reg::kBlockX, 32);
  host.set(reg::kParamAddrLo, static_cast<uint32_t>(kParams));
  host.set(reg::kLaunch, 1);
  wait_irq(irq);
  return host.read(reg::kStatus);
}

void expect_add(BusPort& data, uint32_t value) { testing::expect_add(data, kOut, value); }

void quiet_examples() {
  REPORT_DISABLE_ALL_REPORTING();
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
}

TEST(AccelleraTargets, LooselyTimedGpuOnTheLtBusWithAnLtTargetAtANonZeroBase) {
  in_child_process([] {
    quiet_examples();
    using P = BusPlatform<lt_target>;
    P* p = nullptr;
    auto script = [&](ScriptHost& host) {
      place_add(p->data, 12);
      EXPECT_EQ(run_add(host, p->gpu, p->irq), uint32_t(GpuStatus::Done)) << p->gpu.last_error();
      expect_add(p->data, 12);
    };
    P platform(script, lt_config(),
               std::make_unique<lt_target>("high", 1, "high_socket", kMemoryBytes, 4, 10 * kNs,
                                           50 * kNs, 30 * kNs));
    p = &platform;
    sc_core::sc_start();
    ASSERT_TRUE(platform.host.finished);
    const nlohmann::json s = platform.gpu.stats();
    // lt_target offers b_transport only: everything went that way.
    EXPECT_GT(s["memory_port.blocking_reads"].get<uint64_t>(), 0u);
    EXPECT_GT(s["memory_port.blocking_writes"].get<uint64_t>(), 0u);
    EXPECT_EQ(s["memory_port.dmi_grants"].get<uint64_t>(), 0u);
    EXPECT_EQ(s["memory_port.debug_reads"].get<uint64_t>(), 0u);
  });
}

TEST(AccelleraTargets, LooselyTimedGpuFollowsATargetThatGrantsAndWithdrawsDmi) {
  in_child_process([] {
    quiet_examples();
    using P = BusPlatform<lt_dmi_target>;
    P* p = nullptr;
    const uint32_t rounds = 2000;
    auto script = [&](ScriptHost& host) {
      Gpu& gpu = p->gpu;
      uint8_t params[12];
      const uint64_t buf = kOut;
      std::memcpy(params, &buf, 8);
      std::memcpy(params + 8, &rounds, 4);
      EXPECT_TRUE(p->data.write(kParams, params, sizeof params));
      const uint32_t spin = gpu.load_program(testing::program_of(testing::kSpinKernel));
      host.set(reg::kIrqEnable, kIrqMask);
      host.set(reg::kProgram, spin);
      host.set(reg::kKernelIndex, 0);
      host.set(reg::kCommand, uint32_t(GpuCommand::KernelByIndex));
      host.set(reg::kBlockX, 64);
      host.set(reg::kParamAddrLo, static_cast<uint32_t>(kParams));
      host.set(reg::kLaunch, 1);
      wait_irq(p->irq);
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Done)) << gpu.last_error();
      for (uint32_t i = 0; i < 64; ++i) {
        uint32_t v = 0;
        EXPECT_TRUE(p->data.read(kOut + 4 * i, &v, 4));
        EXPECT_EQ(v, rounds) << i;
      }
    };
    // The example target withdraws DMI at once (an invalidate_direct_mem_ptr
    // through the bus), grants it again after 100 ns (saying so in its
    // transactions' DMI hint) and withdraws it for good 5 us later, while
    // the kernel runs.
    P platform(script, lt_config(),
               std::make_unique<lt_dmi_target>("high", 1, "high_socket", kMemoryBytes, 4, 10 * kNs,
                                               50 * kNs, 30 * kNs, 100 * kNs, 5000 * kNs));
    p = &platform;
    sc_core::sc_start();
    ASSERT_TRUE(platform.host.finished);
    const nlohmann::json s = platform.gpu.stats();
    EXPECT_EQ(s["memory_port.dmi_invalidations"].get<uint64_t>(), 2u);
    EXPECT_GE(s["memory_port.dmi_grants"].get<uint64_t>(), 1u);       // asked again on the hint
    EXPECT_GT(s["memory_port.blocking_writes"].get<uint64_t>(), 0u);  // while DMI was off
    EXPECT_GT(sc_core::sc_time_stamp(), sc_core::sc_time(5100, sc_core::SC_NS));
  });
}

TEST(AccelleraTargets, LooselyTimedGpuUsesTheBTransportOfThe4PhaseAtTarget) {
  in_child_process([] {
    quiet_examples();
    using P = BusPlatform<at_target_4_phase>;
    P* p = nullptr;
    auto script = [&](ScriptHost& host) {
      place_add(p->data, 3);
      EXPECT_EQ(run_add(host, p->gpu, p->irq), uint32_t(GpuStatus::Done)) << p->gpu.last_error();
      expect_add(p->data, 3);
    };
    P platform(script, lt_config(),
               std::make_unique<at_target_4_phase>("high", 1, "high_socket", kMemoryBytes, 4,
                                                   10 * kNs, 50 * kNs, 30 * kNs));
    p = &platform;
    sc_core::sc_start();
    ASSERT_TRUE(platform.host.finished);
  });
}

TEST(AccelleraTargets, ApproximatelyTimedGpuRefusesATargetWithoutDmiOrDebugTransportClearly) {
  in_child_process([] {
    quiet_examples();
    using P = BusPlatform<at_target_4_phase>;
    P* p = nullptr;
    auto script = [&](ScriptHost& host) {
      place_add(p->data, 3);
      host.set(reg::kIrqEnable, kIrqMask);
      host.set(reg::kImageAddrLo, static_cast<uint32_t>(kImage));
      host.set(reg::kImageSize, 100);
      host.set(reg::kCommand, uint32_t(GpuCommand::Load));
      EXPECT_EQ(host.read(reg::kError), uint32_t(GpuError::BadImage));
      EXPECT_NE(p->gpu.last_error().find("needs coding_style=lt"), std::string::npos)
          << p->gpu.last_error();
    };
    P platform(script, preset("small"),
               std::make_unique<at_target_4_phase>("high", 1, "high_socket", kMemoryBytes, 4,
                                                   10 * kNs, 50 * kNs, 30 * kNs));
    p = &platform;
    sc_core::sc_start();
    ASSERT_TRUE(platform.host.finished);  // the platform went on
  });
}

#else

TEST(AccelleraTargets, NeedSystemCsTlmExamples) {
  GTEST_SKIP() << "SystemC's TLM examples were not found at configure time (Debian: "
                  "libsystemc-doc; scripts/setup.sh installs it)";
}

#endif

}  // namespace
}  // namespace warptlm
