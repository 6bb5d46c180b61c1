// The loosely-timed GPU (coding style lt) against memories written by others: one
// that offers only b_transport (no DMI, no debug transport), one that grants
// DMI, one that revokes DMI in the middle of a kernel, one that answers
// errors; and reset in the middle of a loosely-timed kernel.
#include <gtest/gtest.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstring>
#include <string>
#include <vector>

#include "common/systemc_child.h"
#include "gpu_bench.h"

namespace warptlm {
namespace {

using testing::AddBuffers;
using testing::Bench;
using testing::entry;
using testing::in_child_process;
using testing::ScriptHost;

PlatformConfig lt_config(uint64_t quantum_ns = 1000) {
  PlatformConfig c = preset("small");
  c.coding_style = "lt";
  c.lt.quantum_ns = quantum_ns;
  return c;
}

void wait_irq(Bench& b) {
  while (!b.irq.read()) sc_core::wait(b.irq.value_changed_event());
}

// A platform memory: 64 KiB at 0x10000, b_transport with 20 ns per access;
// DMI and debug transport only when asked for; an error range; and a DMI
// revocation at a set time.
struct VpMemory : sc_core::sc_module {
  static constexpr uint64_t kBase = 0x10000, kSize = 0x10000;
  VpMemory(sc_core::sc_module_name n, bool dmi, bool debug)
      : sc_module(n), socket("socket"), bytes(kSize, 0), dmi(dmi) {
    socket.register_b_transport(this, &VpMemory::b_transport);
    socket.register_get_direct_mem_ptr(this, &VpMemory::get_direct_mem_ptr);
    if (debug) socket.register_transport_dbg(this, &VpMemory::transport_dbg);
    SC_HAS_PROCESS(VpMemory);
    SC_THREAD(revoker);
  }
  bool inside(uint64_t a, uint64_t n) const {
    return a >= kBase && a - kBase <= kSize && n <= kSize - (a - kBase);
  }
  bool failing(uint64_t a, uint64_t n) const { return a < error_end && a + n > error_begin; }
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    ++transports;
    const uint64_t a = p.get_address();
    const unsigned n = p.get_data_length();
    delay += sc_core::sc_time(20, sc_core::SC_NS);
    if (!inside(a, n) || failing(a, n))
      return p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    if (p.is_read()) std::memcpy(p.get_data_ptr(), &bytes[a - kBase], n);
    if (p.is_write()) std::memcpy(&bytes[a - kBase], p.get_data_ptr(), n);
    p.set_dmi_allowed(dmi);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& p) {
    const uint64_t a = p.get_address();
    const unsigned n = p.get_data_length();
    if (!inside(a, n)) return 0;
    if (p.is_read()) std::memcpy(p.get_data_ptr(), &bytes[a - kBase], n);
    if (p.is_write()) std::memcpy(&bytes[a - kBase], p.get_data_ptr(), n);
    return n;
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& p, tlm::tlm_dmi& d) {
    ++dmi_requests;
    // The error range is never granted: below it or above it, whichever holds the address.
    const uint64_t a = p.get_address();
    if (!dmi || !inside(a, 1) || failing(a, 1)) {
      d.set_start_address(a);
      d.set_end_address(a);
      return false;
    }
    uint64_t lo = kBase, hi = kBase + kSize - 1;
    if (error_begin < error_end) {
      if (a < error_begin)
        hi = error_begin - 1;
      else
        lo = error_end;
    }
    d.set_dmi_ptr(&bytes[lo - kBase]);
    d.set_start_address(lo);
    d.set_end_address(hi);
    d.allow_read_write();
    return true;
  }
  void revoker() {
    if (revoke_at == sc_core::SC_ZERO_TIME) return;
    sc_core::wait(revoke_at);
    dmi = false;
    socket->invalidate_direct_mem_ptr(0, ~uint64_t(0));
  }
  // The platform's own (untimed) access, for placing inputs and checking outputs.
  bool write(uint64_t a, const void* src, size_t n) {
    if (!inside(a, n)) return false;
    std::memcpy(&bytes[a - kBase], src, n);
    return true;
  }
  bool read(uint64_t a, void* dst, size_t n) const {
    if (!inside(a, n)) return false;
    std::memcpy(dst, &bytes[a - kBase], n);
    return true;
  }
  uint32_t word(uint64_t a) const {
    uint32_t v = 0;
    EXPECT_TRUE(read(a, &v, 4)) << a;
    return v;
  }

  tlm_utils::simple_target_socket<VpMemory> socket;
  std::vector<uint8_t> bytes;
  bool dmi;
  uint64_t error_begin = 0, error_end = 0;
  sc_core::sc_time revoke_at = sc_core::SC_ZERO_TIME;
  uint64_t transports = 0, dmi_requests = 0;
};

// The image, the add kernel's buffers and parameters in a VpMemory.
constexpr uint64_t kImage = 0x10000, kIn = 0x18000, kOut = 0x18400, kParams = 0x18800;

void setup_add(VpMemory& m, uint64_t out, uint32_t value) {
  m.write(kImage, testing::kGpuKernels, std::strlen(testing::kGpuKernels));
  testing::place_add(m, AddBuffers{kIn, out, kParams}, value);
}

// LOAD from the memory, then launch add over 64 threads; returns STATUS.
uint32_t load_and_launch_add(ScriptHost& host, Bench& b) {
  host.set(reg::kIrqEnable, kIrqMask);
  host.set(reg::kImageAddrLo, kImage);
  host.set(reg::kImageSize, static_cast<uint32_t>(std::strlen(testing::kGpuKernels)));
  host.set(reg::kCommand, uint32_t(GpuCommand::Load));
  EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Done)) << b.gpu.last_error();
  host.set(reg::kGridX, 2);
  host.set(reg::kBlockX, 32);
  host.set(reg::kParamAddrLo, kParams);
  host.set(reg::kLaunch, 1);
  wait_irq(b);
  return host.read(reg::kStatus);
}

TEST(LtGpu, RunsAgainstAMemoryWithOnlyBTransport) {
  in_child_process([] {
    Bench* b = nullptr;
    auto script = [&](ScriptHost& host) {
      EXPECT_EQ(load_and_launch_add(host, *b), uint32_t(GpuStatus::Done)) << b->gpu.last_error();
    };
    Bench bench(script, lt_config());
    b = &bench;
    VpMemory memory("memory", /*dmi=*/false, /*debug=*/false);
    bench.gpu.memory.bind(memory.socket);
    setup_add(memory, kOut, 4);
    sc_core::sc_start();
    ASSERT_TRUE(bench.host.finished);
    testing::expect_add(memory, kOut, 4);
    const nlohmann::json s = bench.gpu.stats();
    EXPECT_GT(s["memory_port.blocking_reads"].get<uint64_t>(), 64u);  // the image, params, lanes
    EXPECT_GT(s["memory_port.blocking_writes"].get<uint64_t>(), 0u);
    EXPECT_EQ(s["memory_port.debug_reads"].get<uint64_t>(), 0u);
    EXPECT_EQ(s["memory_port.dmi_reads"].get<uint64_t>(), 0u);
    EXPECT_EQ(s["memory_port.reads"].get<uint64_t>(), 0u);  // no timing traffic in coding style lt
    EXPECT_GT(s["lt.memory_cycles"].get<uint64_t>(), 0u);
    EXPECT_EQ(s["warp_instructions"].get<uint64_t>(), 2u * 14u);  // 2 warps of add
  });
}

// A memory that offers nb_transport only (no b_transport, DMI or debug
// transport): the GPU's b_transport calls reach it through
// simple_target_socket's b-to-nb adapter. accept_delay 0 is the 2-phase
// answer (END_REQ on the return path, BEGIN_RESP later); above 0 the 4-phase
// one with backpressure (TLM_ACCEPTED, END_REQ after the delay).
class LtGpuOnNbOnlyMemory : public ::testing::TestWithParam<int> {};

TEST_P(LtGpuOnNbOnlyMemory, RunsAddWithEveryByteOverNbTransport) {
  const int accept_ns = GetParam();
  in_child_process([accept_ns] {
    Bench* b = nullptr;
    testing::MemoryTarget* mem = nullptr;
    auto script = [&](ScriptHost& host) {
      EXPECT_EQ(load_and_launch_add(host, *b), uint32_t(GpuStatus::Done)) << b->gpu.last_error();
      testing::expect_add(mem->memory, kOut, 13);
    };
    Bench bench(script, lt_config());
    b = &bench;
    testing::MemoryTarget memory("memory", testing::TestMemory(VpMemory::kBase, VpMemory::kSize),
                                 sc_core::sc_time(40, sc_core::SC_NS),
                                 testing::TargetStyle::NonBlockingOnly);
    memory.accept_delay = sc_core::sc_time(accept_ns, sc_core::SC_NS);
    mem = &memory;
    bench.gpu.memory.bind(memory.socket);
    memory.memory.write(kImage, testing::kGpuKernels, std::strlen(testing::kGpuKernels));
    testing::place_add(memory.memory, AddBuffers{kIn, kOut, kParams}, 13);
    sc_core::sc_start();
    ASSERT_TRUE(bench.host.finished);
    EXPECT_EQ(memory.protocol_errors(), 0u);
    const nlohmann::json s = bench.gpu.stats();
    // The image, parameters and lanes: each b_transport one BEGIN_REQ at the memory.
    const uint64_t transports = s["memory_port.blocking_reads"].get<uint64_t>() +
                                s["memory_port.blocking_writes"].get<uint64_t>();
    EXPECT_GT(s["memory_port.blocking_writes"].get<uint64_t>(), 0u);
    EXPECT_EQ(memory.arrivals.size(), transports);
    EXPECT_EQ(s["memory_port.debug_reads"].get<uint64_t>(), 0u);
    // Each transport waited for its response: 40 ns each, at least.
    EXPECT_GE(sc_core::sc_time_stamp(), double(transports) * sc_core::sc_time(40, sc_core::SC_NS));
  });
}

INSTANTIATE_TEST_SUITE_P(TwoAndFourPhase, LtGpuOnNbOnlyMemory, ::testing::Values(0, 30),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return info.param == 0 ? std::string("two_phase")
                                                  : std::string("four_phase_backpressure");
                         });

TEST(LtGpu, UsesDmiWhenTheMemoryGrantsIt) {
  in_child_process([] {
    Bench* b = nullptr;
    auto script = [&](ScriptHost& host) {
      EXPECT_EQ(load_and_launch_add(host, *b), uint32_t(GpuStatus::Done)) << b->gpu.last_error();
    };
    Bench bench(script, lt_config());
    b = &bench;
    VpMemory memory("memory", /*dmi=*/true, /*debug=*/false);
    bench.gpu.memory.bind(memory.socket);
    setup_add(memory, kOut, 6);
    sc_core::sc_start();
    ASSERT_TRUE(bench.host.finished);
    testing::expect_add(memory, kOut, 6);
    const nlohmann::json s = bench.gpu.stats();
    EXPECT_EQ(s["memory_port.dmi_grants"].get<uint64_t>(), 1u);  // one region, asked for once
    EXPECT_EQ(memory.dmi_requests, 1u);
    EXPECT_EQ(memory.transports, 0u);  // every byte went through the pointer
    EXPECT_EQ(s["memory_port.blocking_reads"].get<uint64_t>(), 0u);
    EXPECT_GT(s["memory_port.dmi_reads"].get<uint64_t>(), 0u);
  });
}

TEST(LtGpu, AMemoryThatRevokesDmiMidKernelIsServedByBTransportAfterwards) {
  in_child_process([] {
    Bench* b = nullptr;
    VpMemory* mem = nullptr;
    const uint32_t rounds = 20000;
    auto script = [&](ScriptHost& host) {
      Gpu& gpu = b->gpu;
      host.set(reg::kIrqEnable, kIrqMask);
      const uint32_t handle = gpu.load_program(testing::program_of(testing::kSpinKernel));
      host.set(reg::kProgram, handle);
      host.set(reg::kKernel, entry(gpu, handle, "spin"));
      host.set(reg::kBlockX, 64);
      host.set(reg::kParamAddrLo, kParams);
      host.set(reg::kLaunch, 1);
      wait_irq(*b);
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Done)) << gpu.last_error();
      // The kernel ran on after the revocation (5 us).
      EXPECT_GT(sc_core::sc_time_stamp(), sc_core::sc_time(10, sc_core::SC_US));
    };
    Bench bench(script, lt_config(1000));
    b = &bench;
    VpMemory memory("memory", /*dmi=*/true, /*debug=*/false);
    mem = &memory;
    memory.revoke_at = sc_core::sc_time(5, sc_core::SC_US);
    bench.gpu.memory.bind(memory.socket);
    uint8_t params[12];
    const uint64_t buf = kOut;
    std::memcpy(params, &buf, 8);
    std::memcpy(params + 8, &rounds, 4);
    memory.write(kParams, params, sizeof params);
    sc_core::sc_start();
    ASSERT_TRUE(bench.host.finished);
    for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(mem->word(kOut + 4 * i), rounds) << i;
    const nlohmann::json s = bench.gpu.stats();
    EXPECT_EQ(s["memory_port.dmi_invalidations"].get<uint64_t>(), 1u);
    EXPECT_GT(memory.transports, 0u);  // after the revocation
    EXPECT_GT(s["lt.syncs"].get<uint64_t>(), 5u);
  });
}

TEST(LtGpu, AnErrorResponseIsAKernelFaultNamingTheAddressAndResetRecovers) {
  in_child_process([] {
    Bench* b = nullptr;
    VpMemory* mem = nullptr;
    auto script = [&](ScriptHost& host) {
      Gpu& gpu = b->gpu;
      EXPECT_EQ(load_and_launch_add(host, *b), uint32_t(GpuStatus::Fault));
      EXPECT_EQ(host.read(reg::kError), uint32_t(GpuError::KernelFault));
      ASSERT_TRUE(gpu.fault().has_value());
      const std::string what = gpu.fault()->what();
      EXPECT_NE(what.find("kernel 'add'"), std::string::npos) << what;
      EXPECT_NE(what.find("global address 0x1f000"), std::string::npos) << what;
      EXPECT_NE(what.find("thread (0,0,0) of CTA (0,0,0)"), std::string::npos) << what;
      host.set(reg::kReset, 1);
      testing::settle();  // irq falls a delta cycle after the reset
      // The parameters now point `out` at good memory.
      const uint64_t out = kOut;
      mem->write(kParams + 8, &out, 8);
      EXPECT_EQ(load_and_launch_add(host, *b), uint32_t(GpuStatus::Done)) << gpu.last_error();
    };
    Bench bench(script, lt_config());
    b = &bench;
    VpMemory memory("memory", /*dmi=*/true, /*debug=*/false);
    mem = &memory;
    memory.error_begin = 0x1F000;
    memory.error_end = 0x20000;
    bench.gpu.memory.bind(memory.socket);
    setup_add(memory, 0x1F000, 8);
    sc_core::sc_start();
    ASSERT_TRUE(bench.host.finished);
    testing::expect_add(memory, kOut, 8);
  });
}

TEST(LtGpu, ResetMidKernelAbandonsItAndTheNextLaunchWorks) {
  in_child_process([] {
    Bench* b = nullptr;
    auto script = [&](ScriptHost& host) {
      Gpu& gpu = b->gpu;
      DeviceMemory& store = gpu.default_store();
      const uint64_t buf = store.allocate(256, "buf");
      std::vector<uint8_t> zero(256, 0);
      store.write(buf, zero.data(), zero.size());
      uint8_t params[12];
      const uint32_t rounds = 1000000;
      std::memcpy(params, &buf, 8);
      std::memcpy(params + 8, &rounds, 4);
      const uint64_t p = store.allocate(sizeof params, "params");
      store.write(p, params, sizeof params);
      const uint32_t spin = gpu.load_program(testing::program_of(testing::kSpinKernel));
      host.set(reg::kIrqEnable, kIrqMask);
      host.set(reg::kProgram, spin);
      host.set(reg::kKernel, entry(gpu, spin, "spin"));
      host.set(reg::kBlockX, 64);
      host.set(reg::kParamAddrLo, static_cast<uint32_t>(p));
      host.set(reg::kParamAddrHi, static_cast<uint32_t>(p >> 32));
      host.set(reg::kLaunch, 1);
      sc_core::wait(sc_core::sc_time(10, sc_core::SC_US));
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Running));
      host.set(reg::kReset, 1);
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Idle));
      uint32_t before = 0, after = 0;
      store.read(buf, &before, 4);
      EXPECT_GT(before, 0u);
      sc_core::wait(sc_core::sc_time(10, sc_core::SC_US));
      store.read(buf, &after, 4);
      EXPECT_EQ(after, before);  // the abandoned kernel stays stopped
      const AddBuffers a = testing::setup_add(gpu, 1);
      testing::program_add(host, gpu, gpu.load_program(testing::program_of(testing::kGpuKernels)),
                           a);
      host.set(reg::kIrqEnable, kIrqMask);
      host.set(reg::kLaunch, 1);
      wait_irq(*b);
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Done)) << gpu.last_error();
      testing::expect_add(store, a.out, 1);
      EXPECT_EQ(gpu.stats()["lt.abandoned"].get<uint64_t>(), 1u);
    };
    Bench bench(script, lt_config(1000));
    b = &bench;
    sc_core::sc_start();
    ASSERT_TRUE(bench.host.finished);
  });
}

// A memory whose b_transport synchronises (waits 1 us per call), as
// Accellera's lt_synch_target does: a command reading it waits inside the
// host's register write.
struct SynchronisingMemory : sc_core::sc_module {
  explicit SynchronisingMemory(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
    socket.register_b_transport(this, &SynchronisingMemory::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    sc_core::wait(delay + sc_core::sc_time(1, sc_core::SC_US));
    delay = sc_core::SC_ZERO_TIME;
    memory.execute(p);
  }
  tlm_utils::simple_target_socket<SynchronisingMemory> socket;
  testing::TestMemory memory{0x10000, 0x10000};
};

TEST(LtGpu, ACommandWaitingForMemoryIsBusyAndAResetAbandonsIt) {
  in_child_process([] {
    Bench* b = nullptr;
    sc_core::sc_signal<bool>* rst = nullptr;
    auto script = [&](ScriptHost& host) {
      Gpu& gpu = b->gpu;
      host.set(reg::kImageAddrLo, kImage);
      host.set(reg::kImageSize, static_cast<uint32_t>(std::strlen(testing::kGpuKernels)));
      host.set(reg::kCommand, uint32_t(GpuCommand::Load));  // the reset comes while it reads
      EXPECT_GE(sc_core::sc_time_stamp(), sc_core::sc_time(1, sc_core::SC_US));
      EXPECT_EQ(gpu.resets(), 1u);
      // The reset values stand: the command's late result changed nothing.
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Idle));
      EXPECT_EQ(host.read(reg::kProgram), 0u);
      EXPECT_EQ(host.read(reg::kKernelCount), 0u);
      EXPECT_EQ(host.read(reg::kImageSize), 0u);
      EXPECT_EQ(gpu.program(1), nullptr);
      // Loading again works.
      host.set(reg::kImageAddrLo, kImage);
      host.set(reg::kImageSize, static_cast<uint32_t>(std::strlen(testing::kGpuKernels)));
      host.set(reg::kCommand, uint32_t(GpuCommand::Load));
      EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Done)) << gpu.last_error();
      EXPECT_EQ(host.read(reg::kProgram), 1u);
      EXPECT_EQ(host.read(reg::kKernelCount), 3u);
    };
    Bench bench(script, lt_config());
    b = &bench;
    SynchronisingMemory memory("memory");
    bench.gpu.memory.bind(memory.socket);
    memory.memory.write(kImage, testing::kGpuKernels, std::strlen(testing::kGpuKernels));
    sc_core::sc_signal<bool> rst_line("rst_line");
    rst = &rst_line;
    bench.gpu.rst.bind(rst_line);
    // Another party watches the registers and pulls rst while the LOAD waits.
    sc_core::sc_spawn([&] {
      sc_core::wait(sc_core::sc_time(500, sc_core::SC_NS));
      EXPECT_EQ(b->gpu.registers().status(), GpuStatus::Running);  // busy with the command
      rst->write(true);
      sc_core::wait(sc_core::sc_time(10, sc_core::SC_NS));
      rst->write(false);
    });
    sc_core::sc_start();
    ASSERT_TRUE(bench.host.finished);
  });
}

}  // namespace
}  // namespace warptlm
