// registers_read_before_written(): the registers a new frame must zero,
// because some path reads them (as a source, an address base or a guard)
// before an unguarded write, or a warp-collective instruction reads them.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "frontend/ptx_parser.h"
#include "frontend/read_before_write.h"

namespace warptlm {
namespace {

// The names of the kernel's registers that the analysis flags.
std::set<std::string> read_first(const std::string& body, const std::string& funcs = "") {
  const Module m = parse_ptx(".version 7.0\n.target sm_70\n.address_size 64\n" + funcs +
                             "\n.visible .entry k(.param .u64 out)\n{\n" + body + "\n}\n");
  for (uint32_t i = 0; i < m.functions.size(); ++i) {
    if (m.functions[i].name != "k") continue;
    const std::vector<bool> flags = registers_read_before_written(m, i);
    EXPECT_EQ(flags.size(), m.functions[i].regs.size());
    std::set<std::string> names;
    for (size_t r = 0; r < flags.size(); ++r)
      if (flags[r]) names.insert(m.functions[i].regs[r].name);
    return names;
  }
  ADD_FAILURE() << "no kernel k";
  return {};
}

const char* const kDecls = R"(  .reg .pred %p<3>;
  .reg .b32 %r<9>;
  .reg .b64 %rd<3>;)";

TEST(ReadBeforeWrite, StraightLineCodeThatWritesFirstNeedsNothing) {
  EXPECT_EQ(read_first(std::string(kDecls) + R"(
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  add.s32 %r2, %r1, 1;
  st.global.u32 [%rd1], %r2;
  ret;)"),
            std::set<std::string>{});
}

TEST(ReadBeforeWrite, AReadBeforeAnyWriteIsFlagged) {
  EXPECT_EQ(read_first(std::string(kDecls) + R"(
  ld.param.u64 %rd1, [out];
  add.s32 %r2, %r3, 1;
  mov.u32 %r3, 4;
  st.global.u32 [%rd1], %r2;
  ret;)"),
            std::set<std::string>{"%r3"});
}

TEST(ReadBeforeWrite, GuardedWritesAndGuardsThemselves) {
  // @p mov may not write %r2; %p2 guards before anything writes it.
  EXPECT_EQ(read_first(std::string(kDecls) + R"(
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 mov.u32 %r2, 5;
  @%p2 mov.u32 %r3, 6;
  st.global.u32 [%rd1], %r2;
  ret;)"),
            (std::set<std::string>{"%r2", "%p2"}));
}

TEST(ReadBeforeWrite, OneSidedWritesAndLoopsArePathsToo) {
  // %r2 is written on one side of the branch only; %r4 is read at the top
  // of the loop before its first write at the bottom.
  EXPECT_EQ(read_first(std::string(kDecls) + R"(
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r5, 0;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra SKIP;
  mov.u32 %r2, 5;
SKIP:
  add.s32 %r3, %r2, 1;
LOOP:
  add.s32 %r6, %r4, %r5;
  mov.u32 %r4, %r6;
  add.s32 %r5, %r5, 1;
  setp.lt.u32 %p2, %r5, 4;
  @%p2 bra LOOP;
  st.global.u32 [%rd1], %r3;
  ret;)"),
            (std::set<std::string>{"%r2", "%r4"}));
  // Both sides write: nothing to zero.
  EXPECT_EQ(read_first(std::string(kDecls) + R"(
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra A;
  mov.u32 %r2, 5;
  bra.uni J;
A:
  mov.u32 %r2, 6;
J:
  st.global.u32 [%rd1], %r2;
  ret;)"),
            std::set<std::string>{});
}

TEST(ReadBeforeWrite, AWarpCollectiveSourceIsFlaggedEvenWhenWrittenFirst) {
  // shfl reads %r2 of another lane, which may never have written it.
  EXPECT_EQ(read_first(std::string(kDecls) + R"(
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 7;
  shfl.sync.idx.b32 %r3, %r2, %r1, 31, -1;
  st.global.u32 [%rd1], %r3;
  ret;)"),
            (std::set<std::string>{"%r1", "%r2"}));
}

}  // namespace
}  // namespace warptlm
