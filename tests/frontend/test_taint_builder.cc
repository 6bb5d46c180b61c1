// Taint analysis on hand-built modules: the rules one at a time, on exact
// instruction sequences (Rhu & Erez, ISCA 2013, Figure 10 first).
#include <gtest/gtest.h>

#include "finalizer_test_util.h"
#include "frontend/program.h"

namespace warptlm {
namespace {

using testing::ModuleBuilder;

// Taints of the conditional branches, in PC order, as a "PDP"-style string.
std::string labels(const Program& p) {
  std::string s;
  for (const BranchInfo& b : p.branches)
    if (b.conditional) s += taint_name(b.taint);
  return s;
}

// `setp p, a, 0; @p bra L; L:` — a branch on `a` (fresh label per call).
void branch_on(ModuleBuilder& b, Operand a) {
  static int n = 0;
  std::string l = "L" + std::to_string(n++), p = "%p_" + l;
  b.setp(p, a, b.imm(0));
  b.bra(l, p);
  b.label(l);
}

TEST(TaintBuilder, Figure10) {
  ModuleBuilder b;
  b.func("k");
  uint32_t g_data = b.symbol("g_data", Space::Param, 8);
  b.op(Opcode::Mov, {b.r("%r2"), b.special(SpecialReg::Tid)});
  branch_on(b, b.r("%r2"));  // on tid: P
  b.op(Opcode::Ld, {b.r("%r3"), b.addr_sym(g_data)}, Type::U64, Space::Param);
  b.op(Opcode::Add, {b.r("%r4"), b.r("%r2"), b.r("%r3")});
  branch_on(b, b.r("%r4"));  // on a pointer from a parameter: P
  b.op(Opcode::Ld, {b.r("%r5"), b.addr("%r4")}, Type::S32, Space::Global);
  branch_on(b, b.r("%r5"));  // on data: D
  b.op(Opcode::Mov, {b.r("%r5"), b.imm(100)});
  branch_on(b, b.r("%r5"));  // an immediate clears the taint
  b.ret();
  EXPECT_EQ(labels(finalize(b.build())), "PPDP");
}

TEST(TaintBuilder, SpecialRegistersAndAtomics) {
  ModuleBuilder b;
  b.func("k");
  branch_on(b, b.special(SpecialReg::Ctaid, 1));
  branch_on(b, b.special(SpecialReg::Laneid));
  branch_on(b, b.special(SpecialReg::Clock));   // non-deterministic: D
  branch_on(b, b.special(SpecialReg::Smid));    // placement: D
  branch_on(b, b.special(SpecialReg::Warpid));  // hardware slot, not tid / 32: D
  b.op(Opcode::Atom, {b.r("%a"), b.addr("%ptr"), b.imm(1)}, Type::U32, Space::Global);
  branch_on(b, b.r("%a"));
  b.ret();
  EXPECT_EQ(labels(finalize(b.build())), "PPDDDD");
}

TEST(TaintBuilder, ShflOfProgrammaticStaysProgrammatic) {
  ModuleBuilder b;
  b.func("k");
  b.op(Opcode::Mov, {b.r("%t"), b.special(SpecialReg::Tid)});
  b.op(Opcode::Shfl, {b.r("%s"), Operand{}, b.r("%t"), b.imm(1), b.imm(31), Operand{}});
  branch_on(b, b.r("%s"));
  b.op(Opcode::Ld, {b.r("%v"), b.addr("%ptr")}, Type::S32, Space::Shared);
  b.op(Opcode::Shfl, {b.r("%s"), Operand{}, b.r("%v"), b.imm(1), b.imm(31), Operand{}});
  branch_on(b, b.r("%s"));
  b.ret();
  EXPECT_EQ(labels(finalize(b.build())), "PD");
}

TEST(TaintBuilder, SelpPredicateIsDataButAGuardIsNot) {
  ModuleBuilder b;
  b.func("k");
  b.op(Opcode::Ld, {b.r("%v"), b.addr("%ptr")}, Type::S32, Space::Global);
  b.setp("%d", b.r("%v"), b.imm(3));
  b.op(Opcode::Selp, {b.r("%x"), b.imm(1), b.imm(0), b.r("%d", Type::Pred)});
  branch_on(b, b.r("%x"));  // selp reads %d as data: D
  b.op(Opcode::Mov, {b.r("%y"), b.imm(1)});
  Instruction& guarded = b.op(Opcode::Mov, {b.r("%y"), b.imm(2)});
  guarded.has_guard = true;
  guarded.guard_reg = b.r("%d", Type::Pred).reg;
  branch_on(b, b.r("%y"));  // @%d mov: control, not data: P
  b.op(Opcode::Mov, {b.r("%z"), b.r("%v")});
  Instruction& clear = b.op(Opcode::Mov, {b.r("%z"), b.imm(2)});
  clear.has_guard = true;
  clear.guard_reg = b.r("%d", Type::Pred).reg;
  branch_on(b, b.r("%z"));  // a guarded write may not happen: still D
  b.ret();
  EXPECT_EQ(labels(finalize(b.build())), "DPD");
}

// Taint joins where paths meet: D on one path makes the join D.
TEST(TaintBuilder, JoinAtMergePoints) {
  ModuleBuilder b;
  b.func("k");
  b.op(Opcode::Mov, {b.r("%x"), b.special(SpecialReg::Tid)});
  b.setp("%p", b.special(SpecialReg::Tid), b.imm(5));
  b.bra("SKIP", "%p");
  b.op(Opcode::Ld, {b.r("%x"), b.addr("%ptr")}, Type::S32, Space::Global);
  b.label("SKIP");
  branch_on(b, b.r("%x"));
  b.ret();
  EXPECT_EQ(labels(finalize(b.build())), "PD");
}

// clang -O0: mov %SPL, depot; cvta.local %SP, %SPL; st [%SP+off]; ld [%SP+off].
class DepotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    b.func("k");
    depot = b.symbol("__local_depot0", Space::Local, 32);
    b.op(Opcode::Mov, {b.r("%SPL", Type::B64), b.sym(depot)}, Type::U64);
    Instruction& cvta = b.op(Opcode::Cvta, {b.r("%SP", Type::B64), b.r("%SPL")}, Type::U64);
    cvta.space = Space::Local;
    b.op(Opcode::Mov, {b.r("%tid"), b.special(SpecialReg::Tid)});
    b.op(Opcode::Ld, {b.r("%data"), b.addr("%gptr")}, Type::S32, Space::Global);
  }
  void spill(const std::string& base, int64_t off, const std::string& val,
             Space s = Space::Generic) {
    b.op(Opcode::St, {b.addr(base, off), b.r(val)}, Type::U32, s);
  }
  void fill_and_branch(const std::string& base, int64_t off, Type t = Type::U32,
                       Space s = Space::Generic) {
    b.op(Opcode::Ld, {b.r("%f"), b.addr(base, off)}, t, s);
    branch_on(b, b.r("%f"));
  }
  ModuleBuilder b;
  uint32_t depot = 0;
};

TEST_F(DepotTest, SlotsKeepTheirTaint) {
  spill("%SP", 20, "%tid");
  spill("%SP", 24, "%data");
  fill_and_branch("%SP", 20);                            // P
  fill_and_branch("%SP", 24);                            // D
  fill_and_branch("%SPL", 20, Type::U32, Space::Local);  // same slot through %SPL: P
  b.op(Opcode::Add, {b.r("%a", Type::B64), b.r("%SP"), b.imm(16)}, Type::S64);
  fill_and_branch("%a", 4);               // %SP + 16 + 4 = slot 20: P
  fill_and_branch("%a", 8);               // slot 24: D
  fill_and_branch("%SP", 16, Type::U64);  // 8 bytes over 16..23: P
  fill_and_branch("%SP", 20, Type::U64);  // 8 bytes over 20..27 overlap slot 24: D
  b.ret();
  EXPECT_EQ(labels(finalize(b.build())), "PDPPDPD");
}

TEST_F(DepotTest, SlotsAreFlowInsensitive) {
  spill("%SP", 8, "%tid");
  fill_and_branch("%SP", 8);  // D: a later store puts data into the same slot
  spill("%SP", 8, "%data");
  b.ret();
  EXPECT_EQ(labels(finalize(b.build())), "D");
}

// int a[2] at frame offset 0 indexed by tid, a scalar at offset 8.
TEST_F(DepotTest, IndexedObjectsAndUnknownAddresses) {
  spill("%SP", 8, "%tid");
  b.op(Opcode::Mul, {b.r("%i", Type::B64), b.r("%tid"), b.imm(4)});
  b.op(Opcode::Add, {b.r("%e", Type::B64), b.r("%SP"), b.r("%i")}, Type::S64);  // &a[tid]
  spill("%e", 0, "%data");                                                      // a[tid] = data
  fill_and_branch("%e", 0);                                                     // a[tid]: D
  fill_and_branch("%SP", 8);  // the scalar after the array: still P
  b.op(Opcode::Xor, {b.r("%u", Type::B64), b.r("%SP"), b.r("%gptr")}, Type::B64);
  fill_and_branch("%u", 0);     // not an address into a known place: D
  fill_and_branch("%gptr", 0);  // a generic pointer that is not the frame: D
  b.ret();
  EXPECT_EQ(labels(finalize(b.build())), "DPDD");
}

// The element picked by a data-dependent index is data-dependent.
TEST_F(DepotTest, DataIndexIntoProgrammaticTable) {
  b.op(Opcode::Mul, {b.r("%i", Type::B64), b.r("%tid"), b.imm(4)});
  b.op(Opcode::Add, {b.r("%e", Type::B64), b.r("%SP"), b.r("%i")}, Type::S64);
  spill("%e", 0, "%tid");  // table[tid] = tid
  fill_and_branch("%e", 0);
  b.op(Opcode::Mul, {b.r("%j", Type::B64), b.r("%data"), b.imm(4)});
  b.op(Opcode::Add, {b.r("%g", Type::B64), b.r("%SP"), b.r("%j")}, Type::S64);
  fill_and_branch("%g", 0);  // table[data]
  b.ret();
  EXPECT_EQ(labels(finalize(b.build())), "PD");
}

TEST_F(DepotTest, EscapedFrameIsDataOnlyOnceDataIsWrittenThroughPointers) {
  spill("%SP", 8, "%tid");
  b.op(Opcode::St, {b.addr("%gptr"), b.r("%SP")}, Type::U64, Space::Global);  // &slot escapes
  fill_and_branch("%SP", 8);  // nobody writes data through a pointer: P
  b.ret();
  EXPECT_EQ(labels(finalize(b.build())), "P");
}

TEST_F(DepotTest, DataWrittenThroughAnEscapedPointerReachesTheSlot) {
  spill("%SP", 8, "%tid");
  b.op(Opcode::St, {b.addr("%gptr"), b.r("%SP")}, Type::U64, Space::Global);  // &slot escapes
  b.op(Opcode::Ld, {b.r("%q", Type::B64), b.addr("%gptr")}, Type::U64, Space::Global);
  spill("%q", 0, "%data");  // *(int**)gptr = data may write the slot
  fill_and_branch("%SP", 8);
  b.ret();
  EXPECT_EQ(labels(finalize(b.build())), "D");
}

// -O0 `set(&x)`: the callee writes through its pointer formal.
TEST(TaintBuilder, CalleeWritingThroughAFrameAddressTaintsTheCaller) {
  for (bool callee_writes_data : {false, true}) {
    ModuleBuilder b;
    b.func("set", false);
    uint32_t formal = b.formal("set_param_0");
    b.op(Opcode::Ld, {b.r("%ptr", Type::B64), b.addr_sym(formal)}, Type::U64, Space::Param);
    if (callee_writes_data)
      b.op(Opcode::Ld, {b.r("%v"), b.addr("%gptr")}, Type::S32, Space::Global);
    else
      b.op(Opcode::Mov, {b.r("%v"), b.imm(7)});
    b.op(Opcode::St, {b.addr("%ptr"), b.r("%v")}, Type::U32);
    b.ret();
    b.func("k");
    uint32_t depot = b.symbol("__local_depot1", Space::Local, 16);
    uint32_t p0 = b.symbol("param0", Space::Param, 8);
    b.op(Opcode::Mov, {b.r("%SP", Type::B64), b.sym(depot)}, Type::U64);
    b.op(Opcode::Mov, {b.r("%tid"), b.special(SpecialReg::Tid)});
    b.op(Opcode::St, {b.addr("%SP", 4), b.r("%tid")}, Type::U32);
    b.op(Opcode::Add, {b.r("%x", Type::B64), b.r("%SP"), b.imm(4)}, Type::S64);
    b.op(Opcode::St, {b.addr_sym(p0), b.r("%x")}, Type::B64, Space::Param);
    b.op(Opcode::Call, {b.vec({}), b.callee(0), b.vec({b.sym(p0)})}, Type::None);
    b.op(Opcode::Ld, {b.r("%f"), b.addr("%SP", 4)}, Type::U32);
    branch_on(b, b.r("%f"));
    b.ret();
    EXPECT_EQ(labels(finalize(b.build())), callee_writes_data ? "D" : "P");
  }
}

// helper(v) returns v + 1 through .param; called with data and with tid.
TEST(TaintBuilder, ReturnValuesFollowEachCallSite) {
  ModuleBuilder b;
  b.func("helper", false);
  uint32_t formal = b.formal("helper_param_0");
  uint32_t retval = b.formal("func_retval0", /*ret=*/true);
  b.op(Opcode::Ld, {b.r("%v"), b.addr_sym(formal)}, Type::U32, Space::Param);
  branch_on(b, b.r("%v"));  // D: one caller passes data
  b.op(Opcode::Add, {b.r("%w"), b.r("%v"), b.imm(1)});
  b.op(Opcode::St, {b.addr_sym(retval), b.r("%w")}, Type::B32, Space::Param);
  b.ret();

  b.func("k");
  auto call_helper = [&](const std::string& arg, const std::string& result) {
    uint32_t p0 = b.symbol("param0", Space::Param, 4), r0 = b.symbol("retval0", Space::Param, 4);
    b.op(Opcode::St, {b.addr_sym(p0), b.r(arg)}, Type::B32, Space::Param);
    b.op(Opcode::Call, {b.vec({b.sym(r0)}), b.callee(0), b.vec({b.sym(p0)})}, Type::None);
    b.op(Opcode::Ld, {b.r(result), b.addr_sym(r0)}, Type::B32, Space::Param);
  };
  b.op(Opcode::Mov, {b.r("%tid"), b.special(SpecialReg::Tid)});
  b.op(Opcode::Ld, {b.r("%data"), b.addr("%gptr")}, Type::S32, Space::Global);
  call_helper("%data", "%x");
  branch_on(b, b.r("%x"));  // D
  call_helper("%tid", "%y");
  branch_on(b, b.r("%y"));  // P
  b.ret();
  Program p = finalize(b.build());
  EXPECT_EQ(labels(p), "DDP");
  EXPECT_EQ(p.module.code[1].op, Opcode::Setp);
  EXPECT_EQ(p.branches[0].pc, 16u);  // the callee's own branch
}

TEST(TaintBuilder, FormalsArePOnlyWhenEveryCallerPassesP) {
  ModuleBuilder b;
  b.func("f", false);
  uint32_t formal = b.formal("f_param_0");
  b.op(Opcode::Ld, {b.r("%v"), b.addr_sym(formal)}, Type::U32, Space::Param);
  branch_on(b, b.r("%v"));
  b.ret();
  b.func("k");
  uint32_t p0 = b.symbol("param0", Space::Param, 4);
  b.op(Opcode::Mov, {b.r("%tid"), b.special(SpecialReg::Tid)});
  b.op(Opcode::St, {b.addr_sym(p0), b.r("%tid")}, Type::B32, Space::Param);
  b.op(Opcode::Call, {b.vec({}), b.callee(0), b.vec({b.sym(p0)})}, Type::None);
  b.ret();
  EXPECT_EQ(labels(finalize(b.build())), "P");
}

}  // namespace
}  // namespace warptlm
