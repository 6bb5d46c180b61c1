// The baseline SIMT reconvergence stack: one path runs at a time (the top
// entry); a divergent branch turns the top entry into the reconvergence entry
// at the branch's IPDOM and pushes the not-taken then the taken path, so the
// taken path runs first; an entry is popped when its pc reaches its
// reconvergence pc.
#pragma once

#include <vector>

#include "simt/reconvergence_unit.h"

namespace warptlm {

class IpdomStack : public ReconvergenceUnit {
 public:
  const char* name() const override { return "ipdom"; }
  void reset(Pc entry, LaneMask mask) override;
  bool finished() const override { return stack_.empty(); }
  void issuable(std::vector<Path>& out) const override;
  unsigned advance(uint32_t split, const ControlEvent& event) override;
  bool straight_run(uint32_t split, Pc* stop) const override;
  void move_straight(uint32_t split, Pc pc) override;
  unsigned max_depth() const override { return counters_.peak_entries; }

  struct Entry {
    Pc pc = 0;
    LaneMask mask = 0;
    Pc rpc = kExitPc;
    bool call_frame = false;  // the bottom entry of a device-function call
    bool arrived = false;     // a path already reconverged into this entry (statistics)
  };
  const std::vector<Entry>& entries() const { return stack_; }

 private:
  void push(const Entry& e);
  // Removes `lanes` from the entries from the top down to the innermost call
  // frame (ret) or to the bottom (exit); pops the emptied entries.
  unsigned retire(LaneMask lanes, bool whole_kernel);
  unsigned pop_reconverged();

  std::vector<Entry> stack_;
};

}  // namespace warptlm
