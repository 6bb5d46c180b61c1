// Bad launches and faulting kernels end in clear errors, never a crash or hang.
#include <gtest/gtest.h>

#include "exec_test_util.h"

namespace warptlm {
namespace {
using namespace warptlm::testing;

// Stores tid at out[tid + offset].
const char* const kStore = R"(
.visible .entry store(.param .u64 out, .param .u32 offset)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [offset];
  mov.u32 %r2, %tid.x;
  add.s32 %r3, %r2, %r1;
  mul.wide.s32 %rd2, %r3, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

LaunchSpec store_launch(uint32_t threads, size_t elements, uint32_t offset) {
  LaunchSpec l = one_buffer(1, threads, std::vector<int32_t>(elements, 0));
  l.args.push_back(KernelArg::scalar(Type::U32, offset));
  return l;
}

std::string fault_of(const std::string& ptx, const std::string& entry, LaunchSpec l,
                     ExecConfig c = {}) {
  try {
    run(ptx, entry, std::move(l), c);
  } catch (const KernelFault& f) {
    return f.what();
  }
  ADD_FAILURE() << "no KernelFault";
  return "";
}

void expect_contains(const std::string& text, const std::string& part) {
  EXPECT_NE(text.find(part), std::string::npos) << "'" << part << "' not in: " << text;
}

TEST(Faults, OutOfBoundsStoreNamesKernelPcThreadAndAddress) {
  std::string msg = fault_of(kStore, "store", store_launch(32, 16, 0));
  expect_contains(msg, "kernel 'store'");
  expect_contains(msg, "PC 0x30");
  expect_contains(msg, "st.global.u32 [%rd3], %r2");
  expect_contains(msg, "thread (16,0,0)");
  expect_contains(msg, "global address 0x");
  expect_contains(msg, "0 bytes past the end of 'out'");
}

TEST(Faults, AccessBeforeABufferFaults) {
  std::string msg = fault_of(kStore, "store", store_launch(4, 16, 0xffffffffu));
  expect_contains(msg, "thread (0,0,0)");
  expect_contains(msg, "out of bounds");
}

TEST(Faults, InBoundsRunLeavesNoFault) {
  KernelRun r = run(kStore, "store", store_launch(16, 16, 0));
  EXPECT_EQ(i32_values(r.launch.buffers[0])[15], 15);
}

TEST(Faults, MisalignedAccessFaults) {
  const char* ptx = R"(
.visible .entry mis(.param .u64 out)
{
  .reg .b64 %rd<3>;
  .reg .b32 %r<2>;
  ld.param.u64 %rd1, [out];
  add.s64 %rd2, %rd1, 2;
  mov.u32 %r1, 5;
  st.global.u32 [%rd2], %r1;
  ret;
}
)";
  std::string msg = fault_of(ptx, "mis", one_buffer(1, 1, {0, 0}));
  expect_contains(msg, "misaligned");
  expect_contains(msg, "kernel 'mis'");
}

TEST(Faults, BarrierAfterEarlyExitIsADeadlockError) {
  const char* ptx = R"(
.visible .entry early(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 40;
  @%p1 ret;
  bar.sync 0;
  ret;
}
)";
  ExecConfig c;
  c.warp_size = 8;
  std::string msg = fault_of(ptx, "early", one_buffer(1, 64, {0}), c);
  expect_contains(msg, "barrier deadlock");
  expect_contains(msg, "24 of the CTA's 64 threads have exited");
}

TEST(Faults, BarrierInsideADivergentPathIsADeadlockError) {
  const char* ptx = R"(
.visible .entry split(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  mov.u32 %r1, %tid.x;
  and.b32 %r1, %r1, 1;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra EVEN;
  bar.sync 1;
  bra.uni DONE;
EVEN:
  bar.sync 1;
DONE:
  ret;
}
)";
  std::string msg = fault_of(ptx, "split", one_buffer(1, 32, {0}));
  expect_contains(msg, "barrier deadlock");
  expect_contains(msg, "at barrier 1");
}

TEST(Faults, RunawayKernelHitsTheInstructionBudget) {
  const char* ptx = R"(
.visible .entry forever(.param .u64 out)
{
LOOP:
  bra.uni LOOP;
}
)";
  ExecConfig c;
  c.instruction_budget = 1000;
  std::string msg = fault_of(ptx, "forever", one_buffer(1, 32, {0}), c);
  expect_contains(msg, "runaway kernel");
  expect_contains(msg, "1000");
}

TEST(Faults, UnknownKernelListsTheKernels) {
  try {
    run(kStore, "nope", store_launch(1, 1, 0));
    FAIL();
  } catch (const std::invalid_argument& e) {
    expect_contains(e.what(), "no kernel named 'nope'");
    expect_contains(e.what(), "kernels: store");
  }
}

TEST(Faults, AKernelsPlainCxxNameFindsItsOneMangledEntry) {
  // nvcc and clang mangle C++ kernels: vadd(float*, int) is _Z4vaddPfi.
  const Module m = parse_ptx(ptx_module(R"(
.visible .entry _Z4vaddPfi(.param .u64 a, .param .u32 n) { ret; }
.visible .entry _Z3subPi(.param .u64 a) { ret; }
.visible .entry _Z3subPf(.param .u64 a) { ret; }
.visible .entry _Z5vadd2Pf(.param .u64 a) { ret; }
)"),
                             "mangled.ptx");
  EXPECT_EQ(resolve_kernel_name(m, "vadd"), "_Z4vaddPfi");  // not vadd2
  EXPECT_EQ(resolve_kernel_name(m, "_Z3subPi"), "_Z3subPi");
  EXPECT_EQ(find_kernel(m, "vadd2").name, "_Z5vadd2Pf");
  try {
    resolve_kernel_name(m, "sub");
    FAIL();
  } catch (const std::invalid_argument& e) {
    expect_contains(e.what(),
                    "kernel name 'sub' is overloaded in mangled.ptx (_Z3subPi, _Z3subPf)");
  }
  EXPECT_THROW(resolve_kernel_name(m, "vad"), std::invalid_argument);
}

TEST(Faults, WrongArgumentCountAndTypeAreLaunchErrors) {
  LaunchSpec few = one_buffer(1, 1, {0});
  EXPECT_THROW(run(kStore, "store", few), std::invalid_argument);
  LaunchSpec wrong = one_buffer(1, 1, {0});
  wrong.args.push_back(KernelArg::scalar(Type::F32, 0));
  try {
    run(kStore, "store", wrong);
    FAIL();
  } catch (const std::invalid_argument& e) {
    expect_contains(e.what(), "argument 1 ('offset'");
    expect_contains(e.what(), "cannot take a f32");
  }
  LaunchSpec array_to_scalar = one_buffer(1, 1, {0});
  array_to_scalar.args.push_back(KernelArg::buffer_arg(0));
  EXPECT_THROW(run(kStore, "store", array_to_scalar), std::invalid_argument);
}

TEST(Faults, BadGeometryAndConfigAreErrors) {
  EXPECT_THROW(run(kStore, "store", store_launch(2048, 1, 0)), std::invalid_argument);
  ExecConfig c;
  c.warp_size = 48;
  EXPECT_THROW(run(kStore, "store", store_launch(1, 1, 0), c), std::invalid_argument);
  c.warp_size = 128;
  EXPECT_THROW(run(kStore, "store", store_launch(1, 1, 0), c), std::invalid_argument);
}

std::string launch_error_of(const std::string& ptx, const std::string& entry, LaunchSpec l,
                            ExecConfig c = {}) {
  try {
    run(ptx, entry, std::move(l), c);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "no launch error";
  return "";
}

const char* const kForever = R"(
.visible .entry forever(.param .u64 out)
{
LOOP:
  bra.uni LOOP;
}
)";

TEST(Faults, ASpinningWarpIsStoppedByTheWatchdog) {
  // The default: 2^20 warp instructions without a store, atomic, barrier or exit.
  std::string msg = fault_of(kForever, "forever", one_buffer(1, 32, {0}));
  expect_contains(msg, "no progress: the warp issued 1048577 warp instructions in a row");
  expect_contains(msg, "watchdog");
  ExecConfig c;
  c.watchdog = 100;
  expect_contains(fault_of(kForever, "forever", one_buffer(1, 32, {0}), c),
                  "issued 101 warp instructions");
  // Off: the instruction budget still ends it.
  c.watchdog = 0;
  c.instruction_budget = 5000;
  expect_contains(fault_of(kForever, "forever", one_buffer(1, 32, {0}), c),
                  "runaway kernel: more than 5000");
}

TEST(Faults, StoresAreProgressAndTheAutomaticBudgetEndsALoopThatStores) {
  // 400,000 iterations of 4 instructions with a store each: 1.6M warp
  // instructions, past the watchdog's 2^20 but never 2^20 without progress.
  const char* counted = R"(
.visible .entry counted(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  .reg .pred %p;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 0;
LOOP:
  add.u32 %r1, %r1, 1;
  st.global.u32 [%rd1], %r1;
  setp.lt.u32 %p, %r1, 400000;
  @%p bra LOOP;
  ret;
}
)";
  KernelRun r = run(counted, "counted", one_buffer(1, 1, {0}));
  EXPECT_EQ(i32_values(r.launch.buffers[0])[0], 400000);
  // Forever, storing: one warp's automatic budget is 2^24 warp instructions.
  const char* stores_forever = R"(
.visible .entry stores_forever(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 7;
LOOP:
  st.global.u32 [%rd1], %r1;
  bra.uni LOOP;
}
)";
  expect_contains(fault_of(stores_forever, "stores_forever", one_buffer(1, 1, {0})),
                  "runaway kernel: more than 16777216 warp instructions");
}

TEST(Faults, FunctionalRunsRefuseWhatTheSmCannotHold) {
  // The same limits and words as the timing model's GPU (SmLimits: 32768
  // bytes of shared memory, 1024 threads, 16384 registers by default).
  const char* big_tile = R"(
.visible .entry big_tile(.param .u64 out)
{
  .shared .align 4 .b8 tile[40000];
  ret;
}
)";
  expect_contains(launch_error_of(big_tile, "big_tile", one_buffer(1, 32, {0})),
                  "launch: kernel 'big_tile' with block (32,1,1): a CTA needs 40000 bytes of "
                  "shared memory (40000 static + 0 dynamic), an SM has 32768");
  LaunchSpec dynamic = store_launch(32, 32, 0);
  dynamic.shared_bytes = 0x80000000u;
  expect_contains(launch_error_of(kStore, "store", dynamic),
                  "2147483648 bytes of shared memory (0 static + 2147483648 dynamic)");
  ExecConfig c;
  c.sm.threads = 512;
  expect_contains(launch_error_of(kStore, "store", store_launch(1024, 1024, 0), c),
                  "a CTA needs 32 warp slots");
  // Warp slots are the timing model's scheduler's: with threads to spare,
  // narrow warps run functionally however few slots sm.warps gives.
  c = ExecConfig{};
  c.sm.warps = 4;
  EXPECT_NO_THROW(run(kStore, "store", store_launch(256, 256, 0), c));
  c = ExecConfig{};
  c.sm.registers = 1024;
  expect_contains(launch_error_of(kStore, "store", store_launch(1024, 1024, 0), c),
                  "a CTA needs 8192 registers (8 per thread x 1024 threads), an SM has 1024");
}

TEST(Faults, AKernelFrameOverTheLocalLimitIsALaunchError) {
  // Refused before any thread runs, so no CTA is blamed (a fault used to name
  // CTA (1,1,1) of a (2,1,1) grid).
  const char* huge_frame = R"(
.visible .entry huge_frame(.param .u64 out)
{
  .local .align 4 .b8 big[1073741824];
  .reg .b32 %r<2>;
  mov.u32 %r1, 7;
  st.local.u32 [big+1073741820], %r1;
  ret;
}
)";
  expect_contains(launch_error_of(huge_frame, "huge_frame", one_buffer(2, 1, {0})),
                  "a thread needs 1073741824 bytes of local memory for the kernel's .local "
                  "variables, the limit is 524288 per thread");
}

TEST(Faults, DeviceMemoryHasACapacity) {
  const char* huge_global = R"(
.global .align 4 .b8 g[20000000000];
.visible .entry k(.param .u64 out)
{
  ret;
}
)";
  expect_contains(launch_error_of(huge_global, "k", one_buffer(1, 1, {0})),
                  "device memory: 'module .global variables' needs 20000000000 bytes, "
                  "17179869184 of the device's 17179869184 bytes (16 GiB) are free");
}

TEST(Faults, AFarFrameOffsetIsAMemoryFaultNotALibraryError) {
  const char* far = R"(
.visible .entry far(.param .u64 out)
{
  .local .align 4 .b8 d[16];
  .reg .b32 %r<2>;
  mov.u32 %r1, 7;
  st.local.u32 [d+9223372036854775807], %r1;
  ret;
}
)";
  std::string msg = fault_of(far, "far", one_buffer(1, 1, {0}));
  expect_contains(msg, "memory fault: misaligned 4-byte local access at 0x7fffffffffffffff");
}

TEST(Faults, TheKernelListOfAnUnknownNameIsBounded) {
  std::string ptx;
  for (int i = 0; i < 15; ++i)
    ptx += ".visible .entry k" + std::to_string(i) + "()\n{\n  ret;\n}\n";
  LaunchSpec l;
  l.grid = l.block = {1, 1, 1};
  std::string msg = launch_error_of(ptx, "nope", l);
  expect_contains(msg, "(kernels: k0, k1, k2, k3, k4, k5, k6, k7, k8, k9 and 5 more)");
}

}  // namespace
}  // namespace warptlm
