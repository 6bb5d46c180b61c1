// vote (partial masks, guards, negation, 64-lane ballot), shfl (all modes,
// clamp, segments, out-of-range lanes, warp sizes 8/32/64), activemask.
#include "harness.h"

namespace warptlm::test {
namespace {

Instruction vote_inst(Harness& h, VoteMode m, uint32_t d, uint32_t p, bool negated = false) {
  Instruction in = Harness::make(Opcode::Vote, m == VoteMode::Ballot ? Type::B32 : Type::Pred,
                                 {h.r(d), h.r(p, negated)});
  in.vote = m;
  return in;
}

TEST(WarpOps, VoteOverExecutedLanesOnly) {
  Harness h(8);
  const uint32_t d = h.reg(Type::Pred), p = h.reg(Type::Pred);
  const LaneMask active = 0b10110110;                               // lanes 1 2 4 5 7
  for (unsigned l = 0; l < 8; ++l) h.set(p, l, (active >> l) & 1);  // true exactly there
  h.run(vote_inst(h, VoteMode::All, d, p), active);
  EXPECT_EQ(h.get(d, 1), 1u);
  EXPECT_EQ(h.get(d, 7), 1u);
  EXPECT_EQ(h.get(d, 0), 0u);  // inactive lane untouched
  h.set(p, 4, 0);
  h.run(vote_inst(h, VoteMode::All, d, p), active);
  EXPECT_EQ(h.get(d, 2), 0u);
  h.run(vote_inst(h, VoteMode::Any, d, p), active);
  EXPECT_EQ(h.get(d, 2), 1u);
  h.run(vote_inst(h, VoteMode::Uni, d, p), active);
  EXPECT_EQ(h.get(d, 5), 0u);
  h.run(vote_inst(h, VoteMode::Uni, d, p), 0b00100110);  // lanes 1 2 5: all true
  EXPECT_EQ(h.get(d, 5), 1u);
  h.run(vote_inst(h, VoteMode::Any, d, p, true), 0b00100110);  // !p false everywhere
  EXPECT_EQ(h.get(d, 1), 0u);
  h.run(vote_inst(h, VoteMode::Uni, d, p, true), 0b00100110);
  EXPECT_EQ(h.get(d, 1), 1u);
}

TEST(WarpOps, BallotWithGuardAndSync) {
  Harness h(8);
  const uint32_t d = h.reg(Type::B32), p = h.reg(Type::Pred), g = h.reg(Type::Pred),
                 mask = h.reg(Type::B32);
  for (unsigned l = 0; l < 8; ++l) {
    h.set(p, l, l % 2);  // odd lanes vote true
    h.set(g, l, l < 6);  // guard true on lanes 0..5
  }
  h.set_all(mask, 0xff);
  Instruction in = vote_inst(h, VoteMode::Ballot, d, p);
  in.sync = true;
  in.ops.push_back(h.r(mask));
  in.has_guard = true;
  in.guard_reg = g;
  h.run(in, 0b11111110);  // lanes 1..7 active; guard leaves 1..5
  EXPECT_EQ(h.get(d, 1), 0b101010u);
  EXPECT_EQ(h.get(d, 5), 0b101010u);
  EXPECT_EQ(h.get(d, 6), 0u);
  EXPECT_EQ(h.get(d, 0), 0u);
}

TEST(WarpOps, BallotOf64LaneWarpIsLow32Bits) {
  Harness h(64);
  const uint32_t d = h.reg(Type::B32), p = h.reg(Type::Pred);
  for (unsigned l : {0u, 31u, 32u, 63u}) h.set(p, l, 1);
  h.run(vote_inst(h, VoteMode::Ballot, d, p));
  EXPECT_EQ(h.get(d, 63), 0x80000001u);
  h.run(vote_inst(h, VoteMode::Any, d, p), LaneMask(0xfffe) << 48);  // lanes 49..63
  EXPECT_EQ(h.get(d, 50), 1u);
  h.run(vote_inst(h, VoteMode::All, d, p), (LaneMask(1) << 63) | (LaneMask(1) << 32));
  EXPECT_EQ(h.get(d, 32), 1u);
}

struct Shfl {
  Harness h;
  uint32_t d, p, a;
  explicit Shfl(unsigned w) : h(w) {
    d = h.reg(Type::B32);
    p = h.reg(Type::Pred);
    a = h.reg(Type::B32);
    for (unsigned l = 0; l < w; ++l) h.set(a, l, 100 + l);
  }
  void run(ShflMode m, int64_t b, int64_t c, LaneMask active = ~LaneMask(0)) {
    Instruction in =
        Harness::make(Opcode::Shfl, Type::B32,
                      {h.r(d), h.r(p), h.r(a), Harness::imm(b), Harness::imm(c), Harness::none()});
    in.shfl = m;
    h.run(in, active);
  }
  uint64_t val(unsigned l) const { return h.get(d, l); }
  uint64_t ok(unsigned l) const { return h.get(p, l); }
};

TEST(WarpOps, ShflModes32) {
  Shfl s(32);
  s.run(ShflMode::Up, 1, 0);
  EXPECT_EQ(s.val(0), 100u);
  EXPECT_EQ(s.ok(0), 0u);
  EXPECT_EQ(s.val(5), 104u);
  EXPECT_EQ(s.ok(5), 1u);
  s.run(ShflMode::Up, 3, 0);
  EXPECT_EQ(s.val(2), 102u);  // j = -1: own value
  EXPECT_EQ(s.ok(2), 0u);
  s.run(ShflMode::Down, 1, 0x1f);
  EXPECT_EQ(s.val(30), 131u);
  EXPECT_EQ(s.val(31), 131u);
  EXPECT_EQ(s.ok(31), 0u);
  s.run(ShflMode::Bfly, 1, 0x1f);
  EXPECT_EQ(s.val(6), 107u);
  EXPECT_EQ(s.val(7), 106u);
  s.run(ShflMode::Idx, 5, 0x1f);
  EXPECT_EQ(s.val(0), 105u);
  EXPECT_EQ(s.val(31), 105u);
  s.run(ShflMode::Idx, 37, 0x1f);  // only b[4:0]: lane 5, in range
  EXPECT_EQ(s.val(9), 105u);
  EXPECT_EQ(s.ok(9), 1u);
  s.run(ShflMode::Idx, 20, 0x0f);  // clamp 15: lane 20 out of range
  EXPECT_EQ(s.val(3), 103u);
  EXPECT_EQ(s.ok(3), 0u);
}

TEST(WarpOps, ShflSegments) {
  Shfl s(32);
  const int64_t width8 = (24 << 8) | 0x1f;  // CUDA width 8
  s.run(ShflMode::Idx, 5, width8);
  EXPECT_EQ(s.val(10), 113u);  // (10 & 24) | 5 = 13
  EXPECT_EQ(s.val(31), 129u);
  s.run(ShflMode::Down, 1, width8);
  EXPECT_EQ(s.val(6), 107u);
  EXPECT_EQ(s.val(7), 107u);  // segment end
  EXPECT_EQ(s.ok(7), 0u);
  s.run(ShflMode::Up, 1, 24 << 8);
  EXPECT_EQ(s.val(8), 108u);  // segment start
  EXPECT_EQ(s.ok(8), 0u);
  EXPECT_EQ(s.val(9), 108u);
}

TEST(WarpOps, ShflReadsInactiveSourceAndAliasesSafely) {
  Shfl s(8);
  s.run(ShflMode::Bfly, 1, 0x1f, 0b01);  // lane 0 reads lane 1, which is inactive
  EXPECT_EQ(s.val(0), 101u);
  EXPECT_EQ(s.val(1), 0u);
  // d == a: every lane sees the old values.
  Instruction in = Harness::make(Opcode::Shfl, Type::B32,
                                 {s.h.r(s.a), Harness::none(), s.h.r(s.a), Harness::imm(1),
                                  Harness::imm(0x1f), Harness::none()});
  in.shfl = ShflMode::Bfly;
  s.h.run(in);
  EXPECT_EQ(s.h.get(s.a, 0), 101u);
  EXPECT_EQ(s.h.get(s.a, 1), 100u);
}

TEST(WarpOps, ShflWarpSize8) {
  Shfl s(8);
  s.run(ShflMode::Idx, 9, 0x1f);  // lane 9 does not exist
  EXPECT_EQ(s.val(2), 102u);
  EXPECT_EQ(s.ok(2), 0u);
  s.run(ShflMode::Bfly, 4, 0x1f);
  EXPECT_EQ(s.val(1), 105u);
  EXPECT_EQ(s.ok(1), 1u);
  s.run(ShflMode::Down, 2, 0x1f);
  EXPECT_EQ(s.val(5), 107u);
  EXPECT_EQ(s.val(6), 106u);
  EXPECT_EQ(s.ok(6), 0u);
}

TEST(WarpOps, ShflWarpSize64) {
  Shfl s(64);
  s.run(ShflMode::Down, 32, 0x3f);
  EXPECT_EQ(s.val(10), 142u);
  EXPECT_EQ(s.ok(10), 1u);
  EXPECT_EQ(s.val(40), 140u);
  EXPECT_EQ(s.ok(40), 0u);
  s.run(ShflMode::Down, 32, 0x1f);  // clamp 31
  EXPECT_EQ(s.val(10), 110u);
  EXPECT_EQ(s.ok(10), 0u);
  s.run(ShflMode::Idx, 40, 0x3f);
  EXPECT_EQ(s.val(3), 140u);
  s.run(ShflMode::Bfly, 32, 0x3f);
  EXPECT_EQ(s.val(63), 131u);
}

TEST(WarpOps, Activemask) {
  Harness h(8);
  const uint32_t d = h.reg(Type::B32);
  h.run(Harness::make(Opcode::Activemask, Type::B32, {h.r(d)}), 0b1011);
  EXPECT_EQ(h.get(d, 0), 0b1011u);
  EXPECT_EQ(h.get(d, 3), 0b1011u);
  EXPECT_EQ(h.get(d, 2), 0u);
  Harness w(64);
  const uint32_t e = w.reg(Type::B32);
  w.run(Harness::make(Opcode::Activemask, Type::B32, {w.r(e)}), (LaneMask(1) << 40) | 6);
  EXPECT_EQ(w.get(e, 40), 6u);
}

}  // namespace
}  // namespace warptlm::test
