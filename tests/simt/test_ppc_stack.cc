// Paired-path comparison on the dual-path stack (seed 000, Fig. 4 and 5): the
// issue order of (pc, mask), derived by hand, on a diamond, on an
// unstructured CFG and on Collange's `if (A && B) C; else D; E;`, in implicit
// and explicit mode; exits, calls and the registry's marker trait.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "dual_path_test_util.h"
#include "simt/ipdom_stack.h"
#include "simt/ppc_stack.h"

namespace warptlm {
namespace {
using testing::Issue;
using testing::ToyProgram;
using Order = std::vector<Issue>;

PairedPathStack implicit_ppc() { return PairedPathStack(PairedPathStack::Mode::Implicit); }
PairedPathStack explicit_ppc() { return PairedPathStack(PairedPathStack::Mode::Explicit); }

// 0x00 @p bra 0x20 (lanes 0-3)   0x08..0x18 else, 0x18 bra 0x30   0x20..0x28 then   0x30 join
TEST(PpcStack, ImplicitDiamondRunsTheSmallerPcFirstAndMergesWhenThePcsMeet) {
  ToyProgram prog;
  prog.branch(0x00, 0x20, 0x0f, 0x30).jump(0x18, 0x30).exit(0x30);
  PairedPathStack s = implicit_ppc();
  // Fall-through 0x08 < 0x20 runs first; after its jump to 0x30 the taken
  // path (0x20) is smaller; when it reaches 0x30 the PCs are equal.
  Order want = {{0x00, 0xff}, {0x08, 0xf0}, {0x10, 0xf0}, {0x18, 0xf0},
                {0x20, 0x0f}, {0x28, 0x0f}, {0x30, 0xff}};
  EXPECT_EQ(prog.run(s, 0x00, 0xff), want);
  EXPECT_EQ(s.max_depth(), 2u);
  EXPECT_EQ(s.reconvergences(), 1u);
}

TEST(PpcStack, ExplicitDiamondParksAtTheMarkerAndRunsItOnceMerged) {
  ToyProgram prog;
  prog.branch(0x00, 0x20, 0x0f, 0x30).jump(0x18, 0x30).marker(0x30).exit(0x38);
  PairedPathStack s = explicit_ppc();
  Order want = {{0x00, 0xff}, {0x08, 0xf0}, {0x10, 0xf0}, {0x18, 0xf0},
                {0x20, 0x0f}, {0x28, 0x0f}, {0x30, 0xff}, {0x38, 0xff}};
  EXPECT_EQ(prog.run(s, 0x00, 0xff), want);
}

// Unstructured: A 0x00 @p bra C; B 0x08 @q bra E; C 0x10; D 0x18; E 0x20.
// B's jump out to E makes E the IPDOM of A, yet when B does not diverge the
// two paths of A meet at C already.
TEST(PpcStack, ImplicitReconvergesEarlierThanTheIpdomOnAnUnstructuredCfg) {
  ToyProgram prog;
  prog.branch(0x00, 0x10, 0x3, 0x20).branch(0x08, 0x20, 0x0, 0x20).exit(0x20);
  PairedPathStack s = implicit_ppc();
  Order want = {{0x00, 0xf}, {0x08, 0xc}, {0x10, 0xf}, {0x18, 0xf}, {0x20, 0xf}};
  EXPECT_EQ(prog.run(s, 0x00, 0xf), want);
  // The IPDOM stack runs C and D twice.
  IpdomStack ipdom;
  Order at_ipdom = {{0x00, 0xf}, {0x10, 0x3}, {0x18, 0x3}, {0x08, 0xc},
                    {0x10, 0xc}, {0x18, 0xc}, {0x20, 0xf}};
  EXPECT_EQ(prog.run(ipdom, 0x00, 0xf), at_ipdom);
}

TEST(PpcStack, ExplicitOnTheUnstructuredCfgReconvergesOnlyAtTheIpdomMarker) {
  ToyProgram prog;  // the marker sits at E = 0x20, E's code moves to 0x28
  prog.branch(0x00, 0x10, 0x3, 0x20).branch(0x08, 0x20, 0x0, 0x20).marker(0x20).exit(0x28);
  PairedPathStack s = explicit_ppc();
  // B's path reaches C's PC but no comparison happens until a marker.
  Order want = {{0x00, 0xf}, {0x08, 0xc}, {0x10, 0xc}, {0x18, 0xc},
                {0x10, 0x3}, {0x18, 0x3}, {0x20, 0xf}, {0x28, 0xf}};
  EXPECT_EQ(prog.run(s, 0x00, 0xf), want);
}

TEST(PpcStack, ImplicitNestedDivergencePushesAnEntryAndUnwindsIt) {
  ToyProgram prog;  // as above, but lane 3 leaves B for E and lane 2 goes on to C
  prog.branch(0x00, 0x10, 0x3, 0x20).branch(0x08, 0x20, 0x8, 0x20).exit(0x20);
  PairedPathStack s = implicit_ppc();
  // Inner entry {E:lane 3, C:lane 2} runs C, D for lane 2 until it meets lane
  // 3 at E; the outer entry then has {C: lanes 0-1, E: lanes 2-3}.
  Order want = {{0x00, 0xf}, {0x08, 0xc}, {0x10, 0x4}, {0x18, 0x4},
                {0x10, 0x3}, {0x18, 0x3}, {0x20, 0xf}};
  EXPECT_EQ(prog.run(s, 0x00, 0xf), want);
  EXPECT_EQ(s.max_depth(), 3u);
  EXPECT_EQ(s.reconvergences(), 2u);
}

// `if (A && B) C; else D; E;` with thread 0 on ABCE, thread 1 on ADE and
// threads 2, 3 on ABDE: A 0x00 @!a bra D; B 0x08 @!b bra D; C 0x10, 0x18 bra
// E; D 0x20; E 0x28 (explicit: marker at 0x28, E at 0x30).
TEST(PpcStack, CollangeShortCircuitIssueOrder) {
  ToyProgram prog;
  prog.branch(0x00, 0x20, 0x2, 0x28).branch(0x08, 0x20, 0xc, 0x28).jump(0x18, 0x28).exit(0x28);
  PairedPathStack imp = implicit_ppc();
  // D runs twice: lanes 2-3 meet lane 0 at E in the inner entry, lane 1 waits
  // in the outer entry's taken path.
  Order want = {{0x00, 0xf}, {0x08, 0xd}, {0x10, 0x1}, {0x18, 0x1},
                {0x20, 0xc}, {0x20, 0x2}, {0x28, 0xf}};
  EXPECT_EQ(prog.run(imp, 0x00, 0xf), want);

  ToyProgram marked;
  marked.branch(0x00, 0x20, 0x2, 0x28).branch(0x08, 0x20, 0xc, 0x28).jump(0x18, 0x28);
  marked.marker(0x28).exit(0x30);
  PairedPathStack exp = explicit_ppc();
  want.push_back({0x30, 0xf});
  EXPECT_EQ(marked.run(exp, 0x00, 0xf), want);
}

TEST(PpcStack, ExitOfOneSideHandsTheOtherSideToTheParent) {
  ToyProgram prog;  // 0x00 @p bra 0x20 (reconv: exit); 0x10 exit; 0x28 exit
  prog.branch(0x00, 0x20, 0x3, kExitPc).exit(0x10).exit(0x28);
  for (auto mode : {PairedPathStack::Mode::Implicit, PairedPathStack::Mode::Explicit}) {
    PairedPathStack s(mode);
    Order want = {{0x00, 0xf}, {0x08, 0xc}, {0x10, 0xc}, {0x20, 0x3}, {0x28, 0x3}};
    EXPECT_EQ(prog.run(s, 0x00, 0xf), want) << s.name();
    EXPECT_TRUE(s.finished());
  }
}

TEST(PpcStack, CallInsideOneSideRunsAloneAndCompletesItsFrame) {
  PairedPathStack s = implicit_ppc();
  ToyProgram none;
  std::vector<Path> p;
  s.reset(0x00, 0xf);
  s.issuable(p);
  ControlEvent br = none.event(p[0]);
  br.kind = Control::Branch;
  br.executed = 0x3;
  br.target = 0x40;
  s.advance(p[0].split, br);
  p.clear();
  s.issuable(p);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].pc, 0x08u);  // fall-through: smaller PC
  ControlEvent call = none.event(p[0]);
  call.kind = Control::Call;
  call.target = 0x100;
  EXPECT_EQ(s.advance(p[0].split, call), 0u);
  p.clear();
  s.issuable(p);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].pc, 0x100u);
  EXPECT_EQ(p[0].mask, 0xcu);
  ControlEvent ret = none.event(p[0]);
  ret.kind = Control::Ret;
  EXPECT_EQ(s.advance(p[0].split, ret), 1u);
  p.clear();
  s.issuable(p);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].pc, 0x10u);  // after the call, still smaller than 0x40
  EXPECT_EQ(p[0].mask, 0xcu);
}

TEST(PpcStack, AdvanceOnAPathThatIsNotRunningIsALogicError) {
  PairedPathStack s = implicit_ppc();
  s.reset(0x00, 0xf);
  ToyProgram none;
  EXPECT_THROW(s.advance(7, none.event({0x00, 0xf, 7})), std::logic_error);
}

// clang's rotated loop: the latch (0x08, its bar.sync, then the exit test at
// 0x10) is laid out before the body, whose diamond (0x20: lane 0 to 0x30,
// lane 1 to 0x28) jumps back to the latch from both sides.
//   0x00 bra 0x20   0x08 bar.sync   0x10 @p bra 0x20 (no lane)   0x18 exit
//   0x20 @q bra 0x30   0x28 bra 0x08   0x30 ..   0x38 bra 0x08
// Layout ranks (frontend/layout_rank.h): the loop {0x08, 0x20..} has head
// 0x20; in it 0x20, 0x28, 0x30-0x38, then the latch; the exit after the
// loop: 0x00 0, 0x20 1, 0x28 2, 0x30 3, 0x38 4, 0x08 5, 0x10 6, 0x18 7.
ToyProgram rotated_loop() {
  ToyProgram prog;
  prog.jump(0x00, 0x20).branch(0x10, 0x20, 0x0, 0x18).exit(0x18);
  prog.branch(0x20, 0x30, 0x1, 0x08).jump(0x28, 0x08).jump(0x38, 0x08);
  return prog;
}

TEST(PpcStack, ImplicitWithLayoutRanksMeetsAtTheLatchBeforeItsBarrier) {
  const std::vector<uint32_t> ranks{0, 5, 6, 7, 1, 2, 3, 4};
  PairedPathStack s = implicit_ppc();
  s.set_layout_ranks(&ranks);
  // Lane 1's side (rank 2) runs first and jumps to the latch (rank 5), which
  // ranks after lane 0's side (3): lane 0 runs 0x30, 0x38 to the latch, the
  // PCs are equal, and the whole warp issues the barrier.
  Order want = {{0x00, 0x3}, {0x20, 0x3}, {0x28, 0x2}, {0x30, 0x1},
                {0x38, 0x1}, {0x08, 0x3}, {0x10, 0x3}, {0x18, 0x3}};
  EXPECT_EQ(rotated_loop().run(s, 0x00, 0x3), want);
  EXPECT_EQ(s.reconvergences(), 1u);
}

TEST(PpcStack, ImplicitOnRawPcsRunsTheLatchWithHalfTheWarp) {
  // Without ranks the latch's pc (0x08) is the smallest: lane 1 runs the
  // barrier alone (a deadlock for a real bar.sync) and exits before lane 0
  // runs its side at all.
  PairedPathStack s = implicit_ppc();
  Order want = {{0x00, 0x3}, {0x20, 0x3}, {0x28, 0x2}, {0x08, 0x2}, {0x10, 0x2}, {0x18, 0x2},
                {0x30, 0x1}, {0x38, 0x1}, {0x08, 0x1}, {0x10, 0x1}, {0x18, 0x1}};
  EXPECT_EQ(rotated_loop().run(s, 0x00, 0x3), want);
  EXPECT_EQ(s.reconvergences(), 0u);
}

TEST(PpcStack, RegistryKnowsImplicitPpcWithoutMarkers) {
  EXPECT_EQ(make_reconvergence_unit("ppc_implicit", 16)->name(), std::string("ppc_implicit"));
  EXPECT_EQ(reconvergence_program_form("ppc_implicit"), ProgramForm::Plain);
}

TEST(PpcStack, RegistryKnowsExplicitPpcAndThatItNeedsMarkers) {
  EXPECT_EQ(make_reconvergence_unit("ppc_explicit", 16)->name(), std::string("ppc_explicit"));
  EXPECT_EQ(reconvergence_program_form("ppc_explicit"), ProgramForm::Markers);
  EXPECT_EQ(reconvergence_program_form("ipdom"), ProgramForm::Plain);
  EXPECT_EQ(reconvergence_program_form("dual_path"), ProgramForm::Plain);
  EXPECT_EQ(reconvergence_program_form("exec_mask"), ProgramForm::ExecMask);
  EXPECT_THROW(reconvergence_program_form("nope"), std::invalid_argument);
}

}  // namespace
}  // namespace warptlm
