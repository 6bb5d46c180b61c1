// A set-associative cache tag array with LRU replacement: it tracks which lines
// are present (and dirty) but holds no data, since the functional executor
// already produced every value. The L1, L2 and instruction cache timing models
// share it.
#pragma once

#include <cstdint>
#include <vector>

#include "cache/line_index.h"

namespace warptlm {

class CacheTags {
 public:
  // How a line picks its set. Low: the low bits of the line number (line address
  // / line), the classic layout. Xor: those bits XORed with the next set-index-
  // wide group of higher bits, which spreads power-of-two strides (e.g. matrix
  // columns) over all sets instead of piling them into one.
  enum class SetIndex { Low, Xor };

  // sets = size / (assoc * line) must be a whole power of two, and line a power
  // of two; otherwise std::invalid_argument naming the parameter at fault.
  CacheTags(uint64_t size, unsigned assoc, unsigned line, SetIndex index = SetIndex::Low);

  unsigned line() const { return line_; }
  unsigned assoc() const { return assoc_; }
  uint64_t sets() const { return sets_; }
  uint64_t line_address(uint64_t addr) const { return addr & ~uint64_t(line_ - 1); }

  // Every call below takes a line address; any byte address inside the line
  // names the same line.
  bool probe(uint64_t line_addr) const;  // present? (no LRU update)
  bool access(uint64_t line_addr);       // present -> LRU update, true; else false (no allocation)

  struct Victim {
    bool valid = false;  // false: an invalid way was used, nothing evicted
    uint64_t line_addr = 0;
    bool dirty = false;
  };
  // Installs the line as most recently used, evicting the set's LRU way (an
  // invalid way first). Filling a line already present only updates its LRU
  // position and ORs in `dirty`; nothing is evicted.
  Victim fill(uint64_t line_addr, bool dirty = false);
  void mark_dirty(uint64_t line_addr);      // if present
  bool is_dirty(uint64_t line_addr) const;  // present and dirty
  // Appends every dirty line's address to `lines` (in way order, set-major,
  // so the order is deterministic) and makes those lines clean; they stay
  // present. A write-back cache's flush.
  void take_dirty(std::vector<uint64_t>& lines);
  void invalidate(uint64_t line_addr);  // if present; its dirty data is dropped
  void clear();                         // every way invalid

 private:
  // 16 bytes, so a set spans fewer host cache lines (the fermi L2's 64-way
  // sets are scanned for a victim on every fill): validity and the dirty bit
  // ride in the stamp.
  struct Way {
    uint64_t line_no = 0;  // full line number (line address >> line shift)
    // 0: invalid. Else (LRU clock << 1) | dirty: larger is more recent, and
    // the clocks of valid ways differ, so the dirty bit never decides.
    uint64_t stamp = 0;
    bool valid() const { return stamp != 0; }
    bool dirty() const { return (stamp & 1) != 0; }
  };
  // A new stamp (most recent) keeping the way's dirty bit.
  uint64_t restamp(const Way& way) { return (++clock_ << 1) | (way.stamp & 1); }
  Way* set_of(uint64_t line_no) {
    uint64_t key = line_no;
    if (index_ == SetIndex::Xor && set_bits_ > 0) key ^= line_no >> set_bits_;
    return &ways_[(key & (sets_ - 1)) * assoc_];
  }
  const Way* set_of(uint64_t line_no) const {
    return const_cast<CacheTags*>(this)->set_of(line_no);
  }
  Way* find(uint64_t line_no) {
    if (indexed_) {
      const uint32_t w = index_of_.find(line_no);
      return w == LineIndex::kAbsent ? nullptr : &ways_[w];
    }
    Way* set = set_of(line_no);
    for (unsigned w = 0; w < assoc_; ++w) {
      if (set[w].line_no == line_no && set[w].valid()) return &set[w];
    }
    return nullptr;
  }
  const Way* find(uint64_t line_no) const { return const_cast<CacheTags*>(this)->find(line_no); }

  uint64_t sets_;
  unsigned assoc_;
  unsigned line_;
  unsigned line_shift_;
  unsigned set_bits_;
  SetIndex index_;
  uint64_t clock_ = 0;     // LRU clock; 63 bits (the stamp's) never wrap in practice
  std::vector<Way> ways_;  // sets_ * assoc_, set-major
  // Valid line number -> its way's position in ways_, kept only when the sets
  // are wide (kIndexedAssoc): a scan of a few ways is cheaper than keeping
  // the index up to date on every eviction.
  static constexpr unsigned kIndexedAssoc = 16;
  bool indexed_;
  LineIndex index_of_;
};

}  // namespace warptlm
