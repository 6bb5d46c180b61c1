// Multi-path IPDOM (ElTantawy, Ma, O'Connor, Aamodt, HPCA 2014): the SIMT
// stack split into a warp Split Table (ST) of issuable splits and a
// Reconvergence Table (RT) of splits waiting at an immediate post-dominator.
// Any number of splits may issue, in any order; reconvergence still happens
// at the IPDOM of every divergent branch. See docs/reconvergence_mp_ipdom.md.
//
// Timing (TableTiming::rt_access): the ST is the issue stage's own structure
// (read every issue, like the stack top) and costs nothing; every RT entry an
// advance() writes (a divergent branch's or a call's new entry) or updates (an
// arrival, lanes of a ret or exit leaving an entry of their R-index chain)
// costs rt_access cycles in which the warp cannot issue. Moving a completed
// entry back to the ST is part of the update that emptied its pending mask.
#pragma once

#include <cstdint>
#include <vector>

#include "simt/reconvergence_unit.h"

namespace warptlm {

class MultiPathIpdom : public ReconvergenceUnit {
 public:
  static constexpr int32_t kNoEntry = -1;  // R-index of splits with no RT entry above them

  // An ST entry: a warp split that may issue.
  struct Split {
    Pc pc = 0;
    LaneMask mask = 0;
    Pc rpc = kExitPc;           // where it waits: the pc of RT[rindex] (kExitPc: none)
    int32_t rindex = kNoEntry;  // its RT entry
    uint32_t depth = 0;         // device-function call depth
    uint32_t slot = 0;          // ST slot (= Path::split); set for live splits
  };
  // An RT entry. Divergence entries come from divergent branches; call-frame
  // entries park the calling split until every lane of the call returned.
  struct RtEntry {
    Pc pc = 0;                  // reconvergence pc (call frame: the return address)
    Pc rpc = kExitPc;           // where the reconverged split waits next
    LaneMask reconv_mask = 0;   // lanes that continue at pc once pending is empty
    LaneMask pending_mask = 0;  // lanes that have not arrived yet
    int32_t rindex = kNoEntry;  // the parent's RT entry
    uint32_t depth = 0;
    bool call_frame = false;
    bool valid = false;
    uint32_t index = 0;
    bool arrived = false;  // a split already arrived here (statistics)
  };

  // st_capacity: ST entries (0: warp_size, which never overflows since a
  // split holds at least one lane); rt_capacity: divergence entries in the RT
  // (0: kDefaultRtCapacity). Call-frame entries do not count. Both at most
  // kMaxCapacity (the options st_entries / rt_entries: option_infos()).
  explicit MultiPathIpdom(unsigned warp_size, unsigned st_capacity = 0, unsigned rt_capacity = 0);
  static constexpr unsigned kDefaultRtCapacity = 32;
  // The largest warp. The ST holds at most one split per lane; a divergence
  // entry is made by a split of two or more lanes into two disjoint sides and
  // an entry nested in it is made inside one side, so nested divergence
  // needs fewer RT entries than the warp has lanes.
  static constexpr unsigned kMaxCapacity = 64;

  const char* name() const override { return "mp_ipdom"; }
  void reset(Pc entry, LaneMask mask) override;
  bool finished() const override { return live_ == 0 && deferred_.empty(); }
  // The live splits of the innermost call frame, round-robin: starting with
  // the ST slot after the one that issued last.
  void issuable(std::vector<Path>& out) const override;
  unsigned advance(uint32_t split, const ControlEvent& event) override;
  // Peak of ST + RT + deferred entries.
  unsigned max_depth() const override { return counters_.peak_entries; }
  // peak_st_entries, peak_rt_entries, rt_accesses, st_overflows, rt_overflows.
  void own_counters(uint64_t* out) const override;
  // The statistics own_counters() reports, in its order (registered with the scheme).
  static std::vector<StatInfo> stat_infos();
  // The options registered with the scheme: the table capacities.
  static std::vector<OptionInfo> option_infos();

  // Read-only views for tests and statistics.
  std::vector<Split> split_table() const;                           // live splits in slot order
  std::vector<RtEntry> reconvergence_table() const;                 // valid entries in index order
  const std::vector<Split>& deferred() const { return deferred_; }  // bottom first
  unsigned st_capacity() const { return st_capacity_; }
  unsigned rt_capacity() const { return rt_capacity_; }
  unsigned peak_st() const { return tables_.peak_st; }
  unsigned peak_rt() const { return tables_.peak_rt; }
  uint64_t st_overflows() const { return tables_.st_overflows; }  // splits deferred (ST full)
  uint64_t rt_overflows() const {
    return tables_.rt_overflows;
  }  // branches reconverging late (RT full)
  uint64_t rt_accesses() const { return tables_.rt_accesses; }  // RT entries written or updated

 private:
  // Puts a split into the ST, or into the deferred stack when the ST is
  // full; a split already at its reconvergence pc arrives instead.
  void place(const Split& s);
  void arrive(const Split& s);
  // RT entry `r` has no pending lanes: it becomes a split again (or vanishes
  // when all its lanes left); a call frame completes.
  void complete(int32_t r);
  // Removes lanes that returned (ret) or exited from the RT entries above
  // `rindex`, up to the innermost call frame (ret) or to the top (exit).
  void retire(int32_t rindex, LaneMask lanes, bool exit);
  // Releases deferred splits while nothing of the innermost frame can issue.
  void settle();
  int32_t new_rt_entry();
  void free_slot(uint32_t slot);
  void track();

  unsigned warp_size_, st_capacity_, rt_capacity_;
  std::vector<Split> st_;  // st_capacity_ slots; live_ says which hold a split
  uint64_t live_ = 0;
  std::vector<RtEntry> rt_;  // grows only with call frames beyond rt_capacity_
  std::vector<int32_t> free_rt_;
  std::vector<Split> deferred_;  // LIFO, like the IPDOM stack's waiting entries
  unsigned rt_divergence_ = 0;   // valid divergence entries
  unsigned rt_live_ = 0;
  uint32_t frame_depth_ = 0;  // call depth of the innermost open frame
  uint32_t next_slot_ = 0;    // round-robin start
  unsigned returned_ = 0;     // call frames completed during this advance()
  // The tables' own counters (stat_infos()), cumulative since reset().
  struct TableCounters {
    unsigned peak_st = 0, peak_rt = 0;
    uint64_t rt_accesses = 0, st_overflows = 0, rt_overflows = 0;
  } tables_;
};

}  // namespace warptlm
