// The statistics every scheme keeps (ReconvergenceCounters) on Collange &
// Brunie's `if (A && B) C; else D; E;` (threads 0 ABCE, 1 ADE, 2 and 3 ABDE),
// on a straight-line warp, and on a CFG where paired-path comparison meets
// before the IPDOM. Each unit issues its first issuable path, as the
// functional executor does, and the issuable paths are sampled at each issue.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "simt/ppc_stack.h"
#include "simt/reconvergence_unit.h"
#include "test_traversal_programs.h"

namespace warptlm {
namespace {

using namespace traversal_test;

struct Tally {
  uint64_t issues = 0, paths = 0;
  unsigned max_paths = 0;
};

Tally run_sampled(ReconvergenceUnit& u, const traversal_test::Program& program) {
  Tally t;
  std::vector<Path> paths;
  while (!u.finished() && t.issues < 1000) {
    paths.clear();
    u.issuable(paths);
    ++t.issues;
    t.paths += paths.size();
    t.max_paths = std::max(t.max_paths, static_cast<unsigned>(paths.size()));
    u.advance(paths.front().split, program(paths.front().pc, paths.front().mask));
  }
  EXPECT_TRUE(u.finished());
  return t;
}

// collange_and with E's first instruction a Reconverge marker, as the
// finalizer lays it out for ppc_explicit (both branches reconverge at 0x40).
ControlEvent collange_marked(Pc pc, LaneMask m) {
  ControlEvent e = collange_and(pc, m);
  e.marker = pc == 0x40;
  return e;
}

struct Expected {
  const char* scheme;
  uint64_t issues, reconvergences, early;
  unsigned peak;
  uint64_t paths;
  unsigned max_paths;
  unsigned st = 0, rt = 0, hct = 0, cct = 0;
};

// Derived by hand (0x08 sends lane 1 to D, 0x18 sends lanes 2, 3 to D and
// lane 0 to C; both branches' IPDOM is E = 0x40; blocks are two
// instructions each, so a run without a shared D issues 12, with one 10):
// - ipdom: D(0010), then B; B's branch has the entry's own IPDOM, so its
//   halves replace it; D(1100) and C(0001) pop into the base entry at E:
//   three paths meet there, 2 merges. Stack: base + two halves = 3.
// - dual_path: pairs {D(0010), B(1101)} then {D(1100), C(0001)}; the inner
//   pair pops, then the outer (each pop one merge, at E). Issuable: two
//   paths while both sides of the top pair run: D's two instructions twice
//   (8) plus eight single-path issues = 16. Stack: base, outer, inner = 3.
// - ppc_explicit: B before D (smaller pc), C before D(1100); C parks at the
//   marker, D(1100) meets it there (merge 1, at the IPDOM), then the
//   parent's D(0010) meets the merged side there (merge 2). One path at a
//   time, stack 3.
// - ppc_implicit (raw PCs: no layout ranks given): the same order without
//   markers: B (0x10 < 0x30), C (0x20 < 0x30), C jumps to 0x40 and D(1100)
//   (0x30) runs to 0x40: equal, merge 1 at the IPDOM; the parent's D(0010)
//   runs to 0x40: merge 2. 12 issues, stack 3.
// - mp_ipdom: splits D(0010) slot 0, B slot 1, issued round-robin from the
//   slot after the last issuer: B, D, B (diverges into D(1100) slot 1,
//   C slot 2: 3 splits), C, D(0010)@0x38 arrives first at the RT entry, then
//   D(1100)@0x30, C@0x28 arrives (merge 1), D(1100)@0x38 arrives (merge 2).
//   Paths per issue 1,1,2,2,2,3,3,2,2,1,1,1 = 21; ST peak 3, RT peak 1.
// - minority_first: D(0010) (one lane) first with B saved; then C(0001) runs
//   with D(1100) saved; both arrivals after D(0010)'s are merges at E. At
//   most one saved path.
// - breadth_first: queue B, D(0010); B's taken half D(1100) meets the queued
//   D(0010) in the same join: early merge at 0x30 (before E); D(1110) parks
//   at E, C arrives: merge 2 at E. D runs once: 10 issues; queue peak 2.
// - sorted_list: the CCS merges D(1100) with HCT1's D(0010) at 0x30 (early:
//   their innermost branch reconverges at E), then D(1110) falls into E where
//   C waits (at the IPDOM). HCT peak 2, CCT 0.
// - min_pc: the same two meetings: lanes 2, 3 reach 0x30 where lane 1
//   waits (early), then D reaches 0x40 where lane 0 waits; two groups at most.
// clang-format off
const Expected kCollange[] = {
    {"ipdom", 12, 2, 0, 3, 12, 1},
    {"dual_path", 12, 2, 0, 3, 16, 2},
    {"ppc_explicit", 12, 2, 0, 3, 12, 1},
    {"ppc_implicit", 12, 2, 0, 3, 12, 1},
    {"mp_ipdom", 12, 2, 0, 4, 21, 3, 3, 1},
    {"minority_first", 12, 2, 0, 1, 12, 1},
    {"breadth_first", 10, 2, 1, 2, 10, 1},
    {"sorted_list", 10, 2, 1, 2, 10, 1, 0, 0, 2, 0},
    {"min_pc", 10, 2, 1, 2, 10, 1},
};
// clang-format on

// The schemes that run hand-made events with divergent branches: all but
// exec_mask, whose programs are lowered so that no branch diverges (its unit
// is tested on its own events in test_exec_mask_unit.cc).
std::vector<std::string> hardware_schemes() {
  std::vector<std::string> out;
  for (const std::string& name : reconvergence_names())
    if (reconvergence_program_form(name) != ProgramForm::ExecMask) out.push_back(name);
  return out;
}

TEST(ReconvergenceCounters, CollangeIfAandBPerScheme) {
  for (const Expected& x : kCollange) {
    SCOPED_TRACE(x.scheme);
    auto u = make_reconvergence_unit(x.scheme, 4);
    u->reset(0x00, 0b1111);
    const Tally t = run_sampled(*u, collange_marked);
    const ReconvergenceCounters& c = u->counters();
    EXPECT_EQ(t.issues, x.issues);
    EXPECT_EQ(c.reconvergences, x.reconvergences);
    EXPECT_EQ(c.early_reconvergences, x.early);
    EXPECT_EQ(c.peak_entries, x.peak);
    EXPECT_EQ(u->max_depth(), x.peak);
    EXPECT_EQ(t.paths, x.paths);
    EXPECT_EQ(t.max_paths, x.max_paths);
    EXPECT_EQ(u->own_counter("peak_st_entries"), x.st);
    EXPECT_EQ(u->own_counter("peak_rt_entries"), x.rt);
    EXPECT_EQ(u->own_counter("peak_hct_entries"), x.hct);
    EXPECT_EQ(u->own_counter("peak_cct_entries"), x.cct);
  }
}

TEST(ReconvergenceCounters, EverySchemeIsCoveredAndResetClears) {
  std::vector<std::string> covered;
  for (const Expected& x : kCollange) covered.push_back(x.scheme);
  std::sort(covered.begin(), covered.end());
  EXPECT_EQ(covered, hardware_schemes());
  for (const std::string& name : hardware_schemes()) {
    SCOPED_TRACE(name);
    auto u = make_reconvergence_unit(name, 4);
    u->reset(0x00, 0b1111);
    run_sampled(*u, collange_marked);
    u->reset(0x00, 0b1111);
    EXPECT_EQ(u->counters().reconvergences, 0u);
    EXPECT_EQ(u->counters().early_reconvergences, 0u);
  }
}

TEST(ReconvergenceCounters, StraightLineWarpNeverReconverges) {
  // 0x00..0x18 plain, 0x20 a branch every lane takes to 0x30, 0x30 exit:
  // one path all along, nothing split, so nothing merges.
  auto straight = [](Pc pc, LaneMask m) {
    if (pc == 0x20) return branch(m, m, pc, 0x30, 0x30);
    if (pc == 0x30) return plain(m, pc, Control::Exit);
    return plain(m, pc);
  };
  for (const std::string& name : reconvergence_names()) {
    SCOPED_TRACE(name);
    auto u = make_reconvergence_unit(name, 8);
    u->reset(0x00, 0xff);
    const Tally t = run_sampled(*u, straight);
    EXPECT_EQ(t.issues, 6u);
    EXPECT_EQ(t.paths, 6u);  // one issuable path per issue: mean 1.0
    EXPECT_EQ(u->counters().reconvergences, 0u);
    EXPECT_EQ(u->counters().early_reconvergences, 0u);
    // One entry (minority_first counts saved paths only, exec_mask re-join
    // masks holding lanes: none).
    EXPECT_EQ(u->counters().peak_entries,
              name == "minority_first" || name == "exec_mask" ? 0u : 1u);
  }
}

// 0x00 @p bra 0x10 (lane 0 taken; IPDOM 0x30)   0x08 @q bra 0x40 (taken by
// none; IPDOM 0x30)   0x10 .. 0x28 plain   0x30 E (a marker for explicit
// mode)   0x38 exit   0x40 bra 0x30. 0x10 is not the IPDOM (lanes taking q
// would skip it), but both sides of the first branch reach it when no lane
// takes q.
ControlEvent unstructured(Pc pc, LaneMask m) {
  switch (pc) {
    case 0x00:
      return branch(m, m & 0b01, pc, 0x10, 0x30);
    case 0x08:
      return branch(m, 0, pc, 0x40, 0x30);
    case 0x38:
      return plain(m, pc, Control::Exit);
    case 0x40:
      return branch(m, m, pc, 0x30, 0x30);
    default:
      return plain(m, pc);
  }
}

TEST(ReconvergenceCounters, PairedPathComparisonMeetsBeforeTheIpdomOnlyWhenImplicit) {
  // Implicit: the fall-through side (0x08 < 0x10) runs one instruction, then
  // both sides are at 0x10: merged there, before the IPDOM 0x30: early.
  PairedPathStack implicit(PairedPathStack::Mode::Implicit);
  implicit.reset(0x00, 0b11);
  Tally t = run_sampled(implicit, unstructured);
  EXPECT_EQ(t.issues, 1u + 1u + 4u + 2u);  // 0x00, 0x08, 0x10..0x28 merged, 0x30, exit
  EXPECT_EQ(implicit.counters().reconvergences, 1u);
  EXPECT_EQ(implicit.counters().early_reconvergences, 1u);

  // Explicit compares only at markers: the fall-through side runs on to the
  // marker at 0x30 and parks there, the taken side follows: merged at the
  // IPDOM, after running 0x10..0x28 once per side.
  PairedPathStack explicit_ppc(PairedPathStack::Mode::Explicit);
  explicit_ppc.reset(0x00, 0b11);
  t = run_sampled(explicit_ppc, [](Pc pc, LaneMask m) {
    ControlEvent e = unstructured(pc, m);
    e.marker = pc == 0x30;
    return e;
  });
  EXPECT_EQ(t.issues, 1u + 1u + 4u + 4u + 2u);
  EXPECT_EQ(explicit_ppc.counters().reconvergences, 1u);
  EXPECT_EQ(explicit_ppc.counters().early_reconvergences, 0u);
}

TEST(ReconvergenceCounters, PathsThatExitAreNotMerges) {
  // 0x00 @p bra 0x20 (lanes 0, 1 taken; no IPDOM but the exit)  0x08 plain
  // 0x10 exit   0x20 exit: each side exits on its own. Nothing merged
  // under any scheme.
  auto program = [](Pc pc, LaneMask m) {
    if (pc == 0x00) return branch(m, m & 0b0011, pc, 0x20, kExitPc);
    if (pc == 0x10 || pc == 0x20) return plain(m, pc, Control::Exit);
    return plain(m, pc);
  };
  for (const std::string& name : hardware_schemes()) {
    SCOPED_TRACE(name);
    auto u = make_reconvergence_unit(name, 4);
    u->reset(0x00, 0b1111);
    run_sampled(*u, program);
    EXPECT_EQ(u->counters().reconvergences, 0u);
  }
}

}  // namespace
}  // namespace warptlm
