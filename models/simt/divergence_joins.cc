#include "simt/divergence_joins.h"

namespace warptlm {

DivergenceJoins::DivergenceJoins(unsigned warp_size)
    // A join per lane split and per nested call covers ordinary programs;
    // beyond that the pool is swept before it grows.
    : warp_size_(warp_size), sweep_at_(2 * size_t(warp_size) + 4) {
  joins_.reserve(sweep_at_);
  free_.reserve(sweep_at_);
}

void DivergenceJoins::reset(LaneMask live) {
  live_ = live;
  joins_.clear();
  free_.clear();
  joins_.emplace_back();
  for (unsigned l = 0; l < warp_size_ && l < kMaxWarpSize; ++l) lane_join_[l] = kRoot;
}

uint32_t DivergenceJoins::heal(uint32_t j, LaneMask path, unsigned depth) const {
  while (j != kRoot) {
    const Join& join = joins_[j];
    if ((join.mask & live_ & ~path) != 0) break;  // some of its lanes are elsewhere
    if (join.call && depth > join.level) break;   // still inside the call
    j = join.parent;
  }
  return j;
}

void DivergenceJoins::split(LaneMask path, Pc reconv, unsigned depth) {
  const uint32_t j = heal(join_of(path), path, depth);
  const Join& under = joins_[j];
  if (j != kRoot && !under.call && under.rpc == reconv && under.level == depth &&
      (under.passed & path) == 0) {
    // A second branch with the same IPDOM (`if (A && B)`): its halves
    // reconverge there with the first one's, as the IPDOM stack has them.
    assign(path, j);
    return;
  }
  assign(path, open(reconv, path, j, depth, false));
}

void DivergenceJoins::call(LaneMask path, Pc return_pc, unsigned depth) {
  const uint32_t j = heal(join_of(path), path, depth);
  assign(path, open(return_pc, path, j, depth, true));
}

void DivergenceJoins::ret(LaneMask lanes, unsigned depth) {
  // The lanes of one returning path share a join: walk once per distinct one.
  uint32_t from = ~uint32_t(0), to = kRoot;
  for (LaneMask m = lanes; m; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctzll(m));
    if (lane_join_[l] != from) {
      from = to = lane_join_[l];
      while (to != kRoot && !(joins_[to].call && joins_[to].level == depth)) to = joins_[to].parent;
    }
    lane_join_[l] = to;
  }
}

DivergenceJoins::Merge DivergenceJoins::merge(LaneMask a, LaneMask b, Pc pc, unsigned depth,
                                              ReconvergenceCounters& counters) {
  // The innermost common join: climb the deeper chain, then both together.
  uint32_t x = join_of(a), y = join_of(b);
  while (joins_[x].height > joins_[y].height) x = joins_[x].parent;
  while (joins_[y].height > joins_[x].height) y = joins_[y].parent;
  while (x != y) x = joins_[x].parent, y = joins_[y].parent;
  const Join& common = joins_[x];
  Merge kind = Merge::NotDivergence;
  if (x != kRoot && !common.call) {
    kind = pc == common.rpc                 ? Merge::AtIpdom
           : (common.passed & (a | b)) != 0 ? Merge::Late
                                            : Merge::Early;
    ++counters.reconvergences;
    if (kind == Merge::Early) ++counters.early_reconvergences;
  }
  assign(a | b, heal(x, a | b, depth));
  return kind;
}

uint32_t DivergenceJoins::open(Pc rpc, LaneMask mask, uint32_t parent, unsigned level, bool call) {
  if (free_.empty() && joins_.size() >= sweep_at_) {
    collect();
    if (free_.empty()) sweep_at_ *= 2;  // all in use: grow (deep nesting only)
  }
  uint32_t j;
  if (!free_.empty()) {
    j = free_.back();
    free_.pop_back();
  } else {
    j = static_cast<uint32_t>(joins_.size());
    joins_.emplace_back();
  }
  Join& join = joins_[j];
  join.rpc = rpc;
  join.mask = mask;
  join.passed = 0;
  join.parent = parent;
  join.height = joins_[parent].height + 1;
  join.level = level;
  join.call = call;
  return j;
}

void DivergenceJoins::assign(LaneMask lanes, uint32_t j) {
  for (LaneMask m = lanes; m; m &= m - 1) lane_join_[__builtin_ctzll(m)] = j;
}

void DivergenceJoins::collect() {
  for (Join& j : joins_) j.marked = false;
  joins_[kRoot].marked = true;
  for (LaneMask m = live_; m; m &= m - 1)
    for (uint32_t j = lane_join_[__builtin_ctzll(m)]; !joins_[j].marked; j = joins_[j].parent)
      joins_[j].marked = true;
  free_.clear();
  for (uint32_t j = static_cast<uint32_t>(joins_.size()); j-- > 1;)
    if (!joins_[j].marked) free_.push_back(j);
}

}  // namespace warptlm
