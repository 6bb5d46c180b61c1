// Depth-first traversal with minimal stack depth (Collange & Brunie, CompAS
// 2017, Sec. 2.2; AMD GCN's fork/join branch stack): at a divergent branch
// the path taken by the majority of the lanes is saved on the stack and
// execution goes on with the minority. The active lane count is at least
// halved at every saved path, so at most log2(warp size) saved paths are ever
// pending. Paths reconverge only at the branch's IPDOM (the join), never
// earlier: the region is walked as a tree and a block two paths both reach
// before the join (D of `if (A && B) C; else D;`) runs once per path.
//
// The structure is the IPDOM stack's (a reconvergence entry at the IPDOM,
// frames for calls); only the push order differs. max_depth() counts what
// AMD's branch stack holds: the saved majority paths below the active one.
// The reconvergence entries are the initial masks AMD's compiler keeps in
// scalar registers per fork; their peak is max_joins().
#pragma once

#include <cstdint>
#include <vector>

#include "simt/reconvergence_unit.h"

namespace warptlm {

class MinorityFirstStack : public ReconvergenceUnit {
 public:
  enum class Kind : uint8_t {
    Join,   // reconvergence entry (or the warp's base entry, or a suspended caller)
    Saved,  // a majority path waiting on the stack
    Run,    // a minority path pushed to run now
    Frame,  // the bottom entry of a device-function call
  };
  struct Entry {
    Pc pc = 0;
    LaneMask mask = 0;
    Pc rpc = kExitPc;
    Kind kind = Kind::Join;
    bool arrived = false;  // a path already reconverged into this entry (statistics)
  };

  explicit MinorityFirstStack(unsigned warp_size = 32);
  const char* name() const override { return "minority_first"; }
  void reset(Pc entry, LaneMask mask) override;
  bool finished() const override { return stack_.empty(); }
  void issuable(std::vector<Path>& out) const override;
  unsigned advance(uint32_t split, const ControlEvent& event) override;
  bool straight_run(uint32_t split, Pc* stop) const override;
  void move_straight(uint32_t split, Pc pc) override;
  // Peak number of saved (majority) paths pending below the active path:
  // bounded by log2(warp size).
  unsigned max_depth() const override { return counters_.peak_entries; }
  // Peak number of reconvergence and frame entries.
  unsigned max_joins() const { return max_joins_; }
  // Peak size of the whole stack, as the IPDOM stack counts it.
  unsigned max_entries() const { return max_entries_; }
  const std::vector<Entry>& entries() const { return stack_; }

  // The rule that picks the path to run: the one with fewer lanes; on a tie
  // the taken path, as the IPDOM baseline does.
  static bool run_taken_first(LaneMask taken, LaneMask not_taken);

 private:
  // Removes `lanes` from the entries from the top down to the innermost call
  // frame (ret) or to the bottom (exit); drops the emptied entries and
  // returns how many call frames that completed.
  unsigned retire(LaneMask lanes, bool whole_kernel);
  void pop_reconverged();
  // Recomputes the occupancy peaks; called only when the stack changed shape.
  void note_occupancy();

  std::vector<Entry> stack_;
  unsigned max_joins_ = 0, max_entries_ = 0;
};

}  // namespace warptlm
