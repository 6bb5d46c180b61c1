// The dual-path stack (Rhu & Erez, HPCA 2013): both paths of the top entry
// issuable and interleavable, reconvergence at the IPDOM, nested divergence
// pushing a new entry, exits and calls; Collange's short-circuit example.
#include <gtest/gtest.h>

#include "dual_path_test_util.h"
#include "simt/dual_path_stack.h"

namespace warptlm {
namespace {
using testing::Issue;
using testing::ToyProgram;
using Order = std::vector<Issue>;

std::vector<Path> paths(const DualPathStack& s) {
  std::vector<Path> p;
  s.issuable(p);
  return p;
}

// 0x00 @p bra 0x20 (lanes 0-3); else 0x08..0x18 (0x18 bra 0x30); then 0x20, 0x28; join 0x30.
TEST(DualPathStack, BothPathsIssueInterleavedAndWaitForEachOtherAtTheIpdom) {
  ToyProgram prog;
  prog.branch(0x00, 0x20, 0x0f, 0x30).jump(0x18, 0x30).exit(0x30);
  DualPathStack s;
  s.reset(0x00, 0xff);
  s.advance(paths(s)[0].split, prog.event(paths(s)[0]));
  auto p = paths(s);
  ASSERT_EQ(p.size(), 2u);  // taken first, then not-taken
  EXPECT_EQ(Issue(p[0].pc, p[0].mask), Issue(0x20, 0x0f));
  EXPECT_EQ(Issue(p[1].pc, p[1].mask), Issue(0x08, 0xf0));
  // Alternate: not-taken, taken, not-taken, not-taken (reaches the join).
  Order issued;
  for (unsigned pick : {1u, 0u, 1u, 1u}) {
    p = paths(s);
    ASSERT_EQ(p.size(), 2u);
    issued.push_back({p[pick].pc, p[pick].mask});
    s.advance(p[pick].split, prog.event(p[pick]));
  }
  EXPECT_EQ(issued, (Order{{0x08, 0xf0}, {0x20, 0x0f}, {0x10, 0xf0}, {0x18, 0xf0}}));
  // The not-taken path waits at 0x30: only the taken path is left.
  p = paths(s);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(Issue(p[0].pc, p[0].mask), Issue(0x28, 0x0f));
  s.advance(p[0].split, prog.event(p[0]));
  p = paths(s);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(Issue(p[0].pc, p[0].mask), Issue(0x30, 0xff));
  EXPECT_EQ(s.entries().size(), 1u);
  EXPECT_EQ(s.max_depth(), 2u);
}

// `if (A && B) C; else D; E;` with thread 0 on ABCE, thread 1 on ADE and
// threads 2, 3 on ABDE: A 0x00 @!a bra D; B 0x08 @!b bra D; C 0x10, 0x18 bra
// E; D 0x20; E 0x28 (the IPDOM of A and of B).
TEST(DualPathStack, CollangeShortCircuitIssueOrder) {
  ToyProgram prog;
  prog.branch(0x00, 0x20, 0x2, 0x28).branch(0x08, 0x20, 0xc, 0x28).jump(0x18, 0x28).exit(0x28);
  DualPathStack s;
  // Taken path first: lane 1's D, then B, whose divergence pushes an entry
  // {D: lanes 2-3, C: lane 0} while its own path waits at E.
  Order taken_first = {{0x00, 0xf}, {0x20, 0x2}, {0x08, 0xd}, {0x20, 0xc},
                       {0x10, 0x1}, {0x18, 0x1}, {0x28, 0xf}};
  EXPECT_EQ(prog.run(s, 0x00, 0xf), taken_first);
  EXPECT_EQ(s.max_depth(), 3u);
  // A scheduler preferring the not-taken paths gives another legal order.
  Order fall_first = {{0x00, 0xf}, {0x08, 0xd}, {0x10, 0x1}, {0x18, 0x1},
                      {0x20, 0xc}, {0x20, 0x2}, {0x28, 0xf}};
  EXPECT_EQ(prog.run(s, 0x00, 0xf, /*last_first=*/true), fall_first);
}

TEST(DualPathStack, NestedDivergenceHidesTheSiblingPathUntilTheInnerEntryPops) {
  ToyProgram prog;  // outer 0x00 -> 0x40 reconv 0x60; inner in the taken path 0x40 -> 0x50
  prog.branch(0x00, 0x40, 0x0f, 0x60).branch(0x40, 0x50, 0x03, 0x58).exit(0x60);
  DualPathStack s;
  s.reset(0x00, 0xff);
  s.advance(paths(s)[0].split, prog.event(paths(s)[0]));
  auto p = paths(s);
  s.advance(p[0].split, prog.event(p[0]));  // the taken path (0x40) diverges
  p = paths(s);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(Issue(p[0].pc, p[0].mask), Issue(0x50, 0x03));
  EXPECT_EQ(Issue(p[1].pc, p[1].mask), Issue(0x48, 0x0c));
  ASSERT_EQ(s.entries().size(), 3u);
  EXPECT_EQ(s.entries()[1].side[DpsEntry::kTaken].pc, 0x58u);  // parked at the inner IPDOM
  s.advance(p[0].split, prog.event(p[0]));                     // 0x50 -> 0x58: waits
  p = paths(s);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].pc, 0x48u);
  s.advance(p[0].split, prog.event(p[0]));                // 0x48 -> 0x50
  s.advance(paths(s)[0].split, prog.event(paths(s)[0]));  // 0x50 -> 0x58: inner entry pops
  p = paths(s);
  ASSERT_EQ(p.size(), 2u);  // the outer pair again
  EXPECT_EQ(Issue(p[0].pc, p[0].mask), Issue(0x58, 0x0f));
  EXPECT_EQ(Issue(p[1].pc, p[1].mask), Issue(0x08, 0xf0));
}

TEST(DualPathStack, ExitsEmptyPathsAndTheStackFinishes) {
  ToyProgram prog;  // 0x00 @p bra 0x20 (reconv: exit); 0x10 exit; 0x28 exit
  prog.branch(0x00, 0x20, 0x3, kExitPc).exit(0x10).exit(0x28);
  DualPathStack s;
  Order want = {{0x00, 0xf}, {0x20, 0x3}, {0x28, 0x3}, {0x08, 0xc}, {0x10, 0xc}};
  EXPECT_EQ(prog.run(s, 0x00, 0xf), want);
  EXPECT_TRUE(s.finished());
}

TEST(DualPathStack, CallFromOnePathBlocksBothUntilTheFrameCompletes) {
  ToyProgram prog;
  prog.branch(0x00, 0x20, 0x3, 0x30);
  DualPathStack s;
  s.reset(0x00, 0xf);
  s.advance(paths(s)[0].split, prog.event(paths(s)[0]));
  auto p = paths(s);
  ControlEvent call = prog.event(p[1]);  // the not-taken path calls 0x100
  call.kind = Control::Call;
  call.target = 0x100;
  EXPECT_EQ(s.advance(p[1].split, call), 0u);
  p = paths(s);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(Issue(p[0].pc, p[0].mask), Issue(0x100, 0xc));
  ControlEvent ret = prog.event(p[0]);
  ret.kind = Control::Ret;
  EXPECT_EQ(s.advance(p[0].split, ret), 1u);
  p = paths(s);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(Issue(p[1].pc, p[1].mask), Issue(0x10, 0xc));
  EXPECT_THROW(s.advance(99, ret), std::logic_error);
}

TEST(DualPathStack, IsRegistered) {
  EXPECT_EQ(make_reconvergence_unit("dual_path", 32)->name(), std::string("dual_path"));
}

}  // namespace
}  // namespace warptlm
