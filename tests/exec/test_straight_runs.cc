// Straight runs (GridRunner's fast path through the instructions after which
// the scheme only moves a path's pc) change nothing a user sees: a traced run, which issues one
// instruction at a time, and an untraced one give the same outputs,
// statistics and faults, under every quantum.
#include <gtest/gtest.h>

#include "exec/trace.h"
#include "exec_test_util.h"
#include "simt/ipdom_stack.h"

namespace warptlm {
namespace {
using namespace warptlm::testing;

// Each warp loops (8 - warp index) * 5 times through arithmetic and a
// branch that splits its even and odd lanes, then takes tickets from a
// global counter: out[2 * i] = ticket, out[2 * i + 1] = the arithmetic, for
// global thread index i.
// The tickets record the order in which the warps got there, so they change
// if a warp runs more or fewer instructions per turn than its quantum.
const char* const kOrder = R"(
.visible .entry order(.param .u64 out, .param .u64 counter)
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [counter];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 5;
  mov.u32 %r3, 8;
  sub.u32 %r3, %r3, %r2;
  mul.lo.u32 %r3, %r3, 5;
  mov.u32 %r4, 0;
  mov.u32 %r5, %r1;
LOOP:
  mul.lo.u32 %r5, %r5, 3;
  add.u32 %r5, %r5, %r4;
  and.b32 %r6, %r1, 1;
  setp.eq.u32 %p2, %r6, 0;
  @%p2 bra EVEN;
  xor.b32 %r5, %r5, 7;
  bra.uni NEXT;
EVEN:
  add.u32 %r5, %r5, 11;
NEXT:
  add.u32 %r4, %r4, 1;
  setp.lt.u32 %p1, %r4, %r3;
  @%p1 bra LOOP;
  atom.global.add.u32 %r7, [%rd2], 1;
  mov.u32 %r8, %ctaid.x;
  mov.u32 %r9, %ntid.x;
  mad.lo.u32 %r10, %r8, %r9, %r1;
  mul.wide.u32 %rd3, %r10, 8;
  add.s64 %rd4, %rd1, %rd3;
  st.global.v2.u32 [%rd4], {%r7, %r5};
  ret;
}
)";

// A warp-uniform loop that never stores: only the watchdog or the budget ends it.
const char* const kSpin = R"(
.visible .entry spin(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
LOOP:
  add.u32 %r2, %r2, %r1;
  setp.ne.u32 %p1, %r1, 1000000;
  @%p1 bra LOOP;
  ret;
}
)";

// Stores to global memory for its first 30 iterations (progress), then
// spins without storing until the watchdog ends it; lane 5 of each warp then
// loads past the end of `out` when `oob` is set.
const char* const kStoreThenSpin = R"(
.visible .entry store_spin(.param .u64 out, .param .u32 oob)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r6, [oob];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  mov.u32 %r2, 0;
LOOP:
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, 30;
  @%p1 st.global.u32 [%rd3], %r2;
  and.b32 %r3, %r1, 31;
  setp.eq.u32 %p2, %r3, 5;
  setp.ne.u32 %p3, %r6, 0;
  and.pred %p2, %p2, %p3;
  selp.u32 %r4, 4096, 0, %p2;
  cvt.u64.u32 %rd4, %r4;
  add.s64 %rd5, %rd3, %rd4;
  ld.global.u32 %r5, [%rd5];
  bra.uni LOOP;
}
)";

LaunchSpec order_launch() {
  LaunchSpec l;
  l.grid = {2, 1, 1};
  l.block = {128, 1, 1};
  l.buffers.push_back(i32_buffer("out", std::vector<int32_t>(2 * 128 * 2, 0)));
  l.buffers.push_back(i32_buffer("counter", {0}));
  l.args.push_back(KernelArg::buffer_arg(0));
  l.args.push_back(KernelArg::buffer_arg(1));
  return l;
}

struct Outcome {
  std::string stats;  // RunStats::to_json(), dumped
  std::vector<int32_t> out;
  std::string fault;
};

Outcome run_once(const std::string& ptx, const std::string& entry, LaunchSpec launch,
                 const ExecConfig& config, bool traced) {
  Program p = finalize(parse_ptx(ptx_module(ptx), "test.ptx"));
  TraceBuffer trace;
  Outcome o;
  try {
    o.stats = run_functional(p, entry, launch, config, traced ? &trace : nullptr).to_json().dump();
    o.out = i32_values(launch.buffers[0]);
  } catch (const KernelFault& f) {
    o.fault = f.what();
  }
  if (traced && o.fault.empty()) {
    EXPECT_FALSE(trace.records.empty());
  }
  return o;
}

void expect_same(const std::string& ptx, const std::string& entry, const LaunchSpec& launch,
                 const ExecConfig& config) {
  const Outcome traced = run_once(ptx, entry, launch, config, true);
  const Outcome straight = run_once(ptx, entry, launch, config, false);
  EXPECT_EQ(traced.stats, straight.stats);
  EXPECT_EQ(traced.out, straight.out);
  EXPECT_EQ(traced.fault, straight.fault);
}

TEST(StraightRuns, OutputsAndStatisticsMatchOneInstructionAtATimeUnderEveryQuantum) {
  for (const char* scheme : {"ipdom", "minority_first", "dual_path"}) {
    for (unsigned quantum : {1u, 2u, 3u, 7u, 64u, 1000u}) {
      SCOPED_TRACE(std::string(scheme) + ", quantum " + std::to_string(quantum));
      ExecConfig c;
      c.reconvergence = scheme;
      c.quantum = quantum;
      expect_same(kOrder, "order", order_launch(), c);
    }
  }
}

TEST(StraightRuns, TheTicketsShowTheQuantum) {
  // Not a tautology of the test above: the quantum decides the warps' order,
  // so the two runs agreeing means something only if it shows in the output.
  ExecConfig one, many;
  one.quantum = 1;
  many.quantum = 1000;
  const Outcome a = run_once(kOrder, "order", order_launch(), one, false);
  const Outcome b = run_once(kOrder, "order", order_launch(), many, false);
  ASSERT_TRUE(a.fault.empty()) << a.fault;
  ASSERT_TRUE(b.fault.empty()) << b.fault;
  EXPECT_NE(a.out, b.out);
  // quantum 1000: each warp finishes its loop in one turn, so the warps take
  // their tickets in warp order; quantum 1: the shortest loop (the last
  // warp's) ends first.
  for (unsigned w = 0; w < 8; ++w) EXPECT_EQ(b.out[2 * 32 * w], int32_t(32 * w)) << "warp " << w;
  EXPECT_EQ(a.out[2 * 32 * 3], 0);
}

TEST(StraightRuns, WatchdogAndBudgetFaultAtTheSameInstruction) {
  for (unsigned quantum : {1u, 5u, 64u}) {
    SCOPED_TRACE("quantum " + std::to_string(quantum));
    ExecConfig watchdog;
    watchdog.quantum = quantum;
    watchdog.watchdog = 101;
    const LaunchSpec l = one_buffer(1, 64, {0});
    expect_same(kSpin, "spin", l, watchdog);
    EXPECT_NE(run_once(kSpin, "spin", l, watchdog, false).fault.find("no progress"),
              std::string::npos);

    ExecConfig budget;
    budget.quantum = quantum;
    budget.watchdog = 0;
    budget.instruction_budget = 333;
    expect_same(kSpin, "spin", l, budget);
    EXPECT_NE(run_once(kSpin, "spin", l, budget, false).fault.find("runaway kernel"),
              std::string::npos);
  }
}

TEST(StraightRuns, MemoryInstructionsCountAsProgressAndFaultAtTheirLane) {
  for (unsigned quantum : {1u, 4u, 64u}) {
    SCOPED_TRACE("quantum " + std::to_string(quantum));
    ExecConfig c;
    c.quantum = quantum;
    c.watchdog = 200;
    for (uint32_t oob : {0u, 1u}) {
      LaunchSpec l = one_buffer(1, 64, std::vector<int32_t>(64, 0));
      l.args.push_back(KernelArg::scalar(Type::U32, oob));
      expect_same(kStoreThenSpin, "store_spin", l, c);
      const std::string fault = run_once(kStoreThenSpin, "store_spin", l, c, false).fault;
      // The stores reset the watchdog: it ends the run only after the last of them.
      EXPECT_NE(fault.find(oob ? "out of bounds" : "no progress: the warp issued 201 "),
                std::string::npos)
          << fault;
      if (oob) {
        EXPECT_NE(fault.find("lane 5"), std::string::npos) << fault;
      }
    }
  }
}

TEST(StraightRuns, IpdomMovesOnlyTheTopPathAndPopsAtItsReconvergencePc) {
  IpdomStack s;
  s.reset(0x0, 0xf);
  Pc stop = 0;
  ASSERT_TRUE(s.straight_run(0, &stop));
  EXPECT_EQ(stop, kExitPc);  // the kernel's own entry never reconverges
  // A divergent branch at 0x10 to 0x40, reconverging at 0x80.
  ControlEvent branch;
  branch.kind = Control::Branch;
  branch.active = 0xf;
  branch.executed = 0x3;
  branch.next = 0x18;
  branch.target = 0x40;
  branch.reconv = 0x80;
  s.advance(0, branch);
  ASSERT_EQ(s.entries().size(), 3u);
  ASSERT_TRUE(s.straight_run(2, &stop));
  EXPECT_EQ(stop, 0x80u);
  EXPECT_FALSE(s.straight_run(1, &stop));  // not the top: it does not run
  s.move_straight(2, 0x60);
  EXPECT_EQ(s.entries().back().pc, 0x60u);
  EXPECT_EQ(s.entries().size(), 3u);
  s.move_straight(2, 0x80);  // reached its IPDOM: the fall-through path runs next
  ASSERT_EQ(s.entries().size(), 2u);
  EXPECT_EQ(s.entries().back().pc, 0x18u);
  EXPECT_EQ(s.entries().back().mask, 0xcu);
  EXPECT_THROW(s.move_straight(0, 0x20), std::logic_error);
}

}  // namespace
}  // namespace warptlm
