// The exec_mask warp on hand-made control events: re-join masks deferred and
// joined, the scalar branch over an empty exec mask, uniform branches,
// calls with their own masks, exits.
#include <gtest/gtest.h>

#include "control_events.h"
#include "simt/exec_mask_unit.h"

namespace warptlm {
namespace {
using warptlm::testing::branch;
using warptlm::testing::call;
using warptlm::testing::plain;

ControlEvent mask_op(Control kind, LaneMask active, Pc pc, uint64_t target, LaneMask executed = 0) {
  ControlEvent e = plain(active, pc, kind, executed);
  if (kind != Control::MaskDefer)
    e.executed = active;
  else
    e.executed = executed;
  e.target = target;
  return e;
}

Path path(const ExecMaskUnit& u) {
  std::vector<Path> p;
  u.issuable(p);
  EXPECT_EQ(p.size(), 1u);
  return p.empty() ? Path{} : p[0];
}

TEST(ExecMaskUnit, AnIfElseDefersTheElseLanesAndJoinsThem) {
  // 0x00 @p emask.defer 0; 0x08 emask.branchz 0x28; 0x10 then; 0x18 emask.join... as lowered:
  // lanes 0-3 take the then side, 4-7 wait in mask 0 for the join at 0x30.
  ExecMaskUnit u;
  u.reset(0x00, 0xff);
  u.advance(0, mask_op(Control::MaskDefer, 0xff, 0x00, 0, 0xf0));
  EXPECT_EQ(path(u).pc, 0x08u);
  EXPECT_EQ(path(u).mask, 0x0fu);
  EXPECT_EQ(u.waiting(0), 0xf0u);
  u.advance(0, mask_op(Control::MaskBranchZ, 0x0f, 0x08, 0x30));  // lanes left: on
  EXPECT_EQ(path(u).pc, 0x10u);
  u.advance(0, plain(0x0f, 0x10));
  u.advance(0, mask_op(Control::MaskJoin, 0x0f, 0x18, 0));
  EXPECT_EQ(path(u).mask, 0xffu);
  EXPECT_EQ(u.waiting(0), 0u);
  EXPECT_EQ(u.counters().reconvergences, 1u);
  EXPECT_EQ(u.max_depth(), 1u);
}

TEST(ExecMaskUnit, TheScalarBranchSkipsWhenEveryLaneWaits) {
  ExecMaskUnit u;
  u.reset(0x00, 0x0f);
  u.advance(0, mask_op(Control::MaskDefer, 0x0f, 0x00, 2, 0x0f));
  EXPECT_EQ(path(u).mask, 0u);  // an empty exec mask still issues the branch
  u.advance(0, mask_op(Control::MaskBranchZ, 0x00, 0x08, 0x40));
  EXPECT_EQ(path(u).pc, 0x40u);
  u.advance(0, mask_op(Control::MaskJoin, 0x00, 0x40, 2));
  EXPECT_EQ(path(u).mask, 0x0fu);
  EXPECT_EQ(u.counters().reconvergences, 0u);  // nothing to merge with
}

TEST(ExecMaskUnit, UniformBranchesMoveTheWholeWarpAndADivergedOneIsAnError) {
  ExecMaskUnit u;
  u.reset(0x00, 0x0f);
  u.advance(0, branch(0x0f, 0x0f, 0x00, 0x40, 0x48));
  EXPECT_EQ(path(u).pc, 0x40u);
  u.advance(0, branch(0x0f, 0x00, 0x40, 0x80, 0x88));
  EXPECT_EQ(path(u).pc, 0x48u);
  // An empty exec mask goes to the reconvergence pc, where waiting lanes are.
  u.advance(0, mask_op(Control::MaskDefer, 0x0f, 0x48, 0, 0x0f));
  u.advance(0, branch(0x00, 0x00, 0x50, 0x20, 0x90));
  EXPECT_EQ(path(u).pc, 0x90u);
  u.reset(0x00, 0x0f);
  try {
    u.advance(0, branch(0x0f, 0x03, 0x00, 0x40, 0x48));
    FAIL() << "no error";
  } catch (const ControlFault& e) {  // the executor reports it as a kernel fault
    EXPECT_NE(std::string(e.what()).find("sends lanes 0x3 to 0x40 and lanes 0xc on"),
              std::string::npos)
        << e.what();
  }
}

TEST(ExecMaskUnit, ACallHasItsOwnMasksAndBringsTheBystandersBack) {
  ExecMaskUnit u;
  u.reset(0x00, 0xff);
  u.advance(0, mask_op(Control::MaskDefer, 0xff, 0x00, 0, 0x80));  // caller's mask 0: lane 7
  u.advance(0, call(0x7f, 0x08, 0x100, 0x0f));                     // lanes 0-3 call
  EXPECT_EQ(path(u).pc, 0x100u);
  EXPECT_EQ(path(u).mask, 0x0fu);
  EXPECT_EQ(u.waiting(0), 0u);  // the callee's mask 0
  u.advance(0, mask_op(Control::MaskDefer, 0x0f, 0x100, 0, 0x01));
  u.advance(0, mask_op(Control::MaskJoin, 0x0e, 0x108, 0));
  ControlEvent ret = plain(0x0f, 0x110, Control::Ret);
  EXPECT_EQ(u.advance(0, ret), 1u);  // one call frame completed
  EXPECT_EQ(path(u).pc, 0x10u);
  EXPECT_EQ(path(u).mask, 0x7fu);  // the callers and the bystanders 4-6
  EXPECT_EQ(u.waiting(0), 0x80u);  // the caller's mask 0 kept
}

TEST(ExecMaskUnit, AReturnWithLanesStillWaitingIsAnError) {
  ExecMaskUnit u;
  u.reset(0x00, 0x0f);
  u.advance(0, call(0x0f, 0x00, 0x100));
  u.advance(0, mask_op(Control::MaskDefer, 0x0f, 0x100, 1, 0x03));
  EXPECT_THROW(u.advance(0, plain(0x0c, 0x108, Control::Ret)), std::logic_error);
}

TEST(ExecMaskUnit, TheWarpEndsWhenEveryLaneExited) {
  ExecMaskUnit u;
  u.reset(0x00, 0x0f);
  u.advance(0, plain(0x0f, 0x00, Control::Exit, 0x03));
  EXPECT_FALSE(u.finished());
  EXPECT_EQ(path(u).mask, 0x0cu);
  u.advance(0, plain(0x0c, 0x08, Control::Exit));
  EXPECT_TRUE(u.finished());
  std::vector<Path> none;
  u.issuable(none);
  EXPECT_TRUE(none.empty());
}

TEST(ExecMaskUnit, EveryOtherSchemeRefusesExecMaskInstructions) {
  for (const std::string& scheme : reconvergence_names()) {
    if (reconvergence_program_form(scheme) == ProgramForm::ExecMask) continue;
    SCOPED_TRACE(scheme);
    auto unit = make_reconvergence_unit(scheme, 8);
    unit->reset(0x00, 0xff);
    std::vector<Path> paths;
    unit->issuable(paths);
    ASSERT_FALSE(paths.empty());
    try {
      unit->advance(paths[0].split, mask_op(Control::MaskJoin, paths[0].mask, paths[0].pc, 0));
      FAIL() << "no error";
    } catch (const std::logic_error& e) {
      EXPECT_NE(std::string(e.what()).find("met an exec-mask instruction"), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace warptlm
