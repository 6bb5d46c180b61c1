// CAPRI's compaction-adequacy prediction table (CAPT; Rhu & Erez, ISCA 2012):
// per divergent branch, whether making the CTA's warps wait at it and compact
// is predicted to pay (fewer warps after compaction than before). A branch
// predicted inadequate lets warps run on without waiting, as without
// compaction. docs/compaction.md, "CAPRI", gives the organisation and the
// choices the paper leaves open.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/ir.h"

namespace warptlm {

struct CapriCounters {
  uint64_t lookups = 0;            // divergent branches predicted
  uint64_t predicted_compact = 0;  // ... predicted adequate: the CTA waited and compacted
  uint64_t misses = 0;             // ... whose branch had no entry (predicted adequate)
  uint64_t updates = 0;            // adequacy outcomes learnt
  uint64_t mispredictions = 0;     // outcomes that differ from the prediction made for them
};

class CapriPredictor {
 public:
  // `entries`: table size, a power of two (direct-mapped on the branch's
  // instruction index, tagged with the full PC); `history_bits`: width of
  // each entry's saturating adequacy counter (1 = the last outcome).
  // std::invalid_argument naming the field for values out of range.
  CapriPredictor(unsigned entries, unsigned history_bits);

  // Whether the divergent branch at `pc` synchronises the CTA and compacts.
  // A branch without an entry is predicted adequate, so that its first
  // instance compacts (TBC's behaviour) and is learnt from.
  bool predict(Pc pc);
  // What predict(pc) would answer, without counting a lookup: the timing
  // model decides at a set's first arrival whether its warps wait.
  bool peek(Pc pc) const;
  // The adequacy observed at a dynamic instance of the branch at `pc`
  // (compaction needs fewer warps than the warps arriving), whether or not
  // that instance compacted: allocates or replaces the entry.
  void update(Pc pc, bool adequate, bool predicted);

  unsigned entries() const { return static_cast<unsigned>(table_.size()); }
  unsigned history_bits() const { return history_bits_; }
  const CapriCounters& counters() const { return counters_; }

 private:
  struct Entry {
    Pc tag = kExitPc;  // kExitPc: empty
    uint8_t counter = 0;
  };
  Entry& slot(Pc pc) { return table_[(pc / kInstrBytes) & (table_.size() - 1)]; }

  std::vector<Entry> table_;
  unsigned history_bits_;
  uint8_t max_;        // 2^history_bits - 1
  uint8_t threshold_;  // predict adequate at or above it: 2^(history_bits-1)
  CapriCounters counters_;
};

}  // namespace warptlm
