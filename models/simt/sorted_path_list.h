// Simty's sorted path list (Collange & Brunie, CompAS 2017, Sec. 2.4 and 3.2):
// every thread of the warp is in exactly one path (pc, call depth, mask); the
// paths are ordered by maximal call depth, then minimal PC, and the head of the
// order is the active path, the only one that issues. Convergence needs no
// reconvergence PC: the order puts paths with the same pc and depth next to
// each other, so comparing the active path with the next one finds them.
//
// The list is held as Simty holds it: two hot context table entries (HCT0,
// the active path; HCT1, its runner-up) and a cold context table (CCT) kept
// sorted, sized for the worst case of one thread per path. After each
// instruction the active path yields up to two new paths a and b; with c from
// HCT1 the context compact-sort unit (CCS) sorts and merges them into
// x < y < z: x goes to HCT0, y to HCT1, z is inserted into the CCT when all
// three are valid, and when only x is valid y is extracted from the CCT.
//
// A forward divergent branch therefore continues at the fall-through and
// saves the taken path; a backward one continues at the target and saves the
// fall-through: the ordering does it, not a special case.
//
// Barriers (the paper's Simty has none) are per thread, as on sm_70: a path
// that executes bar.sync while other lanes of the warp are elsewhere waits
// aside until every live lane has arrived or exited; then the waiting paths
// rejoin the list, and the executor holds them until the barrier completes.
//
// Timing (TableTiming::cct_access): the HCT entries are read and written in
// the path unit's pipeline and cost nothing; every CCT insert or extract an
// advance() makes (z inserted, y extracted, the sorter's swap of HCT1 with a
// CCT entry, which is one of each, paths leaving a barrier) costs cct_access
// cycles in which the warp cannot issue (docs/reconvergence_sorted_list.md).
#pragma once

#include <vector>

#include "simt/divergence_joins.h"
#include "simt/reconvergence_unit.h"
#include "simt/thread_call_frames.h"

namespace warptlm {

class SortedPathList : public ReconvergenceUnit {
 public:
  struct Entry {
    Pc pc = 0;
    LaneMask mask = 0;   // 0: the entry is invalid
    uint32_t depth = 0;  // call depth
  };

  explicit SortedPathList(unsigned warp_size);
  const char* name() const override { return "sorted_list"; }
  void reset(Pc entry, LaneMask mask) override;
  bool finished() const override { return hct_[0].mask == 0; }
  void issuable(std::vector<Path>& out) const override;
  unsigned advance(uint32_t split, const ControlEvent& event) override;
  // Peak number of paths held (HCT and CCT together).
  unsigned max_depth() const override { return counters_.peak_entries; }
  bool per_thread_barriers() const override { return true; }
  // peak_hct_entries, peak_cct_entries, cct_inserts, cct_extracts.
  void own_counters(uint64_t* out) const override;
  // The statistics own_counters() reports, in its order (registered with the scheme).
  static std::vector<StatInfo> stat_infos();

  // The tables, for tests and statistics: HCT entry 0 or 1, and the CCT in
  // its sorted order (first = next to be extracted).
  const Entry& hot(unsigned i) const { return hct_[i]; }
  std::vector<Entry> cold() const { return {cct_.rbegin(), cct_.rend()}; }
  unsigned cct_capacity() const { return cct_capacity_; }
  unsigned peak_hct() const { return tables_.peak_hct; }
  unsigned peak_cct() const { return tables_.peak_cct; }
  // Merges of two paths that a branch split (in the CCS, between HCT0 and
  // HCT1, or at a barrier); see DivergenceJoins for what counts and what is early.
  uint64_t reconvergences() const { return counters_.reconvergences; }
  uint64_t cct_insertions() const { return tables_.cct_inserts; }
  uint64_t cct_extractions() const { return tables_.cct_extracts; }

  // The order of the list: deeper call level first, then lower pc.
  static bool before(const Entry& a, const Entry& b) {
    return a.depth != b.depth ? a.depth > b.depth : a.pc < b.pc;
  }
  static bool same_place(const Entry& a, const Entry& b) {
    return a.pc == b.pc && a.depth == b.depth;
  }

 private:
  // The CCS: sorts and merges up to three paths into `out`; returns how many.
  unsigned compact_sort(const Entry* in, unsigned n, Entry* out);
  void cct_insert(const Entry& e);
  Entry cct_extract();
  // What Simty's background CCT sorter and the HCT0/HCT1 comparison leave
  // before the next issue: HCT1 no later than any CCT entry, and HCT0 merged
  // with HCT1 when they are at the same place.
  void settle();
  // Barriers: paths that executed bar.sync wait aside until no other lane of
  // the warp is left to run, then rejoin the list.
  void park(const Entry& e);
  void unpark();
  void note_occupancy();
  // Two paths at one place become one: the statistics' judgement.
  void merged(const Entry& into, const Entry& from) {
    joins_.merge(into.mask, from.mask, from.pc, from.depth, counters_);
  }

  unsigned warp_size_;
  unsigned cct_capacity_;
  Entry hct_[2];
  std::vector<Entry> cct_;     // sorted latest first, so the next to extract is at the back
  std::vector<Entry> parked_;  // waiting at a barrier, distinct places
  ThreadCallFrames calls_;
  DivergenceJoins joins_;
  // The tables' own counters (stat_infos()), cumulative since reset().
  struct TableCounters {
    unsigned peak_hct = 0, peak_cct = 0;
    uint64_t cct_inserts = 0, cct_extracts = 0;
  } tables_;
};

}  // namespace warptlm
