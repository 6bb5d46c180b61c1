// The IPDOM stack on hand-made control events: divergence and reconvergence
// order, nesting, exits, device-function calls, and the scheme registry.
#include <gtest/gtest.h>

#include "control_events.h"
#include "simt/ipdom_stack.h"

namespace warptlm {
namespace {
using warptlm::testing::branch;
using warptlm::testing::plain;

Path top(const IpdomStack& s) {
  std::vector<Path> p;
  s.issuable(p);
  EXPECT_EQ(p.size(), 1u);
  return p.empty() ? Path{} : p[0];
}

TEST(IpdomStack, DivergentBranchRunsTakenPathThenFallThroughThenReconverges) {
  IpdomStack s;
  s.reset(0x00, 0xff);
  // if-else diamond: bra at 0x00 -> 0x20; fall-through 0x08; reconverge at 0x30
  s.advance(top(s).split, branch(0xff, 0x0f, 0x00, 0x20, 0x30));
  EXPECT_EQ(top(s).pc, 0x20u);
  EXPECT_EQ(top(s).mask, 0x0fu);
  s.advance(top(s).split, plain(0x0f, 0x20));
  s.advance(top(s).split, plain(0x0f, 0x28));  // reaches 0x30: taken path pops
  EXPECT_EQ(top(s).pc, 0x08u);
  EXPECT_EQ(top(s).mask, 0xf0u);
  ControlEvent jump = branch(0xf0, 0xf0, 0x08, 0x30, 0x30);  // unconditional bra to the join
  s.advance(top(s).split, jump);
  EXPECT_EQ(top(s).pc, 0x30u);
  EXPECT_EQ(top(s).mask, 0xffu);
  EXPECT_EQ(s.entries().size(), 1u);
  EXPECT_EQ(s.max_depth(), 3u);
}

TEST(IpdomStack, UniformBranchesDoNotPush) {
  IpdomStack s;
  s.reset(0x00, 0x0f);
  s.advance(top(s).split, branch(0x0f, 0x0f, 0x00, 0x40, 0x48));
  EXPECT_EQ(top(s).pc, 0x40u);
  s.advance(top(s).split, branch(0x0f, 0x00, 0x40, 0x80, 0x88));
  EXPECT_EQ(top(s).pc, 0x48u);
  EXPECT_EQ(s.max_depth(), 1u);
}

TEST(IpdomStack, BranchWithTheEntrysOwnReconvergencePointReplacesTheEntry) {
  IpdomStack s;
  s.reset(0x00, 0xff);
  s.advance(top(s).split, branch(0xff, 0x0f, 0x00, 0x20, 0x60));  // depth 3
  // Inside the taken path, a branch reconverging at the same 0x60.
  s.advance(top(s).split, branch(0x0f, 0x03, 0x20, 0x40, 0x60));
  EXPECT_EQ(s.entries().size(), 4u);  // reconv, fall(0xf0), fall(0x0c), taken(0x03)
  EXPECT_EQ(top(s).mask, 0x03u);
}

TEST(IpdomStack, ExitRemovesLanesEverywhereAndFinishes) {
  IpdomStack s;
  s.reset(0x00, 0x0f);
  s.advance(top(s).split, branch(0x0f, 0x03, 0x00, 0x20, kExitPc));
  EXPECT_EQ(top(s).mask, 0x03u);
  EXPECT_EQ(s.advance(top(s).split, plain(0x03, 0x20, Control::Exit)), 0u);
  EXPECT_EQ(top(s).pc, 0x08u);
  EXPECT_EQ(top(s).mask, 0x0cu);
  s.advance(top(s).split, plain(0x0c, 0x08, Control::Exit));
  EXPECT_TRUE(s.finished());
}

TEST(IpdomStack, GuardedExitKeepsTheOtherLanesGoing) {
  IpdomStack s;
  s.reset(0x00, 0x0f);
  s.advance(top(s).split, plain(0x0f, 0x00, Control::Exit, 0x05));
  EXPECT_EQ(top(s).pc, 0x08u);
  EXPECT_EQ(top(s).mask, 0x0au);
}

TEST(IpdomStack, CallAndDivergentReturnCompleteTheFrameOnce) {
  IpdomStack s;
  s.reset(0x00, 0x0f);
  ControlEvent call = plain(0x0f, 0x00, Control::Call);
  call.target = 0x100;
  EXPECT_EQ(s.advance(top(s).split, call), 0u);
  EXPECT_EQ(top(s).pc, 0x100u);
  // In the callee: a branch whose IPDOM is the function exit; both paths return.
  s.advance(top(s).split, branch(0x0f, 0x01, 0x100, 0x120, kExitPc));
  EXPECT_EQ(top(s).mask, 0x01u);
  EXPECT_EQ(s.advance(top(s).split, plain(0x01, 0x120, Control::Ret)), 0u);
  EXPECT_EQ(top(s).pc, 0x108u);
  EXPECT_EQ(top(s).mask, 0x0eu);
  EXPECT_EQ(s.advance(top(s).split, plain(0x0e, 0x108, Control::Ret)), 1u);
  EXPECT_EQ(top(s).pc, 0x08u);  // back in the caller after the call
  EXPECT_EQ(top(s).mask, 0x0fu);
}

TEST(ReconvergenceRegistry, KnowsIpdomAndNamesTheKnownSchemesForUnknownOnes) {
  EXPECT_EQ(make_reconvergence_unit("ipdom", 32)->name(), std::string("ipdom"));
  try {
    make_reconvergence_unit("nope", 32);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    // Other schemes sort before "ipdom" in the list.
    EXPECT_NE(std::string(e.what()).find("known: "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("ipdom"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace warptlm
