// The type predicates of ir.h, type by type (they are inline range checks and
// a table, which depend on the order of Type's enumerators).
#include <gtest/gtest.h>

#include <string>

#include "frontend/ir.h"

namespace warptlm {
namespace {

TEST(Types, WidthAndKindOfEveryType) {
  struct Expect {
    Type t;
    unsigned bits;
    char kind;  // b, u, s, f, or - (none, pred)
  };
  const Expect all[] = {{Type::None, 0, '-'}, {Type::Pred, 1, '-'}, {Type::B8, 8, 'b'},
                        {Type::B16, 16, 'b'}, {Type::B32, 32, 'b'}, {Type::B64, 64, 'b'},
                        {Type::U8, 8, 'u'},   {Type::U16, 16, 'u'}, {Type::U32, 32, 'u'},
                        {Type::U64, 64, 'u'}, {Type::S8, 8, 's'},   {Type::S16, 16, 's'},
                        {Type::S32, 32, 's'}, {Type::S64, 64, 's'}, {Type::F16, 16, 'f'},
                        {Type::F32, 32, 'f'}, {Type::F64, 64, 'f'}};
  for (const Expect& e : all) {
    SCOPED_TRACE(type_name(e.t));
    EXPECT_EQ(type_bits(e.t), e.bits);
    EXPECT_EQ(is_bits(e.t), e.kind == 'b');
    EXPECT_EQ(is_signed(e.t), e.kind == 's');
    EXPECT_EQ(is_float(e.t), e.kind == 'f');
    if (e.kind != '-') {
      EXPECT_EQ(type_name(e.t), e.kind + std::to_string(e.bits));
    }
  }
}

}  // namespace
}  // namespace warptlm
