// Logic, shifts past the width, bfe/bfi clamping, popc/clz/brev, prmt modes.
#include "harness.h"

namespace warptlm::test {
namespace {

uint64_t bfe(Harness& h, Type t, uint64_t a, uint64_t pos, uint64_t len) {
  return h.eval(Opcode::Bfe, t, {a, pos, len});
}
uint64_t bfi(Harness& h, Type t, uint64_t a, uint64_t b, uint64_t pos, uint64_t len) {
  return h.eval(Opcode::Bfi, t, {a, b, pos, len});
}
uint64_t prmt(Harness& h, uint64_t a, uint64_t b, uint64_t c, PrmtMode m = PrmtMode::None) {
  return h.eval(Opcode::Prmt, Type::B32, {a, b, c}, [m](Instruction& i) { i.prmt = m; });
}

TEST(Bits, LogicOnBitsAndPredicates) {
  Harness h;
  EXPECT_EQ(h.eval(Opcode::And, Type::B32, {0xff00ff00, 0x0ff00ff0}), 0x0f000f00u);
  EXPECT_EQ(h.eval(Opcode::Or, Type::B16, {0xf000, 0x000f}), 0xf00fu);
  EXPECT_EQ(h.eval(Opcode::Xor, Type::B64, {~0ull, 0xff}), 0xffffffffffffff00ull);
  EXPECT_EQ(h.eval(Opcode::Not, Type::B16, {0x00ff}), 0xff00u);
  EXPECT_EQ(h.eval(Opcode::Not, Type::B32, {0}), 0xffffffffu);
  EXPECT_EQ(h.eval(Opcode::Cnot, Type::B32, {0}), 1u);
  EXPECT_EQ(h.eval(Opcode::Cnot, Type::B32, {5}), 0u);
  EXPECT_EQ(h.eval(Opcode::Xor, Type::Pred, {1, 1}), 0u);
  EXPECT_EQ(h.eval(Opcode::Or, Type::Pred, {0, 1}), 1u);
  EXPECT_EQ(h.eval(Opcode::Not, Type::Pred, {1}), 0u);
  EXPECT_EQ(h.eval(Opcode::Not, Type::Pred, {0}), 1u);
}

TEST(Bits, AndWithNegatedPredicate) {
  Harness h;
  const uint32_t p = h.reg(Type::Pred), q = h.reg(Type::Pred), r = h.reg(Type::Pred);
  h.set(q, 0, 0);
  h.set(r, 0, 1);
  h.run(Harness::make(Opcode::And, Type::Pred, {h.r(p), h.r(q, true), h.r(r)}), 1);
  EXPECT_EQ(h.get(p, 0), 1u);
}

TEST(Bits, ShiftsPastTheWidth) {
  Harness h;
  EXPECT_EQ(h.eval(Opcode::Shl, Type::B32, {1, 31}), 0x80000000u);
  EXPECT_EQ(h.eval(Opcode::Shl, Type::B32, {1, 32}), 0u);
  EXPECT_EQ(h.eval(Opcode::Shl, Type::B32, {1, 0xffffffff}), 0u);
  EXPECT_EQ(h.eval(Opcode::Shl, Type::B16, {0x8001, 1}), 0x0002u);
  EXPECT_EQ(h.eval(Opcode::Shl, Type::B64, {1, 63}), 0x8000000000000000ull);
  EXPECT_EQ(h.eval(Opcode::Shl, Type::B64, {1, 64}), 0u);
  EXPECT_EQ(h.eval(Opcode::Shr, Type::U32, {0x80000000, 31}), 1u);
  EXPECT_EQ(h.eval(Opcode::Shr, Type::U32, {0x80000000, 32}), 0u);
  EXPECT_EQ(h.eval(Opcode::Shr, Type::B64, {~0ull, 64}), 0u);
  EXPECT_EQ(h.eval(Opcode::Shr, Type::S32, {0x80000000, 4}), 0xf8000000u);
  EXPECT_EQ(h.eval(Opcode::Shr, Type::S32, {0x80000000, 40}), 0xffffffffu);
  EXPECT_EQ(h.eval(Opcode::Shr, Type::S32, {0x40000000, 40}), 0u);
  EXPECT_EQ(h.eval(Opcode::Shr, Type::S16, {0x8000, 100}), 0xffffu);
  EXPECT_EQ(h.eval(Opcode::Shr, Type::S64, {0x8000000000000000, 0xffffffff}), ~0ull);
}

TEST(Bits, BfeExtractsAndClamps) {
  Harness h;
  EXPECT_EQ(bfe(h, Type::U32, 0x12345678, 8, 8), 0x56u);
  EXPECT_EQ(bfe(h, Type::S32, 0x12345678, 8, 8), 0x56u);
  EXPECT_EQ(bfe(h, Type::S32, 0x0000f000, 12, 4), 0xffffffffu);  // field 0xf sign-extends
  EXPECT_EQ(bfe(h, Type::U32, 0x0000f000, 12, 4), 0xfu);
  EXPECT_EQ(bfe(h, Type::S32, 0xf0000000, 28, 8), 0xffffffffu);  // field runs past msb
  EXPECT_EQ(bfe(h, Type::U32, 0xf0000000, 28, 8), 0xfu);
  EXPECT_EQ(bfe(h, Type::S32, 0xf0000000, 40, 4), 0xffffffffu);  // start past msb: sign fill
  EXPECT_EQ(bfe(h, Type::U32, 0xf0000000, 40, 4), 0u);
  EXPECT_EQ(bfe(h, Type::S32, 0x12345678, 0, 0), 0u);            // len 0 gives 0
  EXPECT_EQ(bfe(h, Type::U32, 0x12345678, 0x108, 0x104), 0x6u);  // only b[7:0], c[7:0]
  EXPECT_EQ(bfe(h, Type::S64, 0x8000000000000000, 60, 10), 0xfffffffffffffff8ull);
  EXPECT_EQ(bfe(h, Type::U64, 0x8000000000000000, 60, 10), 0x8u);
  EXPECT_EQ(bfe(h, Type::U32, 0xdeadbeef, 0, 32), 0xdeadbeefu);
}

TEST(Bits, BfiInsertsAndClamps) {
  Harness h;
  EXPECT_EQ(bfi(h, Type::B32, 0xff, 0, 8, 4), 0xf00u);
  EXPECT_EQ(bfi(h, Type::B32, 0xffffffff, 0x12345678, 28, 8), 0xf2345678u);  // clipped at msb
  EXPECT_EQ(bfi(h, Type::B32, 0xff, 0x12345678, 40, 4), 0x12345678u);        // start past msb: b
  EXPECT_EQ(bfi(h, Type::B32, 0xf, 0x12345678, 4, 0), 0x12345678u);          // len 0: b
  EXPECT_EQ(bfi(h, Type::B64, 0xabcd, 0, 60, 16), 0xd000000000000000ull);
  EXPECT_EQ(bfi(h, Type::B32, 0x1, 0, 0x100, 0x101), 1u);  // pos/len use only 8 bits
}

TEST(Bits, PopcClzBrev) {
  Harness h;
  EXPECT_EQ(h.eval(Opcode::Popc, Type::B32, {0xf0f0f0f0}, {}, Type::U32), 16u);
  EXPECT_EQ(h.eval(Opcode::Popc, Type::B64, {~0ull}, {}, Type::U32), 64u);
  EXPECT_EQ(h.eval(Opcode::Clz, Type::B32, {0}, {}, Type::U32), 32u);
  EXPECT_EQ(h.eval(Opcode::Clz, Type::B32, {1}, {}, Type::U32), 31u);
  EXPECT_EQ(h.eval(Opcode::Clz, Type::B64, {1}, {}, Type::U32), 63u);
  EXPECT_EQ(h.eval(Opcode::Clz, Type::B64, {0}, {}, Type::U32), 64u);
  EXPECT_EQ(h.eval(Opcode::Clz, Type::B64, {0x8000000000000000}, {}, Type::U32), 0u);
  EXPECT_EQ(h.eval(Opcode::Brev, Type::B32, {1}), 0x80000000u);
  EXPECT_EQ(h.eval(Opcode::Brev, Type::B32, {0x12345678}), 0x1e6a2c48u);
  EXPECT_EQ(h.eval(Opcode::Brev, Type::B64, {1}), 0x8000000000000000ull);
}

TEST(Bits, PrmtDefaultMode) {
  Harness h;
  const uint64_t a = 0x03020100, b = 0x07060504;  // byte i holds i
  EXPECT_EQ(prmt(h, a, b, 0x3210), 0x03020100u);
  EXPECT_EQ(prmt(h, a, b, 0x7654), 0x07060504u);
  EXPECT_EQ(prmt(h, a, b, 0x0123), 0x00010203u);
  EXPECT_EQ(prmt(h, a, b, 0x4444), 0x04040404u);
  // msb of a selector replicates the selected byte's sign bit.
  const uint64_t s = 0x8000ff7f;  // bytes: 7f ff 00 80
  EXPECT_EQ(prmt(h, s, 0, 0x8888), 0u);
  EXPECT_EQ(prmt(h, s, 0, 0x9999), 0xffffffffu);
  EXPECT_EQ(prmt(h, s, 0, 0x00b8), 0x7f7fff00u);
}

TEST(Bits, PrmtSpecialModes) {
  Harness h;
  const uint64_t a = 0x03020100, b = 0x07060504;
  EXPECT_EQ(prmt(h, a, b, 1, PrmtMode::F4e), 0x04030201u);
  EXPECT_EQ(prmt(h, a, b, 3, PrmtMode::F4e), 0x06050403u);
  EXPECT_EQ(prmt(h, a, b, 0, PrmtMode::B4e), 0x05060700u);
  EXPECT_EQ(prmt(h, a, b, 2, PrmtMode::B4e), 0x07000102u);
  EXPECT_EQ(prmt(h, a, b, 2, PrmtMode::Rc8), 0x02020202u);
  EXPECT_EQ(prmt(h, a, b, 7, PrmtMode::Rc8), 0x03030303u);  // only c[1:0] counts
  EXPECT_EQ(prmt(h, a, b, 1, PrmtMode::Ecl), 0x03020101u);
  EXPECT_EQ(prmt(h, a, b, 2, PrmtMode::Ecr), 0x02020100u);
  EXPECT_EQ(prmt(h, a, b, 1, PrmtMode::Rc16), 0x03020302u);
  EXPECT_EQ(prmt(h, a, b, 2, PrmtMode::Rc16), 0x01000100u);
}

TEST(Bits, UnsupportedCombinations) {
  Harness h;
  EXPECT_THROW(h.eval(Opcode::Shl, Type::Pred, {1, 1}), UnsupportedInstruction);
  EXPECT_THROW(h.eval(Opcode::And, Type::F32, {1, 1}), UnsupportedInstruction);
  EXPECT_THROW(h.eval(Opcode::Bfe, Type::U16, {1, 1, 1}), UnsupportedInstruction);
}

}  // namespace
}  // namespace warptlm::test
