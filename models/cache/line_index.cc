// Linear probing with backward-shift deletion: no tombstones, so probe
// sequences stay as short as the load factor (at most one half) allows.
#include "cache/line_index.h"

#include <stdexcept>
#include <string>

namespace warptlm {

LineIndex::LineIndex(size_t capacity) : capacity_(capacity) {
  if (capacity == 0) throw std::invalid_argument("capacity: must be at least 1");
  size_t n = 2;
  unsigned bits = 1;
  while (n < 2 * capacity) {
    n *= 2;
    ++bits;
  }
  table_.assign(n, Entry{});
  mask_ = n - 1;
  shift_ = 64 - bits;
}

void LineIndex::insert(uint64_t key, uint32_t value) {
  if (size_ == capacity_)
    throw std::invalid_argument("key: " + std::to_string(key) + " does not fit, the index holds " +
                                std::to_string(capacity_) + " keys");
  size_t i = home(key);
  while (table_[i].value != kAbsent) i = (i + 1) & mask_;
  table_[i] = Entry{key, value};
  ++size_;
}

void LineIndex::erase(uint64_t key) {
  size_t i = home(key);
  while (true) {
    if (table_[i].value == kAbsent) return;
    if (table_[i].key == key) break;
    i = (i + 1) & mask_;
  }
  // Shift later members of the probe run back into the hole, as long as that
  // does not move one before its home position.
  size_t hole = i;
  for (size_t j = (i + 1) & mask_; table_[j].value != kAbsent; j = (j + 1) & mask_) {
    const size_t h = home(table_[j].key);
    // j may fill the hole when its home is not in the cyclic range (hole, j].
    const bool home_after_hole = hole <= j ? (h > hole && h <= j) : (h > hole || h <= j);
    if (!home_after_hole) {
      table_[hole] = table_[j];
      hole = j;
    }
  }
  table_[hole] = Entry{};
  --size_;
}

void LineIndex::clear() {
  for (Entry& e : table_) e = Entry{};
  size_ = 0;
}

}  // namespace warptlm
