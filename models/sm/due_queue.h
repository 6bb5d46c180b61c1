// Events of an SM that fall due at a cycle (register writebacks), taken in
// cycle order. A sorted vector read from the front: an issue's writeback is
// usually the latest so far (fixed pipeline latencies), so push() moves few
// entries, and taking the due ones is a walk, where a binary heap paid a
// sift for each push and pop. Entries of one cycle come out in the order
// they were pushed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace warptlm {

template <class T>  // T has a uint64_t `cycle`
class DueQueue {
 public:
  bool empty() const { return head_ == items_.size(); }
  size_t size() const { return items_.size() - head_; }
  // The entry with the earliest cycle (the first pushed among equals).
  const T& top() const { return items_[head_]; }
  void push(const T& item) {
    if (empty()) {  // start over at the front while nothing is queued
      items_.clear();
      head_ = 0;
    }
    size_t at = items_.size();
    while (at > head_ && items_[at - 1].cycle > item.cycle) --at;
    items_.insert(items_.begin() + static_cast<std::ptrdiff_t>(at), item);
  }
  void pop() {
    ++head_;
    // Drop the taken prefix once it is most of the vector (amortised O(1)).
    if (head_ >= kCompactAt && head_ * 2 >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }

 private:
  static constexpr size_t kCompactAt = 64;
  std::vector<T> items_;  // sorted by cycle from head_ on
  size_t head_ = 0;       // items_[0, head_) were taken
};

}  // namespace warptlm
