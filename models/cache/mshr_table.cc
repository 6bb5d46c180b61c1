// MSHR bookkeeping in fixed storage: the table and every entry's waiter slots
// are sized once, so misses never allocate. A hash index finds a line's entry
// and a free-entry bitmap the lowest free one, instead of scanning the table.
#include "cache/mshr_table.h"

#include <stdexcept>

namespace warptlm {

MshrTable::MshrTable(unsigned entries, unsigned max_merged)
    : entries_(entries), max_merged_(max_merged), index_of_(entries ? entries : 1) {
  if (entries == 0) throw std::invalid_argument("entries: must be at least 1");
  if (max_merged == 0) throw std::invalid_argument("max_merged: must be at least 1");
  table_.assign(entries, Entry{});
  waiters_.assign(uint64_t(entries) * max_merged, 0);
  free_.assign((entries + 63) / 64, 0);
  for (unsigned i = 0; i < entries; ++i) free_[i / 64] |= uint64_t(1) << (i % 64);
}

int MshrTable::find(uint64_t line_addr) const {
  const uint32_t i = index_of_.find(line_addr);
  return i == LineIndex::kAbsent ? -1 : int(i);
}

MshrTable::Result MshrTable::add(uint64_t line_addr, uint64_t requester) {
  const int found = find(line_addr);
  if (found >= 0) {
    Entry& e = table_[found];
    if (e.count == max_merged_) return Result::Full;
    waiters_[uint64_t(found) * max_merged_ + e.count++] = requester;
    return Result::Merged;
  }
  if (in_use_ == entries_) return Result::Full;
  // The lowest-numbered free entry, as a scan in entry order would pick.
  unsigned word = 0;
  while (free_[word] == 0) ++word;
  const unsigned slot = word * 64 + static_cast<unsigned>(__builtin_ctzll(free_[word]));
  free_[word] &= free_[word] - 1;
  table_[slot] = Entry{line_addr, 1};
  waiters_[uint64_t(slot) * max_merged_] = requester;
  index_of_.insert(line_addr, slot);
  ++in_use_;
  return Result::NewMiss;
}

void MshrTable::fill(uint64_t line_addr, std::vector<uint64_t>& waiters) {
  const int i = find(line_addr);
  if (i < 0) throw std::invalid_argument("line_addr: no MSHR entry for the filled line");
  const uint64_t* first = &waiters_[uint64_t(i) * max_merged_];
  waiters.assign(first, first + table_[i].count);
  table_[i].count = 0;
  index_of_.erase(line_addr);
  free_[unsigned(i) / 64] |= uint64_t(1) << (unsigned(i) % 64);
  --in_use_;
}

bool MshrTable::has(uint64_t line_addr) const { return find(line_addr) >= 0; }

}  // namespace warptlm
