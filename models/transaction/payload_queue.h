// A queue of in-flight payloads, each with the simulated time it becomes ready and the index of
// the input it came from, kept in (ready, source) order: among payloads ready at the same time the
// lower source comes first whatever order they arrived in (an explicit arbitration that does not
// depend on which same-time process ran first); equal (ready, source) keep arrival order. A ring
// buffer that grows when full and reuses its storage, so the per-transaction path allocates nothing
// once warm.
#pragma once

#include <cstddef>
#include <systemc>
#include <tlm>
#include <vector>

namespace warptlm {

class PayloadQueue {
 public:
  struct Entry {
    tlm::tlm_generic_payload* payload = nullptr;
    sc_core::sc_time ready;
    unsigned source = 0;
  };

  // Inserts behind every entry with (ready, source) no later than the new one's; arrivals in
  // time order (the usual case) append in O(1).
  void push(tlm::tlm_generic_payload* payload, const sc_core::sc_time& ready, unsigned source = 0) {
    if (size_ == ring_.size()) grow();
    size_t pos = size_;
    while (pos > 0 && (at(pos - 1).ready > ready ||
                       (at(pos - 1).ready == ready && at(pos - 1).source > source))) {
      at(pos) = at(pos - 1);
      --pos;
    }
    at(pos) = Entry{payload, ready, source};
    ++size_;
  }
  const Entry& front() const { return ring_[head_]; }
  void pop() {
    head_ = (head_ + 1) & (ring_.size() - 1);
    --size_;
  }
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }

 private:
  Entry& at(size_t i) { return ring_[(head_ + i) & (ring_.size() - 1)]; }
  void grow() {  // capacity stays a power of two so wrapping is a mask
    std::vector<Entry> bigger(ring_.empty() ? 16 : ring_.size() * 2);
    for (size_t i = 0; i < size_; ++i) bigger[i] = at(i);
    ring_.swap(bigger);
    head_ = 0;
  }

  std::vector<Entry> ring_;
  size_t head_ = 0;
  size_t size_ = 0;
};

}  // namespace warptlm
