// Platform shapes a virtual prototype builds around the GPU: two GPUs on one
// bus, each with its own register window and interrupt, working at the same
// time on separate buffers; and a GPU on 64-bit sockets through
// BusWidthAdapter, on the register side and on the memory side.
#include <gtest/gtest.h>

#ifdef WARPTLM_TLM_EXAMPLES
#include "SimpleBusLT.h"
#include "lt_target.h"
#include "reporting.h"
#endif

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "common/systemc_child.h"
#include "gpu/gpu_bench.h"
#include "interconnect/address_router.h"
#include "interconnect/bus_width_adapter.h"
#include "memory/tlm/tlm_memory.h"

namespace warptlm {
namespace {

using testing::expect_add;
using testing::in_child_process;
using testing::ScriptHost;

const sc_core::sc_time kNs(1, sc_core::SC_NS);

void wait_irq(const sc_core::sc_signal<bool>& irq) {
  while (!irq.read()) sc_core::wait(irq.value_changed_event());
}

// The add kernel's image, input, output and parameters allocated in `m`,
// which the GPU reaches at bus_base + its local addresses; returns their bus
// addresses. `out` receives in[i] + value.
struct AddLayout {
  uint64_t image, in, out, params;
};
AddLayout place_add(TlmMemory& m, uint64_t bus_base, uint32_t value) {
  const uint64_t image_bytes = std::strlen(testing::kGpuKernels);
  const uint64_t image = m.allocate(image_bytes, "image");
  EXPECT_TRUE(m.write(image, testing::kGpuKernels, image_bytes));
  testing::AddBuffers local;
  local.in = m.allocate(256, "in");
  local.out = m.allocate(256, "out");
  local.params = m.allocate(20, "params");
  // The GPU sees the memory at bus_base: the addresses it gets are bus addresses.
  testing::place_add(m, local, value, bus_base);
  return AddLayout{image + bus_base, local.in + bus_base, local.out + bus_base,
                   local.params + bus_base};
}

// Loads the image and launches add on the GPU whose window starts at `window`.
void start_add(ScriptHost& host, uint64_t window, const AddLayout& l) {
  auto set = [&](uint32_t reg_offset, uint64_t v) {
    host.set(window + reg_offset, static_cast<uint32_t>(v));
  };
  set(reg::kIrqEnable, kIrqMask);
  set(reg::kImageAddrLo, l.image);
  set(reg::kImageAddrHi, l.image >> 32);
  set(reg::kImageSize, std::strlen(testing::kGpuKernels));
  set(reg::kCommand, uint32_t(GpuCommand::Load));
  EXPECT_EQ(host.read(window + reg::kStatus), uint32_t(GpuStatus::Done)) << window;
  set(reg::kGridX, 2);
  set(reg::kBlockX, 32);
  set(reg::kParamAddrLo, l.params);
  set(reg::kParamAddrHi, l.params >> 32);
  set(reg::kLaunch, 1);
}

// start_add, then the interrupt, and the launch done.
void run_add(ScriptHost& host, uint64_t window, const AddLayout& l,
             const sc_core::sc_signal<bool>& irq) {
  start_add(host, window, l);
  wait_irq(irq);
  EXPECT_EQ(host.read(window + reg::kStatus), uint32_t(GpuStatus::Done));
}

PlatformConfig lt_small() {
  PlatformConfig c = preset("small");
  c.coding_style = "lt";
  return c;
}

#ifdef WARPTLM_TLM_EXAMPLES

TEST(BusPlatforms, TwoGpusOnOneBusWithTheirOwnWindowsAndInterrupts) {
  in_child_process([] {
    REPORT_DISABLE_ALL_REPORTING();
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    // Registers: GPU 0 at 0x0000_0000, GPU 1 at 0x1000_0000. Memory: a
    // TlmMemory at 0x1000_0000 shared by both GPUs (port 0 is an unused
    // lt_target the bus needs in its place).
    constexpr uint64_t kWindow1 = 0x10000000, kMemoryBase = 0x10000000;
    Gpu* g0 = nullptr;
    Gpu* g1 = nullptr;
    sc_core::sc_signal<bool>* irq0 = nullptr;
    sc_core::sc_signal<bool>* irq1 = nullptr;
    TlmMemory* mem = nullptr;
    AddLayout a, b;
    auto script = [&](ScriptHost& host) {
      a = place_add(*mem, kMemoryBase, 1);
      b = place_add(*mem, kMemoryBase, 2);
      start_add(host, 0, a);
      start_add(host, kWindow1, b);
      // Both run at once; each raises its own line.
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Running));
      EXPECT_EQ(host.read(kWindow1 + reg::kStatus), uint32_t(GpuStatus::Running));
      wait_irq(*irq0);
      wait_irq(*irq1);
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Done)) << g0->last_error();
      EXPECT_EQ(host.read(kWindow1 + reg::kStatus), uint32_t(GpuStatus::Done)) << g1->last_error();
      host.set(reg::kIrqStatus, kIrqMask);  // acknowledging GPU 0 leaves GPU 1's line up
      testing::settle();
      EXPECT_FALSE(irq0->read());
      EXPECT_TRUE(irq1->read());
    };
    Gpu gpu0("gpu0", lt_small()), gpu1("gpu1", lt_small());
    g0 = &gpu0;
    g1 = &gpu1;
    sc_core::sc_signal<bool> line0("irq0"), line1("irq1");
    irq0 = &line0;
    irq1 = &line1;
    gpu0.irq.bind(line0);
    gpu1.irq.bind(line1);
    ScriptHost host("host", script);
    SimpleBusLT<1, 2> registers("registers");
    host.socket.bind(registers.target_socket[0]);
    registers.initiator_socket[0].bind(gpu0.control);
    registers.initiator_socket[1].bind(gpu1.control);
    SimpleBusLT<2, 2> memory_bus("memory_bus");
    gpu0.memory.bind(memory_bus.target_socket[0]);
    gpu1.memory.bind(memory_bus.target_socket[1]);
    lt_target unused("unused", 0, "unused_socket", 0x1000, 4, 10 * kNs, 50 * kNs, 30 * kNs);
    memory_bus.initiator_socket[0].bind(unused.m_memory_socket);
    TlmMemoryParams p;
    p.size = 1 << 20;  // at local 0: the bus takes off 0x1000_0000
    TlmMemory memory("memory", p);
    mem = &memory;
    memory_bus.initiator_socket[1].bind(memory.socket);
    sc_core::sc_start();
    ASSERT_TRUE(host.finished);
    expect_add(memory, a.out - kMemoryBase, 1);
    expect_add(memory, b.out - kMemoryBase, 2);
    EXPECT_EQ(gpu0.stats()["launches"].get<uint64_t>(), 1u);
    EXPECT_EQ(gpu1.stats()["launches"].get<uint64_t>(), 1u);
  });
}

#endif

// The GPU's memory behind an AddressRouter (multi_passthrough sockets, as VP
// libraries write routers) at 0x1000_0000 (window 1), in both coding styles: add runs, the memory
// withdraws its DMI grant (the invalidation reaches the GPU through the router), add runs again.
constexpr uint64_t kWindow = 0x10000000;

void run_behind_the_router(const PlatformConfig& config) {
  in_child_process([&] {
    TlmMemory* ram = nullptr;
    sc_core::sc_signal<bool>* irq = nullptr;
    AddLayout l;
    auto script = [&](ScriptHost& host) {
      l = place_add(*ram, kWindow, 5);
      run_add(host, 0, l, *irq);
      host.set(reg::kIrqStatus, kIrqMask);
      testing::settle();
      ram->invalidate_dmi();
      run_add(host, 0, l, *irq);
    };
    Gpu gpu("gpu", config);
    sc_core::sc_signal<bool> line("irq");
    irq = &line;
    gpu.irq.bind(line);
    ScriptHost host("host", script);
    host.socket.bind(gpu.control);
    AddressRouter router("router");
    router.map("low", 0, kWindow);
    router.map("high", kWindow, kWindow);
    gpu.memory.bind(router.in);
    TlmMemoryParams low_params, high_params;
    low_params.size = 4096;
    high_params.size = 1 << 20;
    TlmMemory low("low", low_params), high("high", high_params);
    ram = &high;
    router.out.bind(low.socket);
    router.out.bind(high.socket);
    sc_core::sc_start();
    ASSERT_TRUE(host.finished);
    expect_add(high, l.out - kWindow, 5);
    EXPECT_EQ(router.stats()["dmi_invalidations"].get<uint64_t>(), 1u);
    const nlohmann::json s = gpu.stats();
    EXPECT_EQ(s["memory_port.dmi_invalidations"].get<uint64_t>(), 1u);
    EXPECT_EQ(s["memory_port.dmi_grants"].get<uint64_t>(), 2u);  // before and after it
    EXPECT_EQ(router.open_transactions(), 0u);
  });
}

TEST(BusPlatforms, ApproximatelyTimedGpuBehindAnAddressRouter) {
  run_behind_the_router(preset("small"));
}

TEST(BusPlatforms, LooselyTimedGpuBehindAnAddressRouter) { run_behind_the_router(lt_small()); }

// The GPU's registers and its memory each behind a 64-bit stretch of bus
// (32 -> 64 -> 32 bits through two adapters), in both coding styles: at
// (nb_transport, DMI and debug transport through the adapters) and lt
// (b_transport and DMI).
void run_on_64_bit_sockets(const PlatformConfig& config) {
  in_child_process([&] {
    TlmMemory* ram = nullptr;
    sc_core::sc_signal<bool>* irq = nullptr;
    AddLayout l;
    auto script = [&](ScriptHost& host) {
      l = place_add(*ram, 0, 7);
      run_add(host, 0, l, *irq);
    };
    Gpu gpu("gpu", config);
    sc_core::sc_signal<bool> line("irq");
    irq = &line;
    gpu.irq.bind(line);
    ScriptHost host("host", script);
    BusWidthAdapter<32, 64> up("up");
    BusWidthAdapter<64, 32> down("down");
    host.socket.bind(up.in);
    up.out.bind(down.in);
    down.out.bind(gpu.control);
    TlmMemoryParams p;
    p.base = 0x100000;
    p.size = 1 << 20;
    TlmMemory memory("memory", p);
    ram = &memory;
    BusWidthAdapter<32, 64> widen("widen");
    BusWidthAdapter<64, 32> narrow("narrow");
    gpu.memory.bind(widen.in);
    widen.out.bind(narrow.in);
    narrow.out.bind(memory.socket);
    sc_core::sc_start();
    ASSERT_TRUE(host.finished);
    expect_add(memory, l.out, 7);
    EXPECT_EQ(memory.stats().dmi_grants, 1u);  // the grant came back through both adapters
    if (config.coding_style == "at") {
      EXPECT_GT(memory.stats().reads, 0u);  // the line traffic
    }
  });
}

TEST(BusPlatforms, ApproximatelyTimedGpuOn64BitSockets) { run_on_64_bit_sockets(preset("small")); }

TEST(BusPlatforms, LooselyTimedGpuOn64BitSockets) { run_on_64_bit_sockets(lt_small()); }

}  // namespace
}  // namespace warptlm
