// Idioms that clang emits and the parser must accept as written.
#include <gtest/gtest.h>

#include "parser_test_util.h"

namespace warptlm::test {
namespace {

TEST(PtxClangIdioms, MovPredOfMinusOneIsTrue) {
  // clang 14 sets a predicate to true with `mov.pred %p, -1`.
  Instruction t = decode_one(kStdRegs, "mov.pred %p1, -1");
  ASSERT_EQ(t.ops.size(), 2u);
  EXPECT_EQ(t.ops[1].kind, Operand::Kind::Imm);
  EXPECT_EQ(t.ops[1].imm, 1u);
  Instruction f = decode_one(kStdRegs, "mov.pred %p1, 0");
  EXPECT_EQ(f.ops[1].imm, 0u);
}

TEST(PtxClangIdioms, PredicateLiteralMustBeAnInteger) {
  expect_body_error(std::string(kStdRegs) + "\nmov.pred %p1, 0f3F800000;", 2, 15,
                    "only integer literals");
}

}  // namespace
}  // namespace warptlm::test
