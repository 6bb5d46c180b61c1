// TLM error responses that become kernel faults: one line of a coalesced
// load answered with an error names the lowest lane whose access touched that
// line (its thread and its address), not the instruction's first lane; an
// error answering a write-back L1's flush names the line and the SM.
#include <gtest/gtest.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstring>
#include <stdexcept>
#include <string>

#include "common/systemc_child.h"
#include "common/tlm_memory_target.h"
#include "gpu/gpu.h"
#include "gpu_test_kernels.h"
#include "script_host.h"

namespace warptlm {
namespace {

using testing::in_child_process;
using testing::ScriptHost;

// Lanes 0-4 read in[tid]; lanes 5-31 read 64 bytes further on (in + 64 +
// 4 * tid). With 64-byte L1 lines and in = 0x10000 the load touches three
// lines: 0x10000 (lanes 0-4: 0x10000..0x10013), 0x10040 (lanes 5-15:
// 0x10054..0x1007f) and 0x10080 (lanes 16-31: 0x10080..0x100bf).
const char* const kShiftedLoad = R"(.version 7.0
.target sm_70
.address_size 64

.visible .entry shifted(.param .u64 in)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<7>;
  ld.param.u64 %rd1, [in];
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 5;
  selp.u32 %r2, 64, 0, %p1;
  mul.wide.u32 %rd3, %r1, 4;
  cvt.u64.u32 %rd4, %r2;
  add.s64 %rd5, %rd3, %rd4;
  add.s64 %rd6, %rd1, %rd5;
  ld.global.u32 %r3, [%rd6];
  ret;
}
)";

// A b_transport-only memory at 0x10000 (64 KB) that answers every timing
// access touching [fail_lo, fail_hi) with an address error; debug
// (functional) accesses work everywhere.
struct PartlyFailingMemory : sc_core::sc_module {
  explicit PartlyFailingMemory(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
    socket.register_b_transport(this, &PartlyFailingMemory::b_transport);
    socket.register_transport_dbg(this, &PartlyFailingMemory::transport_dbg);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    memory.execute(p);
    const uint64_t a = p.get_address();
    if (a < fail_hi && a + p.get_data_length() > fail_lo && (p.is_write() || !fail_writes_only)) {
      p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      ++failed;
    }
    delay += sc_core::sc_time(50, sc_core::SC_NS);
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& p) { return memory.debug(p); }
  tlm_utils::simple_target_socket<PartlyFailingMemory> socket;
  testing::TestMemory memory{0x10000, 0x10000};
  uint64_t fail_lo = 0x10040, fail_hi = 0x10080;  // the middle line of the load
  bool fail_writes_only = false;
  unsigned failed = 0;
};

// Runs kernel `entry` of `ptx` (one CTA of 32 threads, its one parameter the
// address 0x10000) on a GPU with `config` bound to `memory`; the launch must
// fault. Returns the fault.
KernelFault run_faulting(const char* ptx, const char* entry, const PlatformConfig& config,
                         PartlyFailingMemory& memory) {
  const uint64_t in = 0x10000, params = 0x10800;
  Gpu g("gpu", config);
  uint32_t handle = 0;
  auto script = [&](ScriptHost& host) {
    host.set(reg::kIrqEnable, kIrqMask);
    host.set(reg::kProgram, handle);
    host.set(reg::kKernel,
             static_cast<uint32_t>(g.program(handle)->module.find_function(entry)->begin));
    host.set(reg::kGridX, 1);
    host.set(reg::kBlockX, 32);
    host.set(reg::kParamAddrLo, static_cast<uint32_t>(params));
    host.set(reg::kParamAddrHi, 0);
    host.set(reg::kLaunch, 1);
    sc_core::wait(g.launch_finished_event());
    EXPECT_EQ(host.read(reg::kStatus), uint32_t(GpuStatus::Fault));
  };
  sc_core::sc_signal<bool> irq("irq");
  g.irq.bind(irq);
  ScriptHost host("host", script);
  host.socket.bind(g.control);
  g.memory.bind(memory.socket);
  handle = g.load_program(testing::program_of(ptx));
  memory.memory.write(params, &in, 8);
  sc_core::sc_start();
  if (!g.fault()) throw std::logic_error("the launch did not fault");
  return *g.fault();
}

TEST(GpuFault, AnErrorResponseNamesTheLowestLaneTouchingTheFailingLine) {
  in_child_process([] {
    PartlyFailingMemory memory("memory");
    const KernelFault f = run_faulting(kShiftedLoad, "shifted", preset("small"), memory);
    // Only the middle line's read failed (the L2 fills it from memory once).
    EXPECT_EQ(memory.failed, 1u);
    const std::string what = f.what();
    // Lane 5 is the lowest lane in line 0x10040; its address is in + 64 + 4 * 5.
    EXPECT_NE(what.find("thread (5,0,0) of CTA (0,0,0) (warp 0, lane 5)"), std::string::npos)
        << what;
    EXPECT_NE(what.find("the memory system answered an error for the load of the line at "
                        "0x10040 (lane 5's address 0x10054)"),
              std::string::npos)
        << what;
    ASSERT_TRUE(f.site.has_thread);
    EXPECT_EQ(f.site.lane, 5u);
    EXPECT_EQ(f.site.tid.x, 5u);
    ASSERT_TRUE(f.site.has_address);
    EXPECT_EQ(f.site.address, 0x10054u);
  });
}

// Each of the 32 threads stores its index to in[tid]: two whole 64-byte lines.
const char* const kStoreLines = R"(.version 7.0
.target sm_70
.address_size 64

.visible .entry store_lines(.param .u64 in)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [in];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
)";

TEST(GpuFault, AnErrorAnsweringAnL1FlushWriteIsAKernelFault) {
  in_child_process([] {
    // A write-back L1 keeps both lines dirty until the kernel ends; a
    // write-through L2 forwards the flush writes to memory and passes its
    // answer back, which is an error for the second line (0x10040).
    PlatformConfig c = preset("small");
    c.memory.l1.write_policy = "write_back";
    c.memory.l2.write_policy = "write_through";
    PartlyFailingMemory memory("memory");
    memory.fail_writes_only = true;
    const KernelFault f = run_faulting(kStoreLines, "store_lines", c, memory);
    EXPECT_EQ(memory.failed, 1u);
    EXPECT_EQ(std::string(f.what()),
              "kernel 'store_lines': memory fault: the memory system answered an error for the "
              "write-back of the L1 line at 0x10040 (SM 0)");
    EXPECT_FALSE(f.site.has_thread);  // the write belongs to no instruction
    ASSERT_TRUE(f.site.has_address);
    EXPECT_EQ(f.site.address, 0x10040u);
    EXPECT_EQ(f.site.kernel, "store_lines");
  });
}

}  // namespace
}  // namespace warptlm
