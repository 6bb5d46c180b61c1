// A FIFO over a circular buffer that grows by doubling when full and never
// shrinks, so a queue that has reached its working size allocates nothing
// (std::deque allocates and frees blocks as it moves through memory).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace warptlm {

template <typename T>
class RingQueue {
 public:
  explicit RingQueue(size_t capacity = 16) : buf_(capacity ? capacity : 1) {}

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }

  void push(T value) {
    if (size_ == buf_.size()) grow();
    buf_[(head_ + size_) % buf_.size()] = std::move(value);
    ++size_;
  }
  void pop() {
    head_ = (head_ + 1) % buf_.size();
    --size_;
  }

 private:
  void grow() {
    std::vector<T> bigger(buf_.size() * 2);
    for (size_t i = 0; i < size_; ++i) bigger[i] = std::move(buf_[(head_ + i) % buf_.size()]);
    buf_.swap(bigger);
    head_ = 0;
  }

  std::vector<T> buf_;
  size_t head_ = 0;
  size_t size_ = 0;
};

}  // namespace warptlm
