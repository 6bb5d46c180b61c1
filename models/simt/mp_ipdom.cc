#include "simt/mp_ipdom.h"

#include <algorithm>
#include <bitset>
#include <stdexcept>
#include <string>

namespace warptlm {
namespace {

unsigned lowest(uint64_t m) { return static_cast<unsigned>(__builtin_ctzll(m)); }
unsigned count(uint64_t m) { return static_cast<unsigned>(std::bitset<64>(m).count()); }

}  // namespace

MultiPathIpdom::MultiPathIpdom(unsigned warp_size, unsigned st_capacity, unsigned rt_capacity)
    : warp_size_(warp_size),
      st_capacity_(st_capacity ? st_capacity : warp_size),
      rt_capacity_(rt_capacity ? rt_capacity : kDefaultRtCapacity) {
  if (warp_size_ == 0 || warp_size_ > kMaxWarpSize)
    throw std::invalid_argument("mp_ipdom: warp size must be 1.." + std::to_string(kMaxWarpSize));
  if (st_capacity_ > kMaxCapacity)
    throw std::invalid_argument("mp_ipdom: split table capacity must be 1.." +
                                std::to_string(kMaxCapacity) + ", got " +
                                std::to_string(st_capacity_));
  if (rt_capacity_ > kMaxCapacity)
    throw std::invalid_argument("mp_ipdom: reconvergence table capacity must be 1.." +
                                std::to_string(kMaxCapacity) + ", got " +
                                std::to_string(rt_capacity_));
  // Everything the tables can need is reserved here, so advance() allocates
  // only when call frames nest deeper than ever before.
  st_.resize(st_capacity_);
  rt_.reserve(rt_capacity_ + 8);
  free_rt_.reserve(rt_capacity_ + 8);
  deferred_.reserve(warp_size_);
}

void MultiPathIpdom::reset(Pc entry, LaneMask mask) {
  live_ = 0;
  rt_.clear();
  free_rt_.clear();
  deferred_.clear();
  rt_divergence_ = rt_live_ = 0;
  frame_depth_ = next_slot_ = 0;
  counters_ = {};
  tables_ = {};
  control_cycles_ = 0;
  place(Split{entry, mask, kExitPc, kNoEntry, 0, 0});
  track();
}

void MultiPathIpdom::issuable(std::vector<Path>& out) const {
  // Splits of outer frames wait: the executor keeps one call stack per warp,
  // so a call must complete before its caller's sibling paths run again.
  if ((live_ & (live_ - 1)) == 0) {  // one split (settle() made sure it can issue)
    if (live_) out.push_back({st_[lowest(live_)].pc, st_[lowest(live_)].mask, lowest(live_)});
    return;
  }
  uint64_t ready = 0;
  for (uint64_t m = live_; m; m &= m - 1)
    if (st_[lowest(m)].depth == frame_depth_) ready |= uint64_t(1) << lowest(m);
  const uint64_t later = ready & (~uint64_t(0) << next_slot_);
  for (uint64_t part : {later, ready & ~later})
    for (uint64_t m = part; m; m &= m - 1) {
      const Split& s = st_[lowest(m)];
      out.push_back({s.pc, s.mask, s.slot});
    }
}

unsigned MultiPathIpdom::advance(uint32_t split, const ControlEvent& ev) {
  if (split >= st_capacity_ || !((live_ >> split) & 1) || st_[split].depth != frame_depth_)
    throw std::logic_error("mp_ipdom: advance() on split " + std::to_string(split) +
                           ", which is not an issuable split");
  returned_ = 0;
  const uint64_t rt_before = tables_.rt_accesses;
  next_slot_ = (split + 1) % st_capacity_;
  Split& s = st_[split];
  const Split before = s;
  bool moved = true;     // s is still the split that issued, at a new pc
  bool reshaped = true;  // the tables changed: settle() and statistics needed
  switch (ev.kind) {
    case Control::MaskDefer:  // only in programs lowered for exec_mask
    case Control::MaskBranchZ:
    case Control::MaskJoin:
      throw_not_lowered_for(name());
    case Control::Branch: {
      const LaneMask taken = ev.executed & ev.active, not_taken = ev.active & ~taken;
      if (not_taken == 0 || taken == 0) {
        s.pc = not_taken == 0 ? ev.target : ev.next;
        reshaped = false;
        break;
      }
      // Divergence: the split leaves the ST; its two sides take its place and,
      // unless they reconverge where it would, an RT entry waits for them at
      // the branch's IPDOM with the split's own reconvergence point above it.
      free_slot(split);
      moved = false;
      Split t{ev.target, taken, before.rpc, before.rindex, before.depth, 0};
      Split n{ev.next, not_taken, before.rpc, before.rindex, before.depth, 0};
      if (ev.reconv != before.rpc) {
        if (rt_divergence_ < rt_capacity_) {
          const int32_t r = new_rt_entry();
          RtEntry& e = rt_[r];
          e.pc = ev.reconv;
          e.rpc = before.rpc;
          e.reconv_mask = e.pending_mask = before.mask;
          e.rindex = before.rindex;
          e.depth = before.depth;
          ++rt_divergence_;
          t.rpc = n.rpc = ev.reconv;
          t.rindex = n.rindex = r;
        } else {
          ++tables_.rt_overflows;  // RT full: both sides reconverge at the split's own point
        }
      }
      place(t);
      place(n);
      break;
    }
    case Control::Call: {
      s.pc = ev.next;
      reshaped = ev.executed != 0;
      if (ev.executed == 0) break;
      // The caller parks in the RT as a call frame: its non-calling lanes wait
      // at the return address with it until every calling lane returned.
      free_slot(split);
      moved = false;
      const int32_t r = new_rt_entry();
      RtEntry& e = rt_[r];
      e.pc = ev.next;
      e.rpc = before.rpc;
      e.reconv_mask = before.mask;
      e.pending_mask = ev.executed;
      e.rindex = before.rindex;
      e.depth = before.depth;
      e.call_frame = true;
      ++frame_depth_;
      place(Split{ev.target, ev.executed, kExitPc, r, before.depth + 1, 0});
      break;
    }
    case Control::Ret:
    case Control::Exit: {
      s.pc = ev.next;
      reshaped = ev.executed != 0;
      if (ev.executed == 0) break;
      s.mask &= ~ev.executed;
      if (s.mask == 0) {
        free_slot(split);
        moved = false;
      }
      retire(before.rindex, ev.executed, ev.kind == Control::Exit || before.depth == 0);
      break;
    }
    case Control::None:
    case Control::Barrier:
    case Control::Trap:  // the executor ends the run; nothing to reconverge
      s.pc = ev.next;
      reshaped = false;
      break;
  }
  if (moved && ((live_ >> split) & 1) && st_[split].pc == st_[split].rpc) {
    const Split done = st_[split];
    free_slot(split);
    arrive(done);
    reshaped = true;
  }
  if (!reshaped) {  // the common case: one split moved on, the RT untouched
    control_cycles_ = 0;
    return 0;
  }
  settle();
  track();
  charge(timing_.rt_access * static_cast<unsigned>(tables_.rt_accesses - rt_before));
  return returned_;
}

void MultiPathIpdom::place(const Split& s) {
  if (s.mask == 0) return;
  if (s.pc == s.rpc) {
    arrive(s);
    return;
  }
  if (count(live_) < st_capacity_) {
    const unsigned slot = lowest(~live_);
    st_[slot] = s;
    st_[slot].slot = slot;
    live_ |= uint64_t(1) << slot;
  } else {
    // ST full: serialise like the IPDOM stack; the split waits until nothing
    // of its frame can issue (see settle()).
    ++tables_.st_overflows;
    deferred_.push_back(s);
  }
}

void MultiPathIpdom::arrive(const Split& s) {
  if (s.rindex == kNoEntry)
    throw std::logic_error("mp_ipdom: a split reached a reconvergence pc with no RT entry");
  RtEntry& e = rt_[s.rindex];
  // Every split after the first to arrive merges into the entry, at its
  // branch's IPDOM (a full RT makes sides wait at the enclosing IPDOM
  // instead: later than theirs, never earlier).
  if (e.arrived) ++counters_.reconvergences;
  e.arrived = true;
  ++tables_.rt_accesses;  // the pending mask is read, cleared of s's lanes and tested
  e.pending_mask &= ~s.mask;
  if (e.pending_mask == 0) complete(s.rindex);
}

void MultiPathIpdom::complete(int32_t r) {
  RtEntry& e = rt_[r];
  e.valid = false;
  free_rt_.push_back(r);
  --rt_live_;
  if (e.call_frame) {
    ++returned_;
    --frame_depth_;
  } else {
    --rt_divergence_;
  }
  // The fields stay readable after the entry is freed: retire() follows
  // rindex links through entries completed on the way.
  place(Split{e.pc, e.reconv_mask, e.rpc, e.rindex, e.depth, 0});
}

void MultiPathIpdom::retire(int32_t rindex, LaneMask lanes, bool exit) {
  // The RT entries that know these lanes are exactly the split's R-index
  // chain. Returning lanes stay in the caller (the frame's reconvergence
  // mask); exiting lanes leave every level.
  for (int32_t r = rindex; r != kNoEntry; r = rt_[r].rindex) {
    RtEntry& e = rt_[r];
    ++tables_.rt_accesses;
    e.pending_mask &= ~lanes;
    if (exit || !e.call_frame) e.reconv_mask &= ~lanes;
    if (e.call_frame && !exit) break;
  }
  // Innermost first, so a completed entry's split arrives at its parent
  // before the parent is looked at.
  for (int32_t r = rindex; r != kNoEntry;) {
    const RtEntry& e = rt_[r];
    const int32_t parent = e.rindex;
    const bool stop = e.call_frame && !exit;
    if (e.valid && e.pending_mask == 0) complete(r);
    if (stop) break;
    r = parent;
  }
}

void MultiPathIpdom::settle() {
  for (;;) {
    bool any = false;
    for (uint64_t m = live_; m && !any; m &= m - 1) any = st_[lowest(m)].depth == frame_depth_;
    if (any) return;
    if (deferred_.empty()) {
      if (live_ != 0)
        throw std::logic_error("mp_ipdom: no split of the innermost call frame can issue");
      return;
    }
    const Split s = deferred_.back();
    if (s.depth != frame_depth_ || count(live_) >= st_capacity_)
      throw std::logic_error("mp_ipdom: a deferred split cannot be released");
    deferred_.pop_back();
    place(s);
  }
}

int32_t MultiPathIpdom::new_rt_entry() {
  int32_t r;
  if (!free_rt_.empty()) {
    r = free_rt_.back();
    free_rt_.pop_back();
  } else {
    r = static_cast<int32_t>(rt_.size());
    rt_.emplace_back();
  }
  rt_[r] = RtEntry{};
  ++tables_.rt_accesses;  // the new entry is written
  rt_[r].valid = true;
  rt_[r].index = static_cast<uint32_t>(r);
  ++rt_live_;
  return r;
}

void MultiPathIpdom::free_slot(uint32_t slot) { live_ &= ~(uint64_t(1) << slot); }

void MultiPathIpdom::track() {
  const unsigned st = count(live_);
  tables_.peak_st = std::max(tables_.peak_st, st);
  tables_.peak_rt = std::max(tables_.peak_rt, rt_live_);
  counters_.peak_entries =
      std::max(counters_.peak_entries, st + rt_live_ + static_cast<unsigned>(deferred_.size()));
}

void MultiPathIpdom::own_counters(uint64_t* out) const {
  out[0] = tables_.peak_st;
  out[1] = tables_.peak_rt;
  out[2] = tables_.rt_accesses;
  out[3] = tables_.st_overflows;
  out[4] = tables_.rt_overflows;
}

std::vector<OptionInfo> MultiPathIpdom::option_infos() {
  return {
      {"st_entries", 0, kMaxCapacity, 0, false,
       "split table entries (0: the warp size, never full); when full, a new split waits on a "
       "LIFO until its frame idles"},
      {"rt_entries", 0, kMaxCapacity, 0, false,
       "reconvergence table divergence entries (0: 32); when full, a divergent branch makes no "
       "entry and its sides reconverge at the enclosing reconvergence point"},
  };
}

std::vector<StatInfo> MultiPathIpdom::stat_infos() {
  return {
      {"peak_st_entries", "entries",
       "mp_ipdom: peak split table entries, max over warps (0 otherwise)", true},
      {"peak_rt_entries", "entries",
       "mp_ipdom: peak reconvergence table entries (call frames included), max over warps", true},
      {"rt_accesses", "accesses",
       "mp_ipdom: reconvergence table entries written (divergence, call) or updated (arrival, "
       "ret, exit)"},
      {"st_overflows", "splits",
       "mp_ipdom: splits deferred because the split table was full (mp_ipdom.st_entries)"},
      {"rt_overflows", "branches",
       "mp_ipdom: divergent branches that found the reconvergence table full and reconverge at "
       "their split's own point (mp_ipdom.rt_entries)"},
  };
}

std::vector<MultiPathIpdom::Split> MultiPathIpdom::split_table() const {
  std::vector<Split> out;
  for (uint64_t m = live_; m; m &= m - 1) out.push_back(st_[lowest(m)]);
  return out;
}

std::vector<MultiPathIpdom::RtEntry> MultiPathIpdom::reconvergence_table() const {
  std::vector<RtEntry> out;
  for (const RtEntry& e : rt_)
    if (e.valid) out.push_back(e);
  return out;
}

}  // namespace warptlm
