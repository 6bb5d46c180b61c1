// The reconvergence schemes' side tables seen end to end: one warp, one
// scheduler. Each CCT access of sorted_list (sm.cct_access_cycles) and each
// RT access of mp_ipdom (sm.rt_access_cycles) holds the warp for that many
// cycles after the issue that made it, counted as control stalls; the paths
// issued stay the same, only later.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <new>
#include <string>
#include <utility>
#include <vector>

#include "behaviour_support.h"
#include "common/systemc_child.h"
#include "exec/run_stats.h"

namespace warptlm::behaviour {
namespace {

using testing::in_child_process;

// Two nested forward divergent branches and three paths meeting at J:
// lanes 0-15 go to A, 16-23 to B, 24-31 run the fall-through.
const char* const kNested = R"(
.visible .entry nested()
{
  .reg .b32 %r<5>;
  .reg .pred %p<2>;
  mov.u32 %r0, %tid.x;
  setp.lt.u32 %p0, %r0, 16;
  @%p0 bra A;
  setp.lt.u32 %p1, %r0, 24;
  @%p1 bra B;
  mov.u32 %r1, 1;
  bra.uni J;
B:
  mov.u32 %r2, 2;
  bra.uni J;
A:
  mov.u32 %r3, 3;
J:
  mov.u32 %r4, 4;
  exit;
}
)";

// An if-else whose two sides reconverge at J: lanes 0-15 run A, 16-31 the
// fall-through.
const char* const kIfElse = R"(
.visible .entry if_else()
{
  .reg .b32 %r<5>;
  .reg .pred %p<1>;
  mov.u32 %r0, %tid.x;
  setp.lt.u32 %p0, %r0, 16;
  @%p0 bra A;
  mov.u32 %r1, 1;
  mov.u32 %r2, 2;
  bra.uni J;
A:
  mov.u32 %r3, 3;
J:
  mov.u32 %r4, 4;
  exit;
}
)";

// What a run reports, brought back from the child process that ran it (SystemC
// simulates once per process) through memory shared with it.
struct Measured {
  uint64_t cycles = 0, slot_control = 0;
  uint64_t table_cycles = 0, cct_inserts = 0, cct_extracts = 0, rt_accesses = 0;
};

using PathOrder = std::vector<std::pair<Pc, LaneMask>>;

// Runs `ptx` on one warp of 32 threads under `scheme` with the given table
// costs; in the child, checks the paths issued (pc, mask) and their issue
// cycles relative to the first issue.
Measured measure(const char* ptx, const std::string& entry, const std::string& scheme,
                 unsigned cct_cycles, unsigned rt_cycles, const PathOrder& order,
                 const std::vector<uint64_t>& cycles) {
  void* mem =
      mmap(nullptr, sizeof(Measured), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  EXPECT_NE(mem, MAP_FAILED);
  if (mem == MAP_FAILED) return {};
  Measured* shared = new (mem) Measured{};
  in_child_process([&] {
    PlatformConfig c = quiet_config();
    c.reconvergence = scheme;
    // Each cost is an option of its own scheme: under another one it stays
    // at its default (validate() rejects anything else).
    if (scheme == "sorted_list") c.sm.cct_access_cycles = cct_cycles;
    if (scheme == "mp_ipdom") c.sm.rt_access_cycles = rt_cycles;
    Program program = finalize(parse_ptx(kPtxHeader + ptx, entry + ".ptx"));
    LaunchSpec launch = launch_of(1, 32);
    TraceBuffer trace;
    RunStats run;
    Result r;
    r.stats = run_timing(program, entry, launch, c, &run, &trace);
    r.trace = std::move(trace.records);
    PathOrder issued;
    for (const TraceRecord& t : r.trace) issued.push_back({t.pc, t.mask});
    EXPECT_EQ(issued, order);
    EXPECT_EQ(relative_issue_cycles(r, 0), cycles);
    *shared = Measured{stat(r, "cycles"),      stat(r, "sm.slot_control"), run.table_cycles,
                       run.own("cct_inserts"), run.own("cct_extracts"),    run.own("rt_accesses")};
  });
  const Measured m = *shared;
  munmap(mem, sizeof(Measured));
  return m;
}

TEST(TableCosts, SortedListHoldsTheWarpForEachCctAccess) {
  // The sorted list's order (tests/simt/test_table_timing.cc for the CCS
  // rules): all lanes issue 0x00-0x10; the branch at 0x10 leaves 16-31 at
  // 0x18 (A in HCT1); the branch at 0x20 gives three valid paths, 0x28
  // (24-31) < B 0x38 (16-23) < A 0x48: A is inserted into the CCT (1
  // access). 0x30 jumps to J: HCT1 = J follows the CCT's A, the sorter
  // swaps them (2). B runs and jumps to J behind A; A falls into J where
  // HCT1 waits: one valid path, so the CCT's J (24-31) is extracted (1),
  // and all lanes run J. 4 accesses: 2 inserts, 2 extracts.
  const LaneMask all = 0xffffffffu, lo = 0x0000ffffu, b = 0x00ff0000u, c = 0xff000000u;
  const PathOrder order{{0x00, all},   {0x08, all}, {0x10, all}, {0x18, b | c},
                        {0x20, b | c}, {0x28, c},   {0x30, c},   {0x38, b},
                        {0x40, b},     {0x48, lo},  {0x50, all}, {0x58, all}};
  // Zero cost, by the scoreboard (SP latency 4): mov at 0, setp reads r0 at
  // 4, the branch reads p0 at 8, setp at 9, branch at 13 (p1), then one
  // independent instruction per cycle, 14..20.
  const Measured free = measure(kNested, "nested", "sorted_list", 0, 0, order,
                                {0, 4, 8, 9, 13, 14, 15, 16, 17, 18, 19, 20});
  EXPECT_EQ(free.table_cycles, 0u);
  EXPECT_EQ(free.cct_inserts, 2u);  // counted, not charged
  // One cycle per access: 0x28 waits 1 after the branch at 13, B 2 after the
  // jump at 15, J 1 after A at 20; nothing in between waits on a register,
  // so every later issue moves by the holds before it, the end by all 4.
  const Measured one = measure(kNested, "nested", "sorted_list", 1, 0, order,
                               {0, 4, 8, 9, 13, 15, 16, 19, 20, 21, 23, 24});
  EXPECT_EQ(one.cct_inserts, 2u);
  EXPECT_EQ(one.cct_extracts, 2u);
  EXPECT_EQ(one.table_cycles, 4u);
  EXPECT_EQ(one.cycles - free.cycles, 4u);
  EXPECT_EQ(one.slot_control - free.slot_control, 4u);
  // Two cycles per access: 8.
  const Measured two = measure(kNested, "nested", "sorted_list", 2, 0, order,
                               {0, 4, 8, 9, 13, 16, 17, 22, 23, 24, 27, 28});
  EXPECT_EQ(two.table_cycles, 8u);
  EXPECT_EQ(two.cycles - free.cycles, 8u);
  // The RT setting is not sorted_list's: rejected.
  PlatformConfig with_rt = quiet_config();
  with_rt.reconvergence = "sorted_list";
  with_rt.sm.rt_access_cycles = 5;
  EXPECT_THROW(validate(with_rt), std::invalid_argument);
}

TEST(TableCosts, MpIpdomHoldsTheWarpForEachRtAccess) {
  // The branch at 0x10 writes the RT entry for J (1 access); A (0-15) is ST
  // slot 0, the fall-through (16-31) slot 1, and round-robin starts after
  // the issuing slot: 0x18 (slot 1), then A at 0x30, which falls into J and
  // arrives (1); 0x20 and 0x28, whose jump arrives last and turns the entry
  // back into the whole warp's split (1). 3 accesses.
  const LaneMask all = 0xffffffffu, lo = 0x0000ffffu, hi = 0xffff0000u;
  const PathOrder order{{0x00, all}, {0x08, all}, {0x10, all}, {0x18, hi}, {0x30, lo},
                        {0x20, hi},  {0x28, hi},  {0x38, all}, {0x40, all}};
  const Measured free =
      measure(kIfElse, "if_else", "mp_ipdom", 0, 0, order, {0, 4, 8, 9, 10, 11, 12, 13, 14});
  EXPECT_EQ(free.rt_accesses, 3u);
  EXPECT_EQ(free.table_cycles, 0u);
  // One cycle per access, after the issues at 8, A's (11) and the jump's (14).
  const Measured one =
      measure(kIfElse, "if_else", "mp_ipdom", 0, 1, order, {0, 4, 8, 10, 11, 13, 14, 16, 17});
  EXPECT_EQ(one.rt_accesses, 3u);
  EXPECT_EQ(one.table_cycles, 3u);
  EXPECT_EQ(one.cycles - free.cycles, 3u);
  EXPECT_EQ(one.slot_control - free.slot_control, 3u);
  // The CCT setting is not mp_ipdom's: rejected.
  PlatformConfig with_cct = quiet_config();
  with_cct.reconvergence = "mp_ipdom";
  with_cct.sm.cct_access_cycles = 5;
  EXPECT_THROW(validate(with_cct), std::invalid_argument);
}

TEST(TableCosts, StackSchemeHasNoTableCosts) {
  // ipdom: A (0-15) first, then the fall-through, at E both meet; the
  // default costs (1 each) are not charged: no control stall anywhere.
  const LaneMask all = 0xffffffffu, lo = 0x0000ffffu, hi = 0xffff0000u;
  const PathOrder order{{0x00, all}, {0x08, all}, {0x10, all}, {0x30, lo}, {0x18, hi},
                        {0x20, hi},  {0x28, hi},  {0x38, all}, {0x40, all}};
  const std::vector<uint64_t> cycles{0, 4, 8, 9, 10, 11, 12, 13, 14};
  const Measured run = measure(kIfElse, "if_else", "ipdom", 0, 0, order, cycles);
  EXPECT_EQ(run.table_cycles, 0u);
  // Setting either cost under ipdom is rejected.
  PlatformConfig with_rt = quiet_config();
  with_rt.sm.rt_access_cycles = 4;
  EXPECT_THROW(validate(with_rt), std::invalid_argument);
}

}  // namespace
}  // namespace warptlm::behaviour
