// ld/st (widths, sign extension, vectors with sinks, address forms,
// alignment faults, state spaces, lane order) and atom/red.
#include <random>
#include <string>

#include "harness.h"

namespace warptlm::test {
namespace {

Instruction mem_inst(Opcode op, Type t, Space s, std::vector<Operand> ops, uint8_t vec = 1) {
  Instruction in = Harness::make(op, t, std::move(ops));
  in.space = s;
  in.vec = vec;
  return in;
}

TEST(MemoryOps, LoadPerLaneAddresses) {
  Harness h;
  const uint32_t d = h.reg(Type::U32), a = h.reg(Type::U64);
  for (unsigned l = 0; l < 4; ++l) {
    h.set(a, l, 0x100 + 8 * l);
    h.env.poke<uint32_t>(Space::Global, 0x104 + 8 * l, 1000 + l);
  }
  h.run(mem_inst(Opcode::Ld, Type::U32, Space::Global, {h.r(d), h.addr(a, 4)}), 0b1011);
  EXPECT_EQ(h.get(d, 0), 1000u);
  EXPECT_EQ(h.get(d, 1), 1001u);
  EXPECT_EQ(h.get(d, 2), 0u);  // not executed: untouched
  EXPECT_EQ(h.get(d, 3), 1003u);
  ASSERT_EQ(h.env.log.size(), 3u);
  EXPECT_EQ(h.env.log[0].lane, 0u);
  EXPECT_EQ(h.env.log[1].lane, 1u);
  EXPECT_EQ(h.env.log[2].lane, 3u);
  EXPECT_EQ(h.env.log[2].addr, 0x11cu);
  EXPECT_EQ(h.env.log[2].space, Space::Global);
}

TEST(MemoryOps, NarrowLoadsExtendByType) {
  Harness h;
  h.env.poke<uint8_t>(Space::Shared, 0, 0x80);
  h.env.poke<uint16_t>(Space::Shared, 2, 0x8001);
  h.env.poke<float>(Space::Shared, 4, 2.5f);
  const uint32_t s32 = h.reg(Type::S32), u32 = h.reg(Type::U32), s64 = h.reg(Type::S64),
                 u16 = h.reg(Type::U16), f = h.reg(Type::F32);
  h.run(mem_inst(Opcode::Ld, Type::S8, Space::Shared, {h.r(s32), Harness::abs_addr(0)}), 1);
  h.run(mem_inst(Opcode::Ld, Type::U8, Space::Shared, {h.r(u32), Harness::abs_addr(0)}), 1);
  h.run(mem_inst(Opcode::Ld, Type::S16, Space::Shared, {h.r(s64), Harness::abs_addr(2)}), 1);
  h.run(mem_inst(Opcode::Ld, Type::U8, Space::Shared, {h.r(u16), Harness::abs_addr(0)}), 1);
  h.run(mem_inst(Opcode::Ld, Type::F32, Space::Shared, {h.r(f), Harness::abs_addr(4)}), 1);
  EXPECT_EQ(h.get(s32, 0), 0xffffff80u);
  EXPECT_EQ(h.get(u32, 0), 0x80u);
  EXPECT_EQ(h.get(s64, 0), 0xffffffffffff8001ull);
  EXPECT_EQ(h.get(u16, 0), 0x80u);
  EXPECT_EQ(h.get(f, 0), fbits(2.5f));
  EXPECT_EQ(h.env.log[0].space, Space::Shared);
}

TEST(MemoryOps, VectorLoadWithSink) {
  Harness h;
  for (uint32_t i = 0; i < 4; ++i) h.env.poke<uint32_t>(Space::Global, 0x40 + 4 * i, 10 + i);
  const uint32_t r0 = h.reg(Type::U32), r1 = h.reg(Type::U32), r3 = h.reg(Type::U32);
  h.run(
      mem_inst(
          Opcode::Ld, Type::U32, Space::Global,
          {Harness::vec({h.r(r0), h.r(r1), Harness::sink(), h.r(r3)}), Harness::abs_addr(0x40)}, 4),
      1);
  EXPECT_EQ(h.get(r0, 0), 10u);
  EXPECT_EQ(h.get(r1, 0), 11u);
  EXPECT_EQ(h.get(r3, 0), 13u);
  ASSERT_EQ(h.env.log.size(), 1u);  // one 16-byte access
  EXPECT_EQ(h.env.log[0].size, 16u);
  const uint32_t d0 = h.reg(Type::F64), d1 = h.reg(Type::F64);
  h.env.poke<double>(Space::Local, 16, 1.25);
  h.env.poke<double>(Space::Local, 24, -3.0);
  h.run(mem_inst(Opcode::Ld, Type::F64, Space::Local,
                 {Harness::vec({h.r(d0), h.r(d1)}), Harness::abs_addr(16)}, 2),
        1);
  EXPECT_EQ(h.get(d0, 0), dbits(1.25));
  EXPECT_EQ(h.get(d1, 0), dbits(-3.0));
}

TEST(MemoryOps, StoresScalarVectorImmediateAndSink) {
  Harness h;
  const uint32_t a = h.reg(Type::U64), v = h.reg(Type::U16), w = h.reg(Type::B32);
  h.set(a, 0, 0x80);
  h.set(v, 0, 0xbeef);
  h.set(w, 0, 0x11223344);
  h.run(mem_inst(Opcode::St, Type::U16, Space::Global,
                 {h.addr(a), Harness::vec({h.r(v), Harness::imm(0x1234)})}, 2),
        1);
  EXPECT_EQ(h.env.peek<uint32_t>(Space::Global, 0x80), 0x1234beefu);
  h.env.poke<uint32_t>(Space::Global, 0x94, 0xcafef00d);
  h.run(mem_inst(Opcode::St, Type::B32, Space::Global,
                 {h.addr(a, 0x10),
                  Harness::vec({h.r(w), Harness::sink(), Harness::imm(7), Harness::imm(-1)})},
                 4),
        1);
  EXPECT_EQ(h.env.peek<uint32_t>(Space::Global, 0x90), 0x11223344u);
  EXPECT_EQ(h.env.peek<uint32_t>(Space::Global, 0x94), 0xcafef00du);  // `_` leaves it
  EXPECT_EQ(h.env.peek<uint32_t>(Space::Global, 0x98), 7u);
  EXPECT_EQ(h.env.peek<uint32_t>(Space::Global, 0x9c), 0xffffffffu);
  // A narrow store takes the low bits of a wider register.
  h.run(mem_inst(Opcode::St, Type::U8, Space::Global, {Harness::abs_addr(0xa0), h.r(w)}), 1);
  EXPECT_EQ(h.env.peek<uint8_t>(Space::Global, 0xa0), 0x44u);
}

TEST(MemoryOps, MisalignedAccessFaults) {
  Harness h;
  const uint32_t d = h.reg(Type::U32), a = h.reg(Type::U64);
  h.set(a, 0, 0x100);
  h.set(a, 1, 0x104);
  h.set(a, 2, 0x102);
  try {
    h.run(mem_inst(Opcode::Ld, Type::U32, Space::Global, {h.r(d), h.addr(a)}), 0b111);
    FAIL() << "expected a fault";
  } catch (const MemoryFault& f) {
    EXPECT_EQ(f.reason, MemoryFault::Reason::Misaligned);
    EXPECT_EQ(f.address, 0x102u);
    EXPECT_EQ(f.size, 4u);
    EXPECT_EQ(f.lane, 2u);
    EXPECT_EQ(f.space, Space::Global);
  }
  // A vector access must be aligned to its whole size (8 here).
  const uint32_t e = h.reg(Type::U32);
  try {
    h.run(mem_inst(Opcode::St, Type::U32, Space::Shared,
                   {h.addr(a), Harness::vec({h.r(d), h.r(e)})}, 2),
          0b010);
    FAIL() << "expected a fault";
  } catch (const MemoryFault& f) {
    EXPECT_EQ(f.reason, MemoryFault::Reason::Misaligned);
    EXPECT_EQ(f.size, 8u);
    EXPECT_EQ(f.lane, 1u);
  }
}

// A warp's accesses fault as lane-by-lane accesses would: the lowest lane that
// faults (out of bounds or misaligned) is reported, the lanes below it have
// accessed memory (loads: their registers are written) and the lanes above
// it have not.
TEST(MemoryOps, FaultsInLaneOrderOutOfBoundsBeforeMisaligned) {
  Harness h;
  const uint32_t d = h.reg(Type::U32), a = h.reg(Type::U64);
  for (unsigned l = 0; l < 4; ++l) h.env.poke<uint32_t>(Space::Global, 0x100 + 4 * l, 10 + l);
  h.set(a, 0, 0x100);
  h.set(a, 1, FakeEnv::kMemBytes);  // out of bounds
  h.set(a, 2, 0x102);               // misaligned
  h.set(a, 3, 0x10c);
  h.set_all(d, 7);
  try {
    h.run(mem_inst(Opcode::Ld, Type::U32, Space::Global, {h.r(d), h.addr(a)}));
    FAIL() << "expected a fault";
  } catch (const MemoryFault& f) {
    EXPECT_EQ(f.reason, MemoryFault::Reason::OutOfBounds);
    EXPECT_EQ(f.lane, 1u);
  }
  EXPECT_EQ(h.get(d, 0), 10u);  // loaded before the fault
  EXPECT_EQ(h.get(d, 2), 7u);
  EXPECT_EQ(h.get(d, 3), 7u);
  ASSERT_EQ(h.env.log.size(), 2u);  // lanes 0 and 1 asked, nothing after
  EXPECT_EQ(h.env.log[1].lane, 1u);

  // Stores: lane 0 has stored, lanes 2 and 3 have not.
  h.env.log.clear();
  const uint32_t v = h.reg(Type::U32);
  for (unsigned l = 0; l < 4; ++l) h.set(v, l, 100 + l);
  try {
    h.run(mem_inst(Opcode::St, Type::U32, Space::Global, {h.addr(a), h.r(v)}));
    FAIL() << "expected a fault";
  } catch (const MemoryFault& f) {
    EXPECT_EQ(f.reason, MemoryFault::Reason::OutOfBounds);
    EXPECT_EQ(f.lane, 1u);
  }
  EXPECT_EQ(h.env.peek<uint32_t>(Space::Global, 0x100), 100u);
  EXPECT_EQ(h.env.peek<uint32_t>(Space::Global, 0x10c), 13u);
  ASSERT_EQ(h.env.log.size(), 2u);
}

TEST(MemoryOps, FaultsInLaneOrderMisalignedBeforeOutOfBounds) {
  Harness h;
  const uint32_t d = h.reg(Type::U32), a = h.reg(Type::U64), v = h.reg(Type::U32);
  for (unsigned l = 0; l < 4; ++l) {
    h.env.poke<uint32_t>(Space::Shared, 0x40 + 4 * l, 20 + l);
    h.set(v, l, 200 + l);
  }
  h.set(a, 0, 0x40);
  h.set(a, 1, 0x44);
  h.set(a, 2, 0x4a);                // misaligned
  h.set(a, 3, FakeEnv::kMemBytes);  // out of bounds, but after the misaligned lane
  try {
    h.run(mem_inst(Opcode::Ld, Type::U32, Space::Shared, {h.r(d), h.addr(a)}), 0b1110);
    FAIL() << "expected a fault";
  } catch (const MemoryFault& f) {
    EXPECT_EQ(f.reason, MemoryFault::Reason::Misaligned);
    EXPECT_EQ(f.lane, 2u);
    EXPECT_EQ(f.address, 0x4au);
  }
  EXPECT_EQ(h.get(d, 0), 0u);  // not active
  EXPECT_EQ(h.get(d, 1), 21u);
  EXPECT_EQ(h.get(d, 3), 0u);
  ASSERT_EQ(h.env.log.size(), 1u);  // lane 1 only
  try {
    h.run(mem_inst(Opcode::St, Type::U32, Space::Shared, {h.addr(a), h.r(v)}));
    FAIL() << "expected a fault";
  } catch (const MemoryFault& f) {
    EXPECT_EQ(f.reason, MemoryFault::Reason::Misaligned);
    EXPECT_EQ(f.lane, 2u);
  }
  EXPECT_EQ(h.env.peek<uint32_t>(Space::Shared, 0x40), 200u);
  EXPECT_EQ(h.env.peek<uint32_t>(Space::Shared, 0x44), 201u);
  EXPECT_EQ(h.env.peek<uint32_t>(Space::Shared, 0x48), 22u);
  // A whole 32-lane warp (the counted loops) reports its lowest bad lane too.
  Harness w(32);
  const uint32_t wd = w.reg(Type::U64), wa = w.reg(Type::U64);
  for (unsigned l = 0; l < 32; ++l) w.set(wa, l, 8 * l);
  w.set(wa, 20, 8 * 20 + 4);
  w.set(wa, 9, 8 * 9 + 2);
  try {
    w.run(mem_inst(Opcode::Ld, Type::U64, Space::Local, {w.r(wd), w.addr(wa)}));
    FAIL() << "expected a fault";
  } catch (const MemoryFault& f) {
    EXPECT_EQ(f.lane, 9u);
  }
  EXPECT_EQ(w.env.log.size(), 9u);
}

TEST(MemoryOps, AddressForms) {
  Harness h;
  h.env.symbols = {0x20, 0x300};
  h.env.poke<uint32_t>(Space::Param, 0x28, 77);
  h.env.poke<uint32_t>(Space::Global, 4, 88);
  h.env.poke<uint32_t>(Space::Shared, 0x10, 99);
  const uint32_t d = h.reg(Type::U32), e = h.reg(Type::U32), f = h.reg(Type::U32),
                 a32 = h.reg(Type::U32), g = h.reg(Type::U32), gp = h.reg(Type::U64);
  h.run(mem_inst(Opcode::Ld, Type::U32, Space::Param, {h.r(d), Harness::symbol_addr(0, 8)}), 1);
  EXPECT_EQ(h.get(d, 0), 77u);
  // A 32-bit base register gives 32-bit address arithmetic.
  h.set(a32, 0, 0xfffffffc);
  h.run(mem_inst(Opcode::Ld, Type::U32, Space::Global, {h.r(e), h.addr(a32, 8)}), 1);
  EXPECT_EQ(h.get(e, 0), 88u);
  h.run(mem_inst(Opcode::Ld, Type::U32, Space::Shared, {h.r(f), Harness::abs_addr(0x10)}), 1);
  EXPECT_EQ(h.get(f, 0), 99u);
  // Generic addresses are passed through; the environment resolves the window.
  h.set(gp, 0, address_map::kSharedBase + 0x10);
  h.run(mem_inst(Opcode::Ld, Type::U32, Space::Generic, {h.r(g), h.addr(gp)}), 1);
  EXPECT_EQ(h.get(g, 0), 99u);
  EXPECT_EQ(h.env.log.back().space, Space::Generic);
  EXPECT_EQ(h.env.log.back().addr, address_map::kSharedBase + 0x10);
}

// A variable's address is the same for every lane: one question per
// instruction, none when no lane executes.
TEST(MemoryOps, SymbolAddressAskedOncePerInstruction) {
  Harness h;
  h.env.symbols = {0x40};
  for (unsigned l = 0; l < 4; ++l) h.env.poke<uint32_t>(Space::Shared, 0x48 + 4 * l, 50 + l);
  const uint32_t d = h.reg(Type::U32), p = h.reg(Type::U64);
  h.run(mem_inst(Opcode::Ld, Type::U32, Space::Shared, {h.r(d), Harness::symbol_addr(0, 12)}),
        0b1101);
  EXPECT_EQ(h.env.symbol_lookups, 1u);
  EXPECT_EQ(h.get(d, 0), 51u);  // [0x40 + 12]
  EXPECT_EQ(h.get(d, 3), 51u);
  h.run(mem_inst(Opcode::St, Type::U32, Space::Shared, {Harness::symbol_addr(0, 8), h.r(d)}));
  EXPECT_EQ(h.env.symbol_lookups, 2u);
  EXPECT_EQ(h.env.peek<uint32_t>(Space::Shared, 0x48), 51u);  // lane 3 stores last
  h.run(Harness::make(Opcode::Mov, Type::U64, {h.r(p), Harness::symbol(0, 4)}));
  EXPECT_EQ(h.env.symbol_lookups, 3u);
  for (unsigned l = 0; l < 4; ++l) EXPECT_EQ(h.get(p, l), 0x44u);
  h.run(Harness::make(Opcode::Mov, Type::U64, {h.r(p), Harness::symbol(0, 4)}), 0);
  EXPECT_EQ(h.env.symbol_lookups, 3u);
}

// Runs atom.<op>.<t> d, [0x200], b[, c] on all four lanes; b/c per lane.
std::vector<uint64_t> atom(Harness& h, AtomOp op, Type t, std::vector<uint64_t> b,
                           std::vector<uint64_t> c = {}, Space s = Space::Global) {
  const uint32_t d = h.reg(t), br = h.reg(t), cr = h.reg(t);
  for (unsigned l = 0; l < 4; ++l) {
    h.set(br, l, b[l]);
    if (!c.empty()) h.set(cr, l, c[l]);
  }
  std::vector<Operand> ops{h.r(d), Harness::abs_addr(0x200), h.r(br)};
  if (!c.empty()) ops.push_back(h.r(cr));
  Instruction in = mem_inst(Opcode::Atom, t, s, ops);
  in.atom = op;
  h.run(in);
  std::vector<uint64_t> old;
  for (unsigned l = 0; l < 4; ++l) old.push_back(h.get(d, l));
  return old;
}
using V = std::vector<uint64_t>;

TEST(MemoryOps, AtomicAddInLaneOrder) {
  Harness h;
  h.env.poke<uint32_t>(Space::Global, 0x200, 0);
  EXPECT_EQ(atom(h, AtomOp::Add, Type::U32, {1, 1, 1, 1}), V({0, 1, 2, 3}));
  EXPECT_EQ(h.env.peek<uint32_t>(Space::Global, 0x200), 4u);
  h.env.poke<uint32_t>(Space::Global, 0x200, 0xffffffff);
  EXPECT_EQ(atom(h, AtomOp::Add, Type::U32, {1, 0, 0, 0}), V({0xffffffff, 0, 0, 0}));
}

TEST(MemoryOps, AtomicIncDecWrap) {
  Harness h;
  h.env.poke<uint32_t>(Space::Global, 0x200, 1);
  EXPECT_EQ(atom(h, AtomOp::Inc, Type::U32, {2, 2, 2, 2}), V({1, 2, 0, 1}));
  EXPECT_EQ(h.env.peek<uint32_t>(Space::Global, 0x200), 2u);
  h.env.poke<uint32_t>(Space::Global, 0x200, 1);
  EXPECT_EQ(atom(h, AtomOp::Dec, Type::U32, {2, 2, 2, 2}), V({1, 0, 2, 1}));
  EXPECT_EQ(h.env.peek<uint32_t>(Space::Global, 0x200), 0u);
  h.env.poke<uint32_t>(Space::Global, 0x200, 5);  // old > b resets to b
  EXPECT_EQ(atom(h, AtomOp::Dec, Type::U32, {2, 2, 2, 2}), V({5, 2, 1, 0}));
}

TEST(MemoryOps, AtomicCasExchMinMaxLogic) {
  Harness h;
  h.env.poke<uint32_t>(Space::Global, 0x200, 5);
  EXPECT_EQ(atom(h, AtomOp::Cas, Type::B32, {5, 5, 10, 11}, {10, 11, 12, 13}), V({5, 10, 10, 12}));
  EXPECT_EQ(h.env.peek<uint32_t>(Space::Global, 0x200), 12u);
  h.env.poke<uint64_t>(Space::Global, 0x200, 0x1122334455667788ull);
  EXPECT_EQ(atom(h, AtomOp::Exch, Type::B64, {1, 2, 3, 4}), V({0x1122334455667788ull, 1, 2, 3}));
  h.env.poke<int32_t>(Space::Global, 0x200, 0);
  EXPECT_EQ(atom(h, AtomOp::Min, Type::S32, {3, 0xfffffffe, 5, 0xffffffff}),
            V({0, 0, 0xfffffffe, 0xfffffffe}));
  h.env.poke<uint32_t>(Space::Global, 0x200, 0);
  EXPECT_EQ(atom(h, AtomOp::Max, Type::U32, {3, 0xfffffffe, 5, 1}),
            V({0, 3, 0xfffffffe, 0xfffffffe}));
  h.env.poke<uint32_t>(Space::Global, 0x200, 0xff);
  atom(h, AtomOp::And, Type::B32, {0xf0f, ~0ull, ~0ull, ~0ull});
  EXPECT_EQ(h.env.peek<uint32_t>(Space::Global, 0x200), 0x0fu);
  atom(h, AtomOp::Or, Type::B32, {0x100, 0, 0, 0});
  atom(h, AtomOp::Xor, Type::B32, {0x1, 0, 0, 0});
  EXPECT_EQ(h.env.peek<uint32_t>(Space::Global, 0x200), 0x10eu);
}

// Every integer atomic on every 32- and 64-bit integer type (each gets its
// own callback) against the operation's definition, lane after lane, on
// values near the edges of the type.
TEST(MemoryOps, IntegerAtomicsFollowTheirDefinitionOnEveryType) {
  std::mt19937_64 rng(7);
  auto value = [&](unsigned bits) -> uint64_t {
    const uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    switch (rng() % 4) {
      case 0:
        return rng() % 4;
      case 1:
        return (1ull << (bits - 1)) + rng() % 3 - 1;  // around the sign bit
      case 2:
        return mask - rng() % 3;
      default:
        return rng() & mask;
    }
  };
  for (Type t : {Type::U32, Type::S32, Type::B32, Type::U64, Type::S64, Type::B64}) {
    const unsigned bits = type_bits(t);
    const uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    const bool sgn = is_signed(t);
    auto less = [&](uint64_t a, uint64_t b) {
      if (!sgn) return a < b;
      const int s = 64 - int(bits);
      return int64_t(a << s) < int64_t(b << s);
    };
    for (AtomOp op : {AtomOp::Add, AtomOp::Min, AtomOp::Max, AtomOp::Inc, AtomOp::Dec, AtomOp::And,
                      AtomOp::Or, AtomOp::Xor, AtomOp::Exch, AtomOp::Cas}) {
      if ((op == AtomOp::Inc || op == AtomOp::Dec) && t != Type::U32) continue;
      if ((op == AtomOp::Min || op == AtomOp::Max || op == AtomOp::Add) && is_bits(t)) continue;
      for (int trial = 0; trial < 20; ++trial) {
        SCOPED_TRACE(std::string(type_name(t)) + " op " + std::to_string(int(op)) + " trial " +
                     std::to_string(trial));
        Harness h;
        uint64_t mem = value(bits);
        h.env.poke<uint64_t>(Space::Global, 0x200, mem);
        V b, c, want;
        for (unsigned l = 0; l < 4; ++l) {
          b.push_back(value(bits));
          // cas: often the value memory will hold, so that some lanes swap.
          c.push_back(value(bits));
          if (op == AtomOp::Cas && rng() % 2) b.back() = l == 0 ? mem : c[l - 1];
        }
        for (unsigned l = 0; l < 4; ++l) {
          want.push_back(mem);
          switch (op) {
            case AtomOp::Add:
              mem = (mem + b[l]) & mask;
              break;
            case AtomOp::Min:
              mem = less(b[l], mem) ? b[l] : mem;
              break;
            case AtomOp::Max:
              mem = less(mem, b[l]) ? b[l] : mem;
              break;
            case AtomOp::Inc:
              mem = mem >= b[l] ? 0 : mem + 1;
              break;
            case AtomOp::Dec:
              mem = mem == 0 || mem > b[l] ? b[l] : mem - 1;
              break;
            case AtomOp::And:
              mem &= b[l];
              break;
            case AtomOp::Or:
              mem |= b[l];
              break;
            case AtomOp::Xor:
              mem ^= b[l];
              break;
            case AtomOp::Exch:
              mem = b[l];
              break;
            default:
              mem = mem == b[l] ? c[l] : mem;
              break;
          }
        }
        V got = atom(h, op, t, b, op == AtomOp::Cas ? c : V{});
        for (uint64_t& g : got) g &= mask;
        EXPECT_EQ(got, want);
        EXPECT_EQ(h.env.peek<uint64_t>(Space::Global, 0x200) & mask, mem);
      }
    }
  }
}

TEST(MemoryOps, AtomicFloatAdd) {
  Harness h;
  h.env.poke<float>(Space::Global, 0x200, 1.5f);
  atom(h, AtomOp::Add, Type::F32, {fbits(1.0f), fbits(0.5f), 0, 0});
  EXPECT_EQ(h.env.peek<float>(Space::Global, 0x200), 3.0f);
  // Global atom.add.f32 flushes subnormals; shared does not.
  h.env.poke<uint32_t>(Space::Global, 0x200, 1);
  atom(h, AtomOp::Add, Type::F32, {1, 0, 0, 0});
  EXPECT_EQ(h.env.peek<uint32_t>(Space::Global, 0x200), 0u);
  h.env.poke<uint32_t>(Space::Shared, 0x200, 1);
  atom(h, AtomOp::Add, Type::F32, {1, 0, 0, 0}, {}, Space::Shared);
  EXPECT_EQ(h.env.peek<uint32_t>(Space::Shared, 0x200), 2u);
  h.env.poke<double>(Space::Global, 0x200, 0.25);
  atom(h, AtomOp::Add, Type::F64, {dbits(0.5), dbits(1.0), dbits(2.0), dbits(4.0)});
  EXPECT_EQ(h.env.peek<double>(Space::Global, 0x200), 7.75);
}

TEST(MemoryOps, ReductionHasNoDestination) {
  Harness h;
  h.env.poke<uint64_t>(Space::Shared, 0x200, 10);
  const uint32_t b = h.reg(Type::U64);
  for (unsigned l = 0; l < 4; ++l) h.set(b, l, l + 1);
  Instruction in =
      mem_inst(Opcode::Red, Type::U64, Space::Shared, {Harness::abs_addr(0x200), h.r(b)});
  in.atom = AtomOp::Add;
  h.run(in, 0b0110);
  EXPECT_EQ(h.env.peek<uint64_t>(Space::Shared, 0x200), 15u);
  in.atom = AtomOp::Cas;
  EXPECT_THROW(h.run(in), UnsupportedInstruction);
}

TEST(MemoryOps, AtomicErrors) {
  Harness h;
  EXPECT_THROW(atom(h, AtomOp::Inc, Type::U64, {1, 1, 1, 1}), UnsupportedInstruction);
  EXPECT_THROW(atom(h, AtomOp::Min, Type::F32, {1, 1, 1, 1}), UnsupportedInstruction);
  const uint32_t d = h.reg(Type::U32), b = h.reg(Type::U32);
  Instruction in =
      mem_inst(Opcode::Atom, Type::U32, Space::Global, {h.r(d), Harness::abs_addr(0x202), h.r(b)});
  in.atom = AtomOp::Add;
  EXPECT_THROW(h.run(in), MemoryFault);
}

}  // namespace
}  // namespace warptlm::test
