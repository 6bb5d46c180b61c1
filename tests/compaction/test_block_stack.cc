// The block-wide reconvergence stack of thread block compaction on hand-made
// CTA-wide control events: the exact stack after each event of the SLP
// paper's Figure 1 structure, divergence judged on the whole CTA, exits,
// device-function calls with a divergent return, and the statistics. (That a
// one-warp CTA gives the IPDOM stack is in tests/exec/test_block_stack_one_warp.cc:
// it needs the simt library.)
#include <gtest/gtest.h>

#include <vector>

#include "compaction/block_stack.h"

namespace warptlm {
namespace {

CtaControlEvent event(Control kind, Pc pc, CtaMask executed, Pc target = 0, Pc reconv = kExitPc) {
  CtaControlEvent e;
  e.kind = kind;
  e.executed = std::move(executed);
  e.next = pc + kInstrBytes;
  e.target = target;
  e.reconv = reconv;
  return e;
}

// A straight-line instruction at `pc` for a CTA of `warps` warps.
CtaControlEvent plain(Pc pc, unsigned warps) { return event(Control::None, pc, CtaMask(warps)); }

struct Expected {
  Pc pc, rpc;
  CtaMask mask;
  bool call_frame;
};

void expect_stack(const BlockStack& s, const std::vector<Expected>& want) {
  ASSERT_EQ(s.depth(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE("entry " + std::to_string(i));
    EXPECT_EQ(s.entry(i).pc, want[i].pc);
    EXPECT_EQ(s.entry(i).rpc, want[i].rpc);
    EXPECT_EQ(s.mask_copy(i), want[i].mask);
    EXPECT_EQ(s.entry(i).call_frame, want[i].call_frame);
  }
}

// The structure of the SLP paper's Figure 1: a CTA of 3 warps of 4 threads
// (thread t is lane t % 4 of warp t / 4). Block A ends in a branch to B taken
// by threads 7 and 10 (path B of the paper); the others go to C, whose branch
// sends threads 0, 4 and 8 (the aligned path of Figure 2) to D and the rest
// to E; D and E meet at F, B and F at G. PCs: A 0x00, C 0x08, E 0x10 (bra F
// at 0x18), D 0x20-0x28, F 0x30 (bra G at 0x38), B 0x40, G 0x48 (exit).
TEST(BlockStack, FigureOneNestedDivergenceRunsTakenPathsFirstAndReconverges) {
  const Pc A = 0x00, C = 0x08, E = 0x10, D = 0x20, F = 0x30, B = 0x40, G = 0x48;
  const CtaMask all{0xf, 0xf, 0xf};
  BlockStack s;
  s.reset(A, all);
  expect_stack(s, {{A, kExitPc, all, false}});

  // Threads 7 (warp 1 lane 3) and 10 (warp 2 lane 2) take A's branch.
  s.advance(event(Control::Branch, A, {0x0, 0x8, 0x4}, B, G));
  expect_stack(
      s,
      {{G, kExitPc, all, false}, {C, G, {0xf, 0x7, 0xb}, false}, {B, G, {0x0, 0x8, 0x4}, false}});
  s.advance(plain(B, 3));  // B's last instruction reaches G: pops
  expect_stack(s, {{G, kExitPc, all, false}, {C, G, {0xf, 0x7, 0xb}, false}});

  // Threads 0, 4, 8 (lane 0 of each warp) take C's branch to D.
  s.advance(event(Control::Branch, C, {0x1, 0x1, 0x1}, D, F));
  expect_stack(s, {{G, kExitPc, all, false},
                   {F, G, {0xf, 0x7, 0xb}, false},
                   {C + kInstrBytes, F, {0xe, 0x6, 0xa}, false},
                   {D, F, {0x1, 0x1, 0x1}, false}});
  s.advance(plain(D, 3));
  s.advance(plain(D + kInstrBytes, 3));  // reaches F
  expect_stack(
      s,
      {{G, kExitPc, all, false}, {F, G, {0xf, 0x7, 0xb}, false}, {E, F, {0xe, 0x6, 0xa}, false}});
  s.advance(plain(E, 3));
  s.advance(event(Control::Branch, E + kInstrBytes, {0xe, 0x6, 0xa}, F, F));  // bra F: uniform
  expect_stack(s, {{G, kExitPc, all, false}, {F, G, {0xf, 0x7, 0xb}, false}});
  s.advance(plain(F, 3));
  s.advance(event(Control::Branch, F + kInstrBytes, {0xf, 0x7, 0xb}, G, G));
  expect_stack(s, {{G, kExitPc, all, false}});
  EXPECT_EQ(s.advance(event(Control::Exit, G, all)), 0u);
  EXPECT_TRUE(s.finished());
  // Two merges (E into F after D; F's path into G after B), never early;
  // deepest: G, F, E, D.
  EXPECT_EQ(s.counters().reconvergences, 2u);
  EXPECT_EQ(s.counters().early_reconvergences, 0u);
  EXPECT_EQ(s.max_depth(), 4u);
}

TEST(BlockStack, BranchUniformWithinEachWarpButNotAcrossTheCtaDiverges) {
  // Warp 0 takes the branch, warp 1 does not: a per-warp stack would not
  // split either warp, the block stack splits the CTA.
  BlockStack s;
  s.reset(0x00, {0xff, 0xff});
  s.advance(event(Control::Branch, 0x00, {0xff, 0x00}, 0x40, 0x80));
  expect_stack(s, {{0x80, kExitPc, {0xff, 0xff}, false},
                   {0x08, 0x80, {0x00, 0xff}, false},
                   {0x40, 0x80, {0xff, 0x00}, false}});
}

TEST(BlockStack, UniformBranchesMoveThePcOnly) {
  BlockStack s;
  s.reset(0x00, {0x0f, 0x03});
  const uint64_t version = s.top_version();
  s.advance(event(Control::Branch, 0x00, {0x0f, 0x03}, 0x40, 0x48));
  EXPECT_EQ(s.top().pc, 0x40u);
  s.advance(event(Control::Branch, 0x40, {0x00, 0x00}, 0x80, 0x88));
  expect_stack(s, {{0x48, kExitPc, {0x0f, 0x03}, false}});
  EXPECT_EQ(s.top_version(), version);  // the top's threads never changed
  EXPECT_EQ(s.max_depth(), 1u);
}

TEST(BlockStack, BranchWithTheEntrysOwnReconvergencePointReplacesTheEntry) {
  BlockStack s;
  s.reset(0x00, {0xff, 0xff});
  s.advance(event(Control::Branch, 0x00, {0x0f, 0x0f}, 0x20, 0x60));
  // Inside the taken path, a branch reconverging at the same 0x60.
  s.advance(event(Control::Branch, 0x20, {0x03, 0x01}, 0x40, 0x60));
  expect_stack(s, {{0x60, kExitPc, {0xff, 0xff}, false},
                   {0x08, 0x60, {0xf0, 0xf0}, false},
                   {0x28, 0x60, {0x0c, 0x0e}, false},
                   {0x40, 0x60, {0x03, 0x01}, false}});
}

TEST(BlockStack, ExitRemovesThreadsEverywhereAndFinishes) {
  BlockStack s;
  s.reset(0x00, {0xf, 0xf});
  // The branch's IPDOM is the kernel's exit, the bottom entry's own rpc: the
  // two paths replace it.
  s.advance(event(Control::Branch, 0x00, {0x3, 0x0}, 0x20, kExitPc));
  expect_stack(s, {{0x08, kExitPc, {0xc, 0xf}, false}, {0x20, kExitPc, {0x3, 0x0}, false}});
  EXPECT_EQ(s.advance(event(Control::Exit, 0x20, {0x3, 0x0})), 0u);
  expect_stack(s, {{0x08, kExitPc, {0xc, 0xf}, false}});
  // A guarded exit: threads 2 and 4..5 leave, the others go on.
  s.advance(event(Control::Exit, 0x08, {0x4, 0x3}));
  expect_stack(s, {{0x10, kExitPc, {0x8, 0xc}, false}});
  s.advance(event(Control::Exit, 0x10, {0x8, 0xc}));
  EXPECT_TRUE(s.finished());
  EXPECT_EQ(s.counters().reconvergences, 0u);  // nothing merged: paths ended apart
}

TEST(BlockStack, CallAndDivergentReturnCompleteTheFrameOnce) {
  BlockStack s;
  s.reset(0x00, {0xf, 0xf});
  // Threads 0 and 1 call the function at 0x80 (guarded call at 0x00).
  EXPECT_EQ(s.advance(event(Control::Call, 0x00, {0x3, 0x0}, 0x80)), 0u);
  EXPECT_EQ(s.call_depth(), 1u);
  expect_stack(s, {{0x08, kExitPc, {0xf, 0xf}, false}, {0x80, kExitPc, {0x3, 0x0}, true}});
  // In the callee, thread 0 branches to a ret at 0x90; reconvergence at the
  // function's exit. The frame entry is kept (it is the call's bottom).
  s.advance(event(Control::Branch, 0x80, {0x1, 0x0}, 0x90, kExitPc));
  expect_stack(s, {{0x08, kExitPc, {0xf, 0xf}, false},
                   {kExitPc, kExitPc, {0x3, 0x0}, true},
                   {0x88, kExitPc, {0x2, 0x0}, false},
                   {0x90, kExitPc, {0x1, 0x0}, false}});
  EXPECT_EQ(s.advance(event(Control::Ret, 0x90, {0x1, 0x0})), 0u);  // thread 1 still inside
  EXPECT_EQ(s.advance(event(Control::Ret, 0x88, {0x2, 0x0})), 1u);  // the frame completes
  EXPECT_EQ(s.call_depth(), 0u);
  expect_stack(s, {{0x08, kExitPc, {0xf, 0xf}, false}});
  EXPECT_EQ(s.counters().reconvergences, 0u);  // coming back from a call is not a merge
}

TEST(BlockStack, ExitInsideACallCompletesEveryEmptiedFrame) {
  BlockStack s;
  s.reset(0x00, {0x3});
  s.advance(event(Control::Call, 0x00, {0x3}, 0x80));
  s.advance(event(Control::Call, 0x80, {0x1}, 0xc0));
  EXPECT_EQ(s.call_depth(), 2u);
  // Thread 0 exits in the inner callee: the inner frame completes; the outer
  // one still holds thread 1.
  EXPECT_EQ(s.advance(event(Control::Exit, 0xc0, {0x1})), 1u);
  expect_stack(s, {{0x08, kExitPc, {0x2}, false}, {0x88, kExitPc, {0x2}, true}});
  EXPECT_EQ(s.advance(event(Control::Exit, 0x88, {0x2})), 1u);
  EXPECT_TRUE(s.finished());
}

}  // namespace
}  // namespace warptlm
