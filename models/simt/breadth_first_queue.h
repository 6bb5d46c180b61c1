// Breadth-first traversal (Collange & Brunie, CompAS 2017, Sec. 2.3): the path
// list is a FIFO queue, so every path gets its turn and a thread spinning on
// a lock cannot starve the path that holds it. The head is the active path;
// it runs one basic block: after any branch instruction it goes to the back
// of the queue (a divergent branch enqueues its fall-through, then its taken
// half).
//
// Merging. Breadth-first still needs safe reconvergence points (Sec. 2.3):
// a divergent branch opens a join at its IPDOM (from the finalizer), holding
// the lanes that diverged; each path belongs to its innermost join. A path
// whose pc reaches its join's IPDOM parks there; when the join's last live
// lane arrives, the parked lanes become one path at the IPDOM, in the
// enclosing join, at the back of the queue. A divergent branch whose IPDOM
// is its path's own join's adds its halves to that join (as the IPDOM stack
// replaces its entry). Besides, two paths meet when one is enqueued at the pc
// of another one of the same join: they merge on the spot, at the queued
// path's place (an early reconvergence, before the IPDOM).
//
// Calls are not preemptible: the warp's call frames are per warp, so while a
// path is inside a call only that call's paths run (their own queue); the
// caller's queue waits with the calling path at its head, resumed after the
// call with its lanes when every callee lane has returned or exited.
#pragma once

#include <cstdint>
#include <vector>

#include "simt/reconvergence_unit.h"

namespace warptlm {

class BreadthFirstQueue : public ReconvergenceUnit {
 public:
  static constexpr uint32_t kNoJoin = ~uint32_t(0);
  struct Entry {
    Pc pc = 0;
    LaneMask mask = 0;
    uint32_t join = kNoJoin;  // innermost join, index into joins()
    uint32_t id = 0;          // the split id the executor passes back
  };
  struct Join {
    Pc rpc = kExitPc;
    LaneMask mask = 0;     // live lanes that diverged under it
    LaneMask arrived = 0;  // those parked at rpc
    uint32_t parent = kNoJoin;
    uint32_t level = 0;  // call level it belongs to
    bool live = false;
  };

  explicit BreadthFirstQueue(unsigned warp_size = 32);
  const char* name() const override { return "breadth_first"; }
  void reset(Pc entry, LaneMask mask) override;
  bool finished() const override { return levels_ == 0; }
  void issuable(std::vector<Path>& out) const override;
  unsigned advance(uint32_t split, const ControlEvent& event) override;
  // Peak number of paths in the queues (parked lanes not counted).
  unsigned max_depth() const override { return counters_.peak_entries; }
  unsigned max_joins() const { return max_joins_; }
  // Merges at an IPDOM (a join completing) and early ones (paths meeting).
  uint64_t ipdom_merges() const { return ipdom_merges_; }
  uint64_t early_merges() const { return early_merges_; }

  // The queue of the innermost call level, head first; and the joins.
  const std::vector<Entry>& queue() const { return queues_[levels_ - 1]; }
  unsigned call_levels() const { return levels_; }
  const std::vector<Join>& joins() const { return joins_; }

 private:
  std::vector<Entry>& top() { return queues_[levels_ - 1]; }
  uint32_t open_join(Pc rpc, LaneMask mask, uint32_t parent);
  // Puts `e` on the innermost queue: parks it at its join's rpc, or merges it
  // with a queued path at the same pc and join, or appends it.
  void enqueue(Entry e);
  void park(const Entry& e);
  // Removes lanes that returned (from the innermost level's joins) or exited
  // (from everything), then drops empty paths, joins and finished levels.
  // Returns how many call frames completed.
  unsigned retire(LaneMask gone, bool whole_kernel);
  void drop_join(uint32_t j);
  void note_occupancy();

  std::vector<std::vector<Entry>> queues_;  // one per call level; kept for reuse
  unsigned levels_ = 0;                     // live call levels
  std::vector<Join> joins_;
  std::vector<uint32_t> free_joins_;
  unsigned warp_size_;
  uint32_t next_id_ = 0;
  unsigned live_joins_ = 0, max_joins_ = 0;
  uint64_t ipdom_merges_ = 0, early_merges_ = 0;
};

}  // namespace warptlm
