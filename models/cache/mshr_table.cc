// MSHR bookkeeping in fixed storage: the table and every entry's waiter slots
// are sized once, so misses never allocate.
#include "cache/mshr_table.h"

#include <stdexcept>

namespace warptlm {

MshrTable::MshrTable(unsigned entries, unsigned max_merged)
    : entries_(entries), max_merged_(max_merged) {
  if (entries == 0) throw std::invalid_argument("entries: must be at least 1");
  if (max_merged == 0) throw std::invalid_argument("max_merged: must be at least 1");
  table_.assign(entries, Entry{});
  waiters_.assign(uint64_t(entries) * max_merged, 0);
}

int MshrTable::find(uint64_t line_addr) const {
  for (unsigned i = 0; i < entries_; ++i) {
    if (table_[i].count != 0 && table_[i].line_addr == line_addr) return int(i);
  }
  return -1;
}

MshrTable::Result MshrTable::add(uint64_t line_addr, uint64_t requester) {
  int free_slot = -1;
  for (unsigned i = 0; i < entries_; ++i) {
    Entry& e = table_[i];
    if (e.count == 0) {
      if (free_slot < 0) free_slot = int(i);
    } else if (e.line_addr == line_addr) {
      if (e.count == max_merged_) return Result::Full;
      waiters_[uint64_t(i) * max_merged_ + e.count++] = requester;
      return Result::Merged;
    }
  }
  if (free_slot < 0) return Result::Full;
  table_[free_slot] = Entry{line_addr, 1};
  waiters_[uint64_t(free_slot) * max_merged_] = requester;
  ++in_use_;
  return Result::NewMiss;
}

void MshrTable::fill(uint64_t line_addr, std::vector<uint64_t>& waiters) {
  const int i = find(line_addr);
  if (i < 0) throw std::invalid_argument("line_addr: no MSHR entry for the filled line");
  const uint64_t* first = &waiters_[uint64_t(i) * max_merged_];
  waiters.assign(first, first + table_[i].count);
  table_[i].count = 0;
  --in_use_;
}

bool MshrTable::has(uint64_t line_addr) const { return find(line_addr) >= 0; }

}  // namespace warptlm
