// Restricted to one warp, the block-wide stack of thread block compaction is
// that warp's IPDOM stack: the same events leave the same entries, frames and
// statistics. (In the exec tests because it links both compaction and simt.)
#include <gtest/gtest.h>

#include <vector>

#include "compaction/block_stack.h"
#include "simt/ipdom_stack.h"

namespace warptlm {
namespace {

CtaControlEvent event(Control kind, Pc pc, CtaMask executed, Pc target, Pc reconv) {
  CtaControlEvent e;
  e.kind = kind;
  e.executed = std::move(executed);
  e.next = pc + kInstrBytes;
  e.target = target;
  e.reconv = reconv;
  return e;
}

TEST(BlockStack, OneWarpCtaMatchesTheIpdomStack) {
  struct Step {
    Control kind;
    Pc pc;
    LaneMask executed;
    Pc target, reconv;
  };
  const std::vector<Step> steps = {
      {Control::Branch, 0x00, 0x0c, 0x40, 0x80},
      {Control::None, 0x40, 0, 0, 0},
      {Control::Branch, 0x48, 0x04, 0x60, 0x70},
      {Control::None, 0x60, 0, 0, 0},
      {Control::None, 0x68, 0, 0, 0},
      {Control::Branch, 0x50, 0x08, 0x70, 0x70},
      {Control::Branch, 0x70, 0x0c, 0x80, 0x80},
      {Control::Call, 0x08, 0x03, 0x100, 0},
      {Control::Ret, 0x100, 0x03, 0, 0},
      {Control::Exit, 0x10, 0x01, 0, 0},
  };
  IpdomStack ref;
  ref.reset(0x00, 0x0f);
  BlockStack s;
  s.reset(0x00, {0x0f});
  for (const Step& st : steps) {
    ASSERT_EQ(s.top().pc, st.pc);
    ControlEvent e;
    e.kind = st.kind;
    e.active = ref.entries().back().mask;
    e.executed = st.executed;
    e.next = st.pc + kInstrBytes;
    e.target = st.target;
    e.reconv = st.reconv;
    EXPECT_EQ(s.advance(event(st.kind, st.pc, {st.executed}, st.target, st.reconv)),
              ref.advance(static_cast<uint32_t>(ref.entries().size() - 1), e));
    ASSERT_EQ(s.depth(), ref.entries().size());
    for (size_t i = 0; i < s.depth(); ++i) {
      EXPECT_EQ(s.entry(i).pc, ref.entries()[i].pc);
      EXPECT_EQ(s.entry(i).rpc, ref.entries()[i].rpc);
      EXPECT_EQ(s.mask(i)[0], ref.entries()[i].mask);
      EXPECT_EQ(s.entry(i).call_frame, ref.entries()[i].call_frame);
    }
  }
  EXPECT_EQ(s.counters().reconvergences, ref.counters().reconvergences);
  EXPECT_EQ(s.max_depth(), ref.max_depth());
}

}  // namespace
}  // namespace warptlm
