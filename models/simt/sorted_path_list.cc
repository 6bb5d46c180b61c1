#include "simt/sorted_path_list.h"

#include <algorithm>
#include <stdexcept>

namespace warptlm {
namespace {

unsigned lowest_lane(LaneMask m) {
  unsigned l = 0;
  while (!(m & 1)) m >>= 1, ++l;
  return l;
}

}  // namespace

SortedPathList::SortedPathList(unsigned warp_size)
    // Worst case one thread per path, two of them in the HCT.
    : warp_size_(warp_size), cct_capacity_(warp_size > 2 ? warp_size - 2 : 0), joins_(warp_size) {
  cct_.reserve(cct_capacity_);  // no allocation while running
  parked_.reserve(warp_size);
}

void SortedPathList::reset(Pc entry, LaneMask mask) {
  hct_[0] = {entry, mask, 0};
  hct_[1] = {};
  cct_.clear();
  parked_.clear();
  calls_.reset(warp_size_);
  joins_.reset(mask);
  counters_ = {};
  tables_ = {};
  control_cycles_ = 0;
  note_occupancy();
}

void SortedPathList::issuable(std::vector<Path>& out) const {
  if (hct_[0].mask) out.push_back({hct_[0].pc, hct_[0].mask, 0});
}

unsigned SortedPathList::compact_sort(const Entry* in, unsigned n, Entry* out) {
  unsigned m = 0;
  for (unsigned i = 0; i < n; ++i) {
    const Entry& e = in[i];
    unsigned j = 0;
    while (j < m && before(out[j], e)) ++j;
    if (j < m && same_place(out[j], e)) {
      merged(out[j], e);
      out[j].mask |= e.mask;  // two paths at the same place: one path
      continue;
    }
    for (unsigned k = m; k > j; --k) out[k] = out[k - 1];
    out[j] = e;
    ++m;
  }
  return m;
}

void SortedPathList::cct_insert(const Entry& e) {
  if (cct_.size() >= cct_capacity_)
    throw std::logic_error("sorted_list: cold context table overflow");
  // Latest first: the insertion point is after every entry that e precedes.
  auto at = std::upper_bound(cct_.begin(), cct_.end(), e,
                             [](const Entry& x, const Entry& y) { return before(y, x); });
  cct_.insert(at, e);
  ++tables_.cct_inserts;
}

SortedPathList::Entry SortedPathList::cct_extract() {
  Entry e = cct_.back();
  cct_.pop_back();
  ++tables_.cct_extracts;
  return e;
}

void SortedPathList::settle() {
  // The background sorter swaps HCT1 with a CCT entry that should precede it
  // (after a jump took the runner-up past cold paths). Simty does it over
  // later cycles; functionally it is done before the next issue.
  if (hct_[1].mask && !cct_.empty() && before(cct_.back(), hct_[1])) {
    Entry up = cct_extract();
    cct_insert(hct_[1]);
    hct_[1] = up;
  }
  // Convergence: the active path against the next one only.
  while (hct_[1].mask && same_place(hct_[0], hct_[1])) {
    merged(hct_[0], hct_[1]);
    hct_[0].mask |= hct_[1].mask;
    hct_[1] = cct_.empty() ? Entry{} : cct_extract();
  }
}

void SortedPathList::park(const Entry& e) {
  for (Entry& p : parked_)
    if (same_place(p, e)) {
      merged(p, e);
      p.mask |= e.mask;
      return;
    }
  parked_.push_back(e);
}

void SortedPathList::unpark() {
  // The list is empty (HCT1 was, so the CCT was too): the waiting paths fill
  // it again in order, as repeated CCS passes would.
  std::sort(parked_.begin(), parked_.end(), before);
  hct_[0] = parked_[0];
  if (parked_.size() > 1) hct_[1] = parked_[1];
  for (size_t i = parked_.size(); i-- > 2;) cct_insert(parked_[i]);
  parked_.clear();
}

void SortedPathList::note_occupancy() {
  unsigned hot = (hct_[0].mask ? 1u : 0u) + (hct_[1].mask ? 1u : 0u);
  // Paths waiting at a barrier stay in the context tables in hardware.
  unsigned cold = static_cast<unsigned>(cct_.size() + parked_.size());
  tables_.peak_hct = std::max(tables_.peak_hct, hot);
  tables_.peak_cct = std::max(tables_.peak_cct, cold);
  counters_.peak_entries = std::max(counters_.peak_entries, hot + cold);
}

void SortedPathList::own_counters(uint64_t* out) const {
  out[0] = tables_.peak_hct;
  out[1] = tables_.peak_cct;
  out[2] = tables_.cct_inserts;
  out[3] = tables_.cct_extracts;
}

std::vector<StatInfo> SortedPathList::stat_infos() {
  return {
      {"peak_hct_entries", "entries", "sorted_list: peak hot context table entries (at most 2)",
       true},
      {"peak_cct_entries", "entries",
       "sorted_list: peak cold context table entries (paths waiting at a barrier included)", true},
      {"cct_inserts", "paths",
       "sorted_list: paths inserted into the cold context table (a sorter swap counts one)"},
      {"cct_extracts", "paths",
       "sorted_list: paths extracted from the cold context table (a sorter swap counts one)"},
  };
}

unsigned SortedPathList::advance(uint32_t split, const ControlEvent& ev) {
  if (split != 0 || hct_[0].mask == 0)
    throw std::logic_error("sorted_list: advance() on a path that is not the active one");
  const Entry act = hct_[0];
  const uint64_t cct_before = tables_.cct_inserts + tables_.cct_extracts;
  joins_.issued(act.mask, act.pc);
  const LaneMask done = ev.executed & act.mask;  // lanes the instruction acted on
  const LaneMask rest = act.mask & ~done;
  Entry in[3];  // a, b from the active path, then c from HCT1
  unsigned n = 0;
  unsigned frames = 0;
  switch (ev.kind) {
    case Control::MaskDefer:  // only in programs lowered for exec_mask
    case Control::MaskBranchZ:
    case Control::MaskJoin:
      throw_not_lowered_for(name());
    case Control::Branch:
      if (done && rest) joins_.split(act.mask, ev.reconv, act.depth);
      if (done) in[n++] = {ev.target, done, act.depth};
      if (rest) in[n++] = {ev.next, rest, act.depth};
      break;
    case Control::Call:
      if (done) {
        calls_.call(done, act.depth, ev.next);
        joins_.call(act.mask, ev.next, act.depth);
        in[n++] = {ev.target, done, act.depth + 1};
      }
      if (rest) in[n++] = {ev.next, rest, act.depth};
      break;
    case Control::Ret:
      if (done) {
        if (act.depth == 0) throw std::logic_error("sorted_list: ret at call depth 0");
        frames = calls_.ret(done);
        joins_.ret(done, act.depth - 1);
        // The deepest level runs first, so one frame's lanes all came from the
        // same call and share its return PC.
        const unsigned d = act.depth - 1;
        const Pc back = calls_.return_pc(lowest_lane(done), d);
        for (LaneMask m = done; m; m &= m - 1)
          if (calls_.return_pc(lowest_lane(m), d) != back)
            throw std::logic_error("sorted_list: lanes of one frame with different return PCs");
        in[n++] = {back, done, d};
      }
      if (rest) in[n++] = {ev.next, rest, act.depth};
      break;
    case Control::Exit:
      if (done) frames = calls_.exit(done);
      joins_.exit(done);
      if (rest) in[n++] = {ev.next, rest, act.depth};
      break;
    case Control::Barrier:
      // Barriers are per thread (sm_70): the arrived lanes wait aside.
      if (done) park({ev.next, done, act.depth});
      if (rest) in[n++] = {ev.next, rest, act.depth};
      break;
    case Control::None:
    case Control::Trap:  // the executor ends the run on a trap
      in[n++] = {ev.next, act.mask, act.depth};
      break;
  }
  if (hct_[1].mask) in[n++] = hct_[1];

  Entry out[3];
  const unsigned m = compact_sort(in, n, out);
  hct_[0] = m > 0 ? out[0] : Entry{};
  hct_[1] = m > 1 ? out[1] : Entry{};
  if (m == 3) cct_insert(out[2]);
  if (m == 1 && !cct_.empty()) hct_[1] = cct_extract();
  if (m > 0) settle();
  if (m == 0 && !parked_.empty()) unpark();  // no lane left to run: on past the barrier
  note_occupancy();
  const uint64_t cct_accesses = tables_.cct_inserts + tables_.cct_extracts - cct_before;
  charge(timing_.cct_access * static_cast<unsigned>(cct_accesses));
  return frames;
}

}  // namespace warptlm
