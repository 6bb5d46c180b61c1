// Control outcomes (bra, call, ret, exit, bar, membar, reconverge) and guard
// predicates.
#include "harness.h"

namespace warptlm::test {
namespace {

TEST(Control, BranchReportsTakenLanes) {
  Harness h;
  const Outcome o = h.run(Harness::make(Opcode::Bra, Type::None, {Harness::label(0x40)}), 0b0110);
  EXPECT_EQ(o.control, Control::Branch);
  EXPECT_EQ(o.target, 0x40u);
  EXPECT_EQ(o.executed, 0b0110u);
}

TEST(Control, GuardedBranch) {
  Harness h;
  const uint32_t p = h.reg(Type::Pred);
  h.set(p, 0, 1);
  h.set(p, 1, 0);
  h.set(p, 2, 1);
  h.set(p, 3, 0);
  Instruction in = Harness::make(Opcode::Bra, Type::None, {Harness::label(0x80)});
  in.has_guard = true;
  in.guard_reg = p;
  EXPECT_EQ(h.run(in).executed, 0b0101u);
  in.guard_negated = true;
  EXPECT_EQ(h.run(in).executed, 0b1010u);
  EXPECT_EQ(h.run(in, 0b0011).executed, 0b0010u);
  const Outcome none = h.run(in, 0b0101);
  EXPECT_EQ(none.control, Control::Branch);
  EXPECT_EQ(none.executed, 0u);
}

TEST(Control, CallRetExit) {
  Harness h;
  h.module.functions.resize(2);
  h.module.functions[1].begin = 0x100;
  const Outcome call =
      h.run(Harness::make(Opcode::Call, Type::None,
                          {Harness::vec({}), Harness::function(1), Harness::vec({})}),
            0b1001);
  EXPECT_EQ(call.control, Control::Call);
  EXPECT_EQ(call.callee, 1u);
  EXPECT_EQ(call.target, 0x100u);
  EXPECT_EQ(call.executed, 0b1001u);
  const Outcome ret = h.run(Harness::make(Opcode::Ret, Type::None, {}), 0b0011);
  EXPECT_EQ(ret.control, Control::Ret);
  EXPECT_EQ(ret.executed, 0b0011u);
  const Outcome ex = h.run(Harness::make(Opcode::Exit, Type::None, {}));
  EXPECT_EQ(ex.control, Control::Exit);
  EXPECT_EQ(ex.executed, 0b1111u);  // active mask is limited to the warp
  // A call through a register holding no function's address (0 here): a
  // LaneError for the first executing lane (docs/function-pointers.md).
  const uint32_t r = h.reg(Type::U64);
  try {
    h.run(Harness::make(Opcode::Call, Type::None, {Harness::vec({}), h.r(r), Harness::vec({})}));
    FAIL() << "the call went through";
  } catch (const LaneError& e) {
    EXPECT_EQ(e.lane, 0u);
    EXPECT_NE(std::string(e.what()).find("not the address of a function"), std::string::npos);
  }
}

TEST(Control, Barriers) {
  Harness h;
  const Outcome b0 = h.run(Harness::make(Opcode::Bar, Type::None, {Harness::imm(0)}));
  EXPECT_EQ(b0.control, Control::Barrier);
  EXPECT_EQ(b0.barrier_id, 0u);
  EXPECT_EQ(b0.barrier_count, 0u);
  const Outcome b1 =
      h.run(Harness::make(Opcode::Bar, Type::None, {Harness::imm(1), Harness::imm(64)}));
  EXPECT_EQ(b1.barrier_id, 1u);
  EXPECT_EQ(b1.barrier_count, 64u);
  // Register operands: taken from the first executed lane.
  const uint32_t id = h.reg(Type::U32), n = h.reg(Type::U32);
  for (unsigned l = 0; l < 4; ++l) {
    h.set(id, l, 10 + l);
    h.set(n, l, 32 * (l + 1));
  }
  const Outcome b2 = h.run(Harness::make(Opcode::Bar, Type::None, {h.r(id), h.r(n)}), 0b1100);
  EXPECT_EQ(b2.barrier_id, 12u);
  EXPECT_EQ(b2.barrier_count, 96u);
  EXPECT_EQ(b2.executed, 0b1100u);
  const Outcome none = h.run(Harness::make(Opcode::Bar, Type::None, {Harness::imm(0)}), 0);
  EXPECT_EQ(none.control, Control::None);
}

TEST(Control, NoEffectInstructions) {
  Harness h;
  for (Opcode op : {Opcode::Membar, Opcode::Reconverge}) {
    const Outcome o = h.run(Harness::make(op, Type::None, {}), 0b0111);
    EXPECT_EQ(o.control, Control::None);
    EXPECT_EQ(o.executed, 0b0111u);
  }
}

TEST(Control, GuardedDataInstructionTouchesOnlyExecutedLanes) {
  Harness h;
  const uint32_t d = h.reg(Type::U32), p = h.reg(Type::Pred);
  h.set_all(d, 5);
  h.set(p, 1, 1);
  h.set(p, 3, 1);
  Instruction in = Harness::make(Opcode::Add, Type::U32, {h.r(d), h.r(d), Harness::imm(1)});
  in.has_guard = true;
  in.guard_reg = p;
  in.guard_negated = true;  // @!p: lanes 0 and 2
  const Outcome o = h.run(in, 0b0111);
  EXPECT_EQ(o.executed, 0b0101u);
  EXPECT_EQ(o.control, Control::None);
  EXPECT_EQ(h.get(d, 0), 6u);
  EXPECT_EQ(h.get(d, 1), 5u);
  EXPECT_EQ(h.get(d, 2), 6u);
  EXPECT_EQ(h.get(d, 3), 5u);
}

}  // namespace
}  // namespace warptlm::test
