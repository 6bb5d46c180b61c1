// The storage shared by the dual-path stack (Rhu & Erez, HPCA 2013) and the
// paired-path comparison schemes built on it (Huang et al., seed 000): a stack
// whose entries each hold up to two paths, the taken and the not-taken side of
// one divergent branch. Only the top entry's paths may issue; a path that
// diverges again pushes a new entry holding its two halves. The bottom entry
// (the kernel) and the entry a device-function call pushes hold one path.
#pragma once

#include <cstdint>
#include <vector>

#include "simt/reconvergence_unit.h"

namespace warptlm {

struct DpsSide {
  Pc pc = 0;
  LaneMask mask = 0;  // 0: no lanes left on this side (they exited or returned)
};

struct DpsEntry {
  enum class Kind : uint8_t {
    Base,   // the kernel's lanes; one path (side 0)
    Frame,  // the lanes of a device-function call; one path (side 0)
    Split,  // the two sides of a divergent branch
  };
  static constexpr unsigned kTaken = 0, kNotTaken = 1;

  Kind kind = Kind::Base;
  DpsSide side[2];
  Pc rpc = kExitPc;     // dual_path: where the two sides wait for each other
  Pc ipdom = kExitPc;   // the branch's IPDOM, whatever the scheme does with it (statistics)
  uint8_t current = 0;  // ppc: the side that runs (and, below the top, that diverged)

  bool split() const { return kind == Kind::Split; }
};

class DpsEntries {
 public:
  void reset(Pc entry, LaneMask mask);
  bool empty() const { return stack_.empty(); }
  size_t size() const { return stack_.size(); }
  DpsEntry& top() { return stack_.back(); }
  const DpsEntry& top() const { return stack_.back(); }
  const std::vector<DpsEntry>& entries() const { return stack_; }
  unsigned max_depth() const { return max_depth_; }

  void push(const DpsEntry& e);
  void pop() { stack_.pop_back(); }
  // Pushes the two sides of a divergent branch (taken side first) whose
  // IPDOM is `ipdom`; `rpc` is where the scheme makes them wait.
  void push_split(Pc taken_pc, LaneMask taken, Pc fall_pc, LaneMask fall, Pc rpc, Pc ipdom);
  void push_frame(Pc entry, LaneMask mask);

  // The split id of side `side` of the top entry, and its inverse: returns the
  // side that `split` names, throwing std::logic_error (naming `scheme`) when
  // it is not a path of the top entry.
  uint32_t split_id(unsigned side) const {
    return static_cast<uint32_t>(((stack_.size() - 1) << 1) | side);
  }
  unsigned top_side(uint32_t split, const char* scheme) const;

  // Removes `lanes` from the entries from the top down to the innermost call
  // frame (ret) or to the bottom (exit) and erases the entries left without
  // lanes. Returns how many call frames were erased.
  unsigned retire(LaneMask lanes, bool whole_kernel);

 private:
  std::vector<DpsEntry> stack_;
  unsigned max_depth_ = 0;
};

}  // namespace warptlm
