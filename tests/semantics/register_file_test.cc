// The register file's form: the layout by declared type, the storage, and
// reads and writes of every kind through the semantics (mixed widths,
// predicates as lane bits, partial masks).
#include "semantics/register_file.h"

#include <cstdint>

#include "harness.h"

namespace warptlm::test {
namespace {

TEST(RegisterFile, KindFollowsTheDeclaredType) {
  EXPECT_EQ(reg_kind(Type::Pred), RegKind::Pred);
  for (Type t : {Type::B64, Type::U64, Type::S64, Type::F64}) EXPECT_EQ(reg_kind(t), RegKind::Wide);
  for (Type t : {Type::B8, Type::B16, Type::B32, Type::U8, Type::U16, Type::U32, Type::S8,
                 Type::S16, Type::S32, Type::F16, Type::F32})
    EXPECT_EQ(reg_kind(t), RegKind::Narrow);
}

TEST(RegisterFile, LayoutGroupsKindsOnCacheLines) {
  const std::vector<RegDecl> regs = {{"%r0", Type::B32}, {"%p0", Type::Pred}, {"%rd0", Type::U64},
                                     {"%h0", Type::B16}, {"%p1", Type::Pred}, {"%fd0", Type::F64}};
  const RegisterLayout l(regs, 32);
  ASSERT_EQ(l.slots.size(), regs.size());
  // Wide registers first (256 bytes each), then narrow (128), then predicates (8).
  EXPECT_EQ(l.slots[2].offset, 0u);
  EXPECT_EQ(l.slots[5].offset, 256u);
  EXPECT_EQ(l.slots[0].offset, 512u);
  EXPECT_EQ(l.slots[3].offset, 640u);
  EXPECT_EQ(l.slots[1].offset, 768u);
  EXPECT_EQ(l.slots[4].offset, 776u);
  EXPECT_EQ(l.slots[2].kind, RegKind::Wide);
  EXPECT_EQ(l.slots[3].kind, RegKind::Narrow);
  EXPECT_EQ(l.slots[4].kind, RegKind::Pred);
  EXPECT_EQ(l.bytes, 832u);
  // A narrow warp: each group still starts on a cache line.
  const RegisterLayout n(regs, 4);
  EXPECT_EQ(n.slots[2].offset, 0u);
  EXPECT_EQ(n.slots[5].offset, 32u);
  EXPECT_EQ(n.slots[0].offset, 64u);
  EXPECT_EQ(n.slots[3].offset, 80u);
  EXPECT_EQ(n.slots[1].offset, 128u);
  EXPECT_EQ(n.bytes, 192u);
  EXPECT_EQ(RegisterLayout({}, 32).bytes, 0u);
}

TEST(RegisterFile, StorageIsZeroedAlignedAndReused) {
  RegisterStorage s;
  s.reset(256);
  ASSERT_NE(s.data(), nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(s.data()) % kRegisterAlign, 0u);
  for (size_t i = 0; i < 256; ++i) s.data()[i] = 0xab;
  const uint8_t* before = s.data();
  s.reset(128);
  EXPECT_EQ(s.data(), before);
  EXPECT_EQ(s.size(), 128u);
  for (size_t i = 0; i < 128; ++i) ASSERT_EQ(s.data()[i], 0) << i;
  RegisterStorage moved = std::move(s);
  EXPECT_EQ(moved.data(), before);
  s.reset(64);  // a moved-from storage allocates again
  ASSERT_NE(s.data(), nullptr);
  EXPECT_EQ(s.data()[63], 0);
}

TEST(RegisterFile, GetAndSetPerKind) {
  const std::vector<RegDecl> decls = {{"%rd", Type::U64}, {"%r", Type::U32}, {"%p", Type::Pred}};
  const RegisterLayout l(decls, 8);
  RegisterStorage s;
  s.reset(l.bytes);
  const WarpRegisters regs{s.data(), l.slots.data(), 8};
  regs.set(0, 3, 0x123456789abcdef0ull);
  regs.set(1, 3, 0xfedcba98u);
  regs.set(2, 3, 1);
  regs.set(2, 5, 1);
  regs.set(2, 5, 0);
  regs.set(2, 7, 1);
  EXPECT_EQ(regs.get(0, 3), 0x123456789abcdef0ull);
  EXPECT_EQ(regs.get(1, 3), 0xfedcba98u);
  EXPECT_EQ(regs.narrow(1)[3], 0xfedcba98u);
  EXPECT_EQ(*regs.pred(2), LaneMask(0x88));
  EXPECT_EQ(regs.get(2, 3), 1u);
  EXPECT_EQ(regs.get(2, 5), 0u);
  EXPECT_EQ(regs.get(0, 2), 0u);
}

// setp over some lanes of a warp writes their predicate bits only, and a
// guard reads the predicate as one lane mask.
TEST(RegisterFile, PredicateLanesAndGuard) {
  Harness h(32);
  const uint32_t a = h.reg(Type::U32), p = h.reg(Type::Pred), d = h.reg(Type::U32);
  for (unsigned l = 0; l < 32; ++l) h.set(a, l, l);
  h.set_all(p, 1);
  Instruction setp =
      Harness::make(Opcode::Setp, Type::U32, {h.r(p), Harness::sink(), h.r(a), Harness::imm(8)});
  setp.cmp = CmpOp::Lt;
  h.run(setp, 0xffff);  // lanes 0..15: p = lane < 8; lanes 16..31 keep 1
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(h.get(p, l), l < 8 || l >= 16 ? 1u : 0u) << l;
  Instruction mov = Harness::make(Opcode::Mov, Type::U32, {h.r(d), Harness::imm(7)});
  mov.has_guard = true;
  mov.guard_reg = p;
  mov.guard_negated = true;
  EXPECT_EQ(h.run(mov).executed, LaneMask(0xff00));
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(h.get(d, l), l >= 8 && l < 16 ? 7u : 0u) << l;
}

// A predicate read as a value (selp's selector, and.pred, a mov into a
// .u32 register) and written from one (a per-lane write keeps the other
// lanes' bits).
TEST(RegisterFile, PredicatesAsValues) {
  Harness h(8);
  const uint32_t p = h.reg(Type::Pred), q = h.reg(Type::Pred), r = h.reg(Type::Pred),
                 d = h.reg(Type::U32);
  for (unsigned l = 0; l < 8; ++l) {
    h.set(p, l, l & 1);
    h.set(q, l, (l >> 1) & 1);
  }
  h.run(Harness::make(Opcode::And, Type::Pred, {h.r(r), h.r(p), h.r(q)}));
  h.run(Harness::make(Opcode::Selp, Type::U32, {h.r(d), Harness::imm(5), Harness::imm(9), h.r(r)}));
  for (unsigned l = 0; l < 8; ++l) {
    EXPECT_EQ(h.get(r, l), (l & 3) == 3 ? 1u : 0u) << l;
    EXPECT_EQ(h.get(d, l), (l & 3) == 3 ? 5u : 9u) << l;
  }
  h.run(Harness::make(Opcode::Not, Type::Pred, {h.r(r), h.r(r)}), 0x0f);
  for (unsigned l = 0; l < 8; ++l)
    EXPECT_EQ(h.get(r, l), l < 4 ? ((l & 3) != 3) : (l & 3) == 3) << l;
  h.run(Harness::make(Opcode::Mov, Type::U32, {h.r(d), h.r(p, false)}));
  for (unsigned l = 0; l < 8; ++l) EXPECT_EQ(h.get(d, l), l & 1u) << l;
}

// Narrow registers: a negative .s16 value written into a .b32 register is
// sign-extended to 32 bits and read back zero-extended; a .b16 register keeps
// 16 bits; a 64-bit result into a .u32 register is truncated.
TEST(RegisterFile, NarrowRegistersKeepTheirDeclaredWidth) {
  Harness h(4);
  const uint32_t r32 = h.reg(Type::B32), h16 = h.reg(Type::B16), rd = h.reg(Type::U64),
                 u32 = h.reg(Type::U32);
  Instruction cvt = Harness::make(Opcode::Cvt, Type::S32, {h.r(r32), Harness::imm(-2)});
  cvt.src_type = Type::S16;
  h.run(cvt);
  EXPECT_EQ(h.get(r32, 0), 0xfffffffeu);
  h.run(Harness::make(Opcode::Mov, Type::B16, {h.r(h16), Harness::imm(0x12345)}));
  EXPECT_EQ(h.get(h16, 1), 0x2345u);
  Instruction wide = Harness::make(Opcode::Cvt, Type::U64, {h.r(rd), h.r(r32)});
  wide.src_type = Type::U32;
  h.run(wide);
  EXPECT_EQ(h.get(rd, 2), 0xfffffffeu);
  h.set_all(rd, 0x1234567800000010ull);
  Instruction narrow = Harness::make(Opcode::Cvt, Type::U32, {h.r(u32), h.r(rd)});
  narrow.src_type = Type::U64;
  h.run(narrow);
  EXPECT_EQ(h.get(u32, 3), 0x10u);
  // add.u64 into a .u32 register: the declared width truncates.
  h.run(Harness::make(Opcode::Add, Type::U64, {h.r(u32), h.r(rd), Harness::imm(1)}));
  EXPECT_EQ(h.get(u32, 0), 0x11u);
}

// A .b32 address register (32-bit address arithmetic), a narrower load into
// a .b32 register, and a vector load into narrow registers.
TEST(RegisterFile, NarrowAddressesAndLoads) {
  Harness h(4);
  const uint32_t a = h.reg(Type::B32), d = h.reg(Type::B32), v0 = h.reg(Type::B32),
                 v1 = h.reg(Type::B32);
  for (unsigned l = 0; l < 4; ++l) h.set(a, l, 0x100 + 8 * l);
  for (unsigned i = 0; i < 8; ++i) h.env.poke<uint32_t>(Space::Global, 0x100 + 4 * i, 0xf0 + i);
  Instruction ld8 = Harness::make(Opcode::Ld, Type::S8, {h.r(d), h.addr(a)});
  ld8.space = Space::Global;
  h.env.poke<uint8_t>(Space::Global, 0x108, 0x80);
  h.run(ld8);
  EXPECT_EQ(h.get(d, 0), 0xfffffff0u);
  EXPECT_EQ(h.get(d, 1), 0xffffff80u);
  Instruction ldv =
      Harness::make(Opcode::Ld, Type::B32, {Harness::vec({h.r(v0), h.r(v1)}), h.addr(a)});
  ldv.space = Space::Global;
  ldv.vec = 2;
  h.run(ldv);
  const uint64_t want0[] = {0xf0, 0x80, 0xf4, 0xf6}, want1[] = {0xf1, 0xf3, 0xf5, 0xf7};
  for (unsigned l = 0; l < 4; ++l) {
    EXPECT_EQ(h.get(v0, l), want0[l]) << l;
    EXPECT_EQ(h.get(v1, l), want1[l]) << l;
  }
}

// shfl reads a narrow source for every lane and writes a narrow result and
// a predicate; vote reads predicates and writes a predicate and a ballot.
TEST(RegisterFile, WarpOperations) {
  Harness h(8);
  const uint32_t a = h.reg(Type::B32), d = h.reg(Type::B32), in = h.reg(Type::Pred),
                 p = h.reg(Type::Pred), b = h.reg(Type::B32), any = h.reg(Type::Pred);
  for (unsigned l = 0; l < 8; ++l) h.set(a, l, 10 + l);
  Instruction shfl = Harness::make(Opcode::Shfl, Type::B32,
                                   {h.r(d), h.r(p), h.r(a), Harness::imm(1), Harness::imm(0x1f)});
  shfl.shfl = ShflMode::Down;
  h.run(shfl);
  for (unsigned l = 0; l < 8; ++l) {
    EXPECT_EQ(h.get(d, l), l < 7 ? 11u + l : 17u) << l;
    EXPECT_EQ(h.get(p, l), l < 7 ? 1u : 0u) << l;
  }
  Instruction ballot = Harness::make(Opcode::Vote, Type::B32, {h.r(b), h.r(p)});
  ballot.vote = VoteMode::Ballot;
  h.run(ballot);
  EXPECT_EQ(h.get(b, 4), 0x7fu);
  Instruction vany = Harness::make(Opcode::Vote, Type::Pred, {h.r(any), h.r(in, true)});
  vany.vote = VoteMode::All;
  h.run(vany);
  EXPECT_EQ(h.get(any, 0), 1u);  // !in holds in every lane
}

}  // namespace
}  // namespace warptlm::test
