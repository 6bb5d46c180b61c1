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

}  // namespace
}  // namespace warptlm
