// Which registers each kind of instruction reads and writes, on instructions
// parsed from PTX text.
#include <gtest/gtest.h>

#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <string>

#include "operand_test_util.h"

namespace warptlm {
namespace {

using test::Names;

struct Case {
  const char* text;
  Names reads, writes;
};

// Reads list the guard first, then sources in operand order, each register once.
const Case kCases[] = {
    {"add.s32 %r1, %r2, %r3", {"%r2", "%r3"}, {"%r1"}},
    {"add.s32 %r1, %r2, %r2", {"%r2"}, {"%r1"}},
    {"@!%p1 mad.lo.s32 %r1, %r2, %r3, %r1", {"%p1", "%r2", "%r3", "%r1"}, {"%r1"}},
    {"fma.rn.f32 %f1, %f2, %f3, %f4", {"%f2", "%f3", "%f4"}, {"%f1"}},
    {"cvt.rn.f32.s32 %f1, %r1", {"%r1"}, {"%f1"}},
    {"bfi.b32 %r1, %r2, %r3, %r4, 8", {"%r2", "%r3", "%r4"}, {"%r1"}},
    {"lop3.b32 %r1, %r2, %r3, %r4, 0x96", {"%r2", "%r3", "%r4"}, {"%r1"}},
    // setp: both predicates of p|q are written; the combine predicate is read.
    {"setp.lt.and.s32 %p1|%p2, %r1, 5, %p3", {"%r1", "%p3"}, {"%p1", "%p2"}},
    {"setp.eq.u32 %p1, %r1, %r2", {"%r1", "%r2"}, {"%p1"}},
    {"selp.b32 %r1, %r2, 3, %p1", {"%r2", "%p1"}, {"%r1"}},
    {"testp.finite.f32 %p1, %f1", {"%f1"}, {"%p1"}},
    // Memory: address base registers are read; vector elements are read or written.
    {"ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16]", {"%rd1"}, {"%f1", "%f2", "%f3", "%f4"}},
    {"st.global.v2.u32 [%rd2], {%r1, %r2}", {"%rd2", "%r1", "%r2"}, {}},
    {"st.shared.u32 [sh+4], %r3", {"%r3"}, {}},
    {"ld.param.u64 %rd1, [p]", {}, {"%rd1"}},
    {"ld.global.v2.u32 {%r1, _}, [%rd1]", {"%rd1"}, {"%r1"}},  // `_` discards
    {"atom.global.cas.b32 %r1, [%rd1], %r2, %r3", {"%rd1", "%r2", "%r3"}, {"%r1"}},
    {"red.global.add.u32 [%rd1], %r2", {"%rd1", "%r2"}, {}},
    // The carry flag: written by .cc, read by addc/madc.
    {"add.cc.u32 %r1, %r2, %r3", {"%r2", "%r3"}, {"%r1", "%cc.cf"}},
    {"addc.cc.u32 %r4, %r5, %r6", {"%r5", "%r6", "%cc.cf"}, {"%r4", "%cc.cf"}},
    {"addc.u32 %r4, %r5, 0", {"%r5", "%cc.cf"}, {"%r4"}},
    {"mad.lo.cc.u32 %r1, %r2, %r3, %r4", {"%r2", "%r3", "%r4"}, {"%r1", "%cc.cf"}},
    // Warp operations: shfl's optional predicate is a destination; member masks are read.
    {"shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, %r3", {"%r2", "%r3"}, {"%r1", "%p1"}},
    {"shfl.sync.down.b32 %r1, %r2, %r4, 31, -1", {"%r2", "%r4"}, {"%r1"}},
    {"vote.sync.ballot.b32 %r1, !%p2, %r3", {"%p2", "%r3"}, {"%r1"}},
    {"activemask.b32 %r1", {}, {"%r1"}},
    {"redux.sync.add.u32 %r1, %r2, -1", {"%r2"}, {"%r1"}},
    // Moves: specials and symbol addresses are no registers; pack and unpack.
    {"mov.u32 %r1, %tid.x", {}, {"%r1"}},
    {"mov.u64 %rd1, sh", {}, {"%rd1"}},
    {"mov.b64 {%r1, %r2}, %rd1", {"%rd1"}, {"%r1", "%r2"}},
    {"mov.b64 %rd1, {%r1, %r2}", {"%r1", "%r2"}, {"%rd1"}},
    {"cvta.to.global.u64 %rd1, %rd2", {"%rd2"}, {"%rd1"}},
    // Control and synchronisation write nothing; their guard and operands are read.
    {"bar.sync %r1", {"%r1"}, {}},
    {"bar.sync 0", {}, {}},
    {"membar.gl", {}, {}},
    {"@%p1 bra L", {"%p1"}, {}},
    {"call.uni (rv), f, (arg)", {}, {}},
    {"@%p2 ret", {"%p2"}, {}},
    {"exit", {}, {}},
};

TEST(RegisterOperands, ReadsAndWritesPerOpcode) {
  std::string body =
      ".reg .pred %p<4>; .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .f32 %f<6>;\n"
      ".shared .align 4 .b8 sh[64];\n"
      ".param .b32 arg; .param .b32 rv;\n"
      "L:\n";
  for (const Case& c : kCases) body += std::string(c.text) + ";\n";
  const Module m = test::parse_body(body, ".func (.param .b32 r) f(.param .b32 a)\n{\nret;\n}\n");
  const Function& k = m.functions.back();
  ASSERT_EQ((k.end - k.begin) / kInstrBytes, std::size(kCases));
  const OperandTable table(m);
  ASSERT_EQ(table.size(), m.code.size());
  for (size_t i = 0; i < std::size(kCases); ++i) {
    const Pc pc = k.begin + i * kInstrBytes;
    const RegisterOperands& ops = table.at(pc);
    EXPECT_EQ(test::names(m, pc, ops.reads(), ops.n_reads), kCases[i].reads) << kCases[i].text;
    EXPECT_EQ(test::names(m, pc, ops.writes(), ops.n_writes), kCases[i].writes) << kCases[i].text;
    const Opcode op = m.at(pc).op;
    EXPECT_EQ(ops.frame_change, op == Opcode::Call || op == Opcode::Ret) << kCases[i].text;
  }
  // The callee's own instructions are in the table too (ret of f at pc 0).
  EXPECT_EQ(table.at(0).n_reads, 0);
  EXPECT_EQ(table.at(0).n_writes, 0);
  EXPECT_TRUE(table.at(0).frame_change);
}

TEST(RegisterOperands, RowsStartOnACacheLineWithTheListsPacked) {
  const Module m = test::parse_body(
      ".reg .pred %p<2>; .reg .b32 %r<8>;\n"
      "@%p1 mad.lo.s32 %r1, %r2, %r3, %r4;\n"
      "setp.lt.s32 %p1|%p0, %r5, %r6;\n"
      "exit;");
  const OperandTable table(m);
  for (Pc pc = 0; pc < 3 * kInstrBytes; pc += kInstrBytes) {
    const RegisterOperands& ops = table.at(pc);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(&ops) % 64, 0u) << pc;
    // Writes follow the reads directly: both lists end within the first line.
    EXPECT_EQ(ops.writes(), ops.reads() + ops.n_reads) << pc;
    EXPECT_LE(reinterpret_cast<const char*>(ops.writes() + ops.n_writes) -
                  reinterpret_cast<const char*>(&ops),
              64)
        << pc;
  }
  EXPECT_EQ(test::names(m, 0, table.at(0).writes(), table.at(0).n_writes), (Names{"%r1"}));
  EXPECT_EQ(test::names(m, kInstrBytes, table.at(kInstrBytes).writes(), 2), (Names{"%p1", "%p0"}));
}

TEST(RegisterOperands, TableRejectsPcsWithoutAnInstruction) {
  const Module m = test::parse_body("exit;");
  const OperandTable table(m);
  EXPECT_NO_THROW(table.at(0));
  EXPECT_THROW(table.at(kInstrBytes), std::invalid_argument);  // one past the end
  EXPECT_THROW(table.at(3), std::invalid_argument);            // not instruction-aligned
  try {
    table.at(kExitPc);
    ADD_FAILURE() << "no error for the virtual exit pc";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("pc:", 0), 0u) << e.what();
  }
}

TEST(RegisterOperands, TooManyRegistersNameTheInstruction) {
  // No PTX instruction has 25 distinct sources; build one by hand.
  Instruction in;
  in.op = Opcode::St;
  in.text = "st.huge";
  Operand addr;
  addr.kind = Operand::Kind::Address;
  addr.has_reg = true;
  addr.reg = 100;
  Operand vec;
  vec.kind = Operand::Kind::Vector;
  for (uint32_t r = 0; r < RegisterOperands::kMax - 1; ++r) {
    Operand e;
    e.kind = Operand::Kind::Reg;
    e.reg = r;
    vec.elems.push_back(e);
  }
  in.ops = {addr, vec};
  // kMax reads exactly: the address base and kMax - 1 elements.
  EXPECT_EQ(register_operands(in).n_reads, RegisterOperands::kMax);
  in.ops[1].elems.push_back(in.ops[1].elems[0]);  // a repeat does not count
  EXPECT_EQ(register_operands(in).n_reads, RegisterOperands::kMax);
  in.ops[1].elems.back().reg = 200;
  try {
    register_operands(in);
    ADD_FAILURE() << "no error for kMax + 1 reads";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("st.huge"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace warptlm
