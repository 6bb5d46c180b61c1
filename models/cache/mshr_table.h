// Miss status holding registers: one entry per line with a miss in flight, so
// later misses to the same line wait for that one fill instead of sending
// their own request.
#pragma once

#include <cstdint>
#include <vector>

#include "cache/line_index.h"

namespace warptlm {

class MshrTable {
 public:
  // entries >= 1 lines in flight; max_merged >= 1 waiters per entry, counting
  // the miss that opened it. Otherwise std::invalid_argument naming the parameter.
  MshrTable(unsigned entries, unsigned max_merged);

  // NewMiss: the line had no entry; one is opened with `requester` as its first
  // waiter and the caller must send the fill request. Merged: the line already
  // had an entry, `requester` joins it. Full: no entry free, or the line's
  // entry already holds max_merged waiters; nothing is recorded (retry later).
  enum class Result { NewMiss, Merged, Full };
  Result add(uint64_t line_addr, uint64_t requester);  // requester: the caller's opaque id

  // The line's data arrived: `waiters` (cleared first) gets its requesters in
  // arrival order and the entry is freed. A line with no entry is a model bug:
  // std::invalid_argument naming line_addr.
  void fill(uint64_t line_addr, std::vector<uint64_t>& waiters);

  bool has(uint64_t line_addr) const;
  unsigned in_use() const { return in_use_; }
  bool full() const { return in_use_ == entries_; }
  unsigned entries() const { return entries_; }
  unsigned max_merged() const { return max_merged_; }

 private:
  struct Entry {
    uint64_t line_addr = 0;
    unsigned count = 0;  // waiters held; 0: the entry is free
  };
  int find(uint64_t line_addr) const;  // entry index, or -1

  unsigned entries_;
  unsigned max_merged_;
  unsigned in_use_ = 0;
  std::vector<Entry> table_;
  std::vector<uint64_t> waiters_;  // entry i's waiters at [i * max_merged_, + count)
  LineIndex index_of_;             // line address -> its entry
  std::vector<uint64_t> free_;     // bit i % 64 of word i / 64: entry i is free
};

}  // namespace warptlm
