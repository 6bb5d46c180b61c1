// Warp-wide operations: vote, shfl, activemask, redux, match, elect.
//
// Warp-size generalisation (PTX defines these for 32 lanes; warps here are
// 4..64 lanes wide, lanes 0..warp_size-1):
//  - vote.all/any/uni reduce over the executed lanes (active and guard true);
//    with .sync the membermask operand is read but the executed mask is what
//    counts. vote.ballot.b32 and activemask.b32 return the low 32 bits of the
//    executed-lane mask (lanes 32..63 of a 64-lane warp are not visible).
//  - shfl keeps PTX's packing of b and c with lane fields of L bits,
//    L = max(5, ceil(log2(warp_size))): bval = b[L-1:0], clamp = c[L-1:0],
//    segment mask = c[L+7:8]. So a 32-lane program behaves exactly as in PTX,
//    a 64-lane warp uses 6-bit fields (c = 0x1f clamps to lanes 0..31, as the
//    literal reading says), and in a narrower warp a computed source lane >=
//    warp_size is out of range: the lane keeps its own value and p = false.
//    A source lane that did not execute supplies its current register value
//    (PTX: unpredictable).
//  - redux.sync reduces over the executed lanes, like vote; the membermask
//    is read, not used.
//  - match and elect compare and elect among the executed lanes too (the
//    lanes a correct program names in membermask); match's masks are the low
//    32 bits, like ballot. elect's leader is the lowest executed lane.
#include <cmath>
#include <cstdint>

#include "semantics/families.h"
#include "semantics/float_util.h"

namespace warptlm::sem {

namespace {

using u64 = uint64_t;

void vote(const Exec& x) {
  const VoteMode mode = x.inst.vote;
  if (mode == VoteMode::None) x.unsupported("vote needs .all/.any/.uni/.ballot");
  const bool ballot = mode == VoteMode::Ballot;
  const Dest d = x.dst(0, ballot ? Type::B32 : Type::Pred);
  const Source a = x.src(1, Type::Pred);
  if (x.has(2)) Source(x, x.op(2), Type::B32);  // membermask: validated, not used
  LaneMask votes = 0;
  for_lanes(x.executed, [&](unsigned lane) {
    if (a(lane)) votes |= LaneMask(1) << lane;
  });
  u64 r = 0;
  switch (mode) {
    case VoteMode::All:
      r = votes == x.executed;
      break;
    case VoteMode::Any:
      r = votes != 0;
      break;
    case VoteMode::Uni:
      r = votes == x.executed || votes == 0;
      break;
    default:
      r = votes & 0xffffffffull;
      break;
  }
  for_lanes(x.executed, [&](unsigned lane) { d(lane, r); });
}

unsigned lane_field_bits(unsigned warp_size) {
  unsigned bits = 5;
  while ((1u << bits) < warp_size) ++bits;
  return bits;
}

void shfl(const Exec& x) {
  const ShflMode mode = x.inst.shfl;
  if (mode == ShflMode::None) x.unsupported("shfl needs .up/.down/.bfly/.idx");
  if (type_bits(x.inst.type) != 32) x.unsupported("shfl needs .b32");
  const unsigned w = x.warp_size();
  const u64 field = low_mask(lane_field_bits(w));
  const Dest d = x.dst(0, Type::B32), p = x.dst(1, Type::Pred);
  const Source a = x.src(2, Type::B32), b = x.src(3, Type::B32), c = x.src(4, Type::B32);
  if (x.has(5)) Source(x, x.op(5), Type::B32);  // membermask: validated, not used
  u64 src[kMaxWarpSize], out[kMaxWarpSize];
  bool in_range[kMaxWarpSize];
  for (unsigned lane = 0; lane < w; ++lane) src[lane] = a(lane);
  for_lanes(x.executed, [&](unsigned lane) {
    const int64_t bval = int64_t(b(lane) & field);
    const u64 cv = c(lane);
    const int64_t clamp = int64_t(cv & field), seg = int64_t((cv >> 8) & field);
    const int64_t l = lane;
    const int64_t max_lane = (l & seg) | (clamp & ~seg);
    const int64_t min_lane = l & seg;
    int64_t j = l;
    bool ok = false;
    switch (mode) {
      case ShflMode::Up:
        j = l - bval;
        ok = j >= max_lane;
        break;
      case ShflMode::Down:
        j = l + bval;
        ok = j <= max_lane;
        break;
      case ShflMode::Bfly:
        j = l ^ bval;
        ok = j <= max_lane;
        break;
      default:
        j = min_lane | (bval & ~seg);
        ok = j <= max_lane;
        break;
    }
    ok = ok && j >= 0 && j < int64_t(w);
    out[lane] = src[ok ? j : l];
    in_range[lane] = ok;
  });
  for_lanes(x.executed, [&](unsigned lane) {
    d(lane, out[lane]);
    p(lane, in_range[lane]);
  });
}

void activemask(const Exec& x) {
  const Dest d = x.dst(0, Type::B32);
  const u64 m = x.executed & 0xffffffffull;
  for_lanes(x.executed, [&](unsigned lane) { d(lane, m); });
}

// redux.sync.{min,max}{.abs}{.NaN}.f32: min/max's rules (a NaN loses to a
// number unless .NaN, -0 < +0) folded over the executed lanes in lane order,
// on the magnitudes with .abs. Subnormals are kept.
void redux_f32(const Exec& x) {
  const Dest d = x.dst(0, Type::F32);
  const Source a = x.src(1, Type::F32);
  if (x.has(2)) Source(x, x.op(2), Type::B32);  // membermask: validated, not used
  const bool is_max = x.inst.atom == AtomOp::Max, abs = x.inst.abs, nan = x.inst.nan;
  if (!is_max && x.inst.atom != AtomOp::Min) x.unsupported("redux .f32 needs .min or .max");
  if (x.executed == 0) return;
  bool first = true;
  float r = 0;
  for_lanes(x.executed, [&](unsigned lane) {
    float v = from_bits<float>(a(lane));
    if (abs) v = std::fabs(v);
    r = first ? v : from_bits<float>(min_max(r, v, is_max, nan));
    first = false;
  });
  const u64 bits = std::isnan(r) ? canonical_nan<float>() : to_bits(r);
  for_lanes(x.executed, [&](unsigned lane) { d(lane, bits); });
}

// redux.sync: .add (wrapping to 32 bits), .min/.max (signed for .s32),
// .and/.or/.xor over the executed lanes; every executed lane gets the result.
void redux(const Exec& x) {
  const Type t = x.inst.type;
  if (t == Type::F32) return redux_f32(x);
  if (type_bits(t) != 32 || is_float(t)) x.unsupported("redux needs .u32, .s32 or .b32");
  const AtomOp op = x.inst.atom;
  const Dest d = x.dst(0, t);
  const Source a = x.src(1, t);
  if (x.has(2)) Source(x, x.op(2), Type::B32);  // membermask: validated, not used
  if (x.executed == 0) return;
  const bool s = is_signed(t);
  bool first = true;
  u64 r = 0;
  for_lanes(x.executed, [&](unsigned lane) {
    const u64 v = a(lane);
    if (first) {
      r = v;
      first = false;
      return;
    }
    switch (op) {
      case AtomOp::Add:
        r = zext(r + v, 32);
        break;
      case AtomOp::Min:
        r = (s ? int64_t(v) < int64_t(r) : v < r) ? v : r;
        break;
      case AtomOp::Max:
        r = (s ? int64_t(v) > int64_t(r) : v > r) ? v : r;
        break;
      case AtomOp::And:
        r &= v;
        break;
      case AtomOp::Or:
        r |= v;
        break;
      case AtomOp::Xor:
        r ^= v;
        break;
      default:
        x.unsupported("redux needs .add, .min, .max, .and, .or or .xor");
    }
  });
  for_lanes(x.executed, [&](unsigned lane) { d(lane, r); });
}

// match.any: each lane gets the lanes whose a equals its own; match.all:
// every lane gets the executed lanes if all a agree (p true), else 0 (p false).
void match(const Exec& x) {
  const Dest d = x.dst(0, Type::B32), p = x.dst(1, Type::Pred);
  const Source a = x.src(2, x.inst.type);
  Source(x, x.op(3), Type::B32);  // membermask: validated, not used
  u64 v[kMaxWarpSize];
  for_lanes(x.executed, [&](unsigned lane) { v[lane] = a(lane); });
  if (x.inst.vote == VoteMode::Any) {
    for_lanes(x.executed, [&](unsigned lane) {
      LaneMask same = 0;
      for_lanes(x.executed, [&](unsigned other) {
        if (v[other] == v[lane]) same |= LaneMask(1) << other;
      });
      d(lane, same & 0xffffffffull);
    });
    return;
  }
  bool all = true;
  if (x.executed) {
    const u64 first = v[__builtin_ctzll(x.executed)];
    for_lanes(x.executed, [&](unsigned lane) { all = all && v[lane] == first; });
  }
  for_lanes(x.executed, [&](unsigned lane) {
    d(lane, all ? x.executed & 0xffffffffull : 0);
    p(lane, all);
  });
}

// elect.sync: d the leader's lane id in every executed lane, p true in the leader.
void elect(const Exec& x) {
  const Dest d = x.dst(0, Type::B32), p = x.dst(1, Type::Pred);
  Source(x, x.op(2), Type::B32);  // membermask: validated, not used
  if (x.executed == 0) return;
  const unsigned leader = static_cast<unsigned>(__builtin_ctzll(x.executed));
  for_lanes(x.executed, [&](unsigned lane) {
    d(lane, leader);
    p(lane, lane == leader);
  });
}

}  // namespace

void exec_warp(const Exec& x) {
  switch (x.inst.op) {
    case Opcode::Vote:
      return vote(x);
    case Opcode::Shfl:
      return shfl(x);
    case Opcode::Activemask:
      return activemask(x);
    case Opcode::Redux:
      return redux(x);
    case Opcode::Match:
      return match(x);
    case Opcode::Elect:
      return elect(x);
    default:
      x.unsupported("not a warp opcode");
  }
}

}  // namespace warptlm::sem
