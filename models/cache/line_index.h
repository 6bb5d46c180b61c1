// An open-addressing hash index from a line number (or line address) to a
// small slot number: where a tag array keeps a line, or which MSHR entry
// tracks it. Lookups cost a hash and a short probe instead of a scan of every
// way or entry (the fermi L2 is 64-way). Fixed storage, sized once for the
// most keys it will hold, so lookups and updates never allocate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace warptlm {

class LineIndex {
 public:
  static constexpr uint32_t kAbsent = ~uint32_t(0);

  // Holds up to `capacity` keys (>= 1; std::invalid_argument naming it otherwise).
  explicit LineIndex(size_t capacity);

  // The slot stored for `key`, or kAbsent.
  uint32_t find(uint64_t key) const {
    for (size_t i = home(key);; i = (i + 1) & mask_) {
      const Entry& e = table_[i];
      if (e.value == kAbsent) return kAbsent;
      if (e.key == key) return e.value;
    }
  }
  // `key` must be absent and `value` != kAbsent; std::invalid_argument naming
  // `key` when the index already holds `capacity` keys.
  void insert(uint64_t key, uint32_t value);
  // Removes `key` if present.
  void erase(uint64_t key);
  void clear();
  size_t size() const { return size_; }

 private:
  struct Entry {
    uint64_t key = 0;
    uint32_t value = kAbsent;  // kAbsent: the entry is empty
  };
  // Fibonacci hashing: the top bits of key * 2^64/phi spread strided line
  // numbers over the whole table.
  size_t home(uint64_t key) const {
    return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
  }

  std::vector<Entry> table_;  // a power of two, at least twice the capacity
  size_t mask_;
  unsigned shift_;
  size_t capacity_;
  size_t size_ = 0;
};

}  // namespace warptlm
