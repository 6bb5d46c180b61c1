#include "sm/phase_workers.h"

#include <stdexcept>
#include <string>

namespace warptlm {
namespace {

// A spinning thread's pause: lets the sibling hyperthread run and saves power.
inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// How long a thread spins before it sleeps (a worker waiting for the next
// phase) or yields (the caller waiting for the last items): some tens of
// microseconds, longer than the serial work between two cycles of a busy
// GPU, far shorter than a scheduler's time slice.
constexpr unsigned kSpins = 1 << 11;

uint64_t packed(uint32_t phase, uint64_t count, uint64_t index) {
  return uint64_t(phase) << 32 | count << 16 | index;
}

}  // namespace

PhaseWorkers::PhaseWorkers(unsigned threads) : threads_(threads), shares_(threads), done_(threads) {
  if (threads < 2)
    throw std::invalid_argument("PhaseWorkers: " + std::to_string(threads) +
                                " threads; the caller and at least one worker are needed");
  workers_.reserve(threads - 1);
  for (unsigned t = 1; t < threads; ++t) workers_.emplace_back([this, t] { worker(t); });
}

PhaseWorkers::~PhaseWorkers() {
  stop_.store(true);
  phase_.fetch_add(1);
  { std::lock_guard<std::mutex> lock(mutex_); }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

bool PhaseWorkers::claim(Share& share, uint32_t phase, unsigned& item) {
  uint64_t v = share.next.load(std::memory_order_acquire);
  for (;;) {
    const uint64_t count = (v >> 16) & 0xffff, index = v & 0xffff;
    if (uint32_t(v >> 32) != phase || index >= count) return false;
    if (share.next.compare_exchange_weak(v, v + 1, std::memory_order_acq_rel)) {
      // The phase is still open (this item was not done), so the list is
      // not being rewritten.
      item = share.items[index];
      return true;
    }
  }
}

void PhaseWorkers::take_part(unsigned thread, uint32_t phase) {
  unsigned item = 0;
  for (unsigned k = 0; k < threads_; ++k) {  // its own share first, then the others'
    Share& share = shares_[(thread + k) % threads_];
    while (claim(share, phase, item)) {
      call_(context_, item);
      done_[thread].count.fetch_add(1, std::memory_order_release);
    }
  }
}

void PhaseWorkers::start(const std::vector<unsigned>& items, Call call, void* context) {
  // The previous phase is over: every item was claimed and completed, so no
  // thread reads the lists or the call any more.
  for (Share& s : shares_) s.items.clear();
  for (unsigned i : items) {
    if (i > 0xffff) throw std::invalid_argument("PhaseWorkers: item " + std::to_string(i));
    shares_[i % threads_].items.push_back(i);
  }
  call_ = call;
  context_ = context;
  const uint32_t phase = phase_.load(std::memory_order_relaxed) + 1;
  for (Share& s : shares_)
    s.next.store(packed(phase, s.items.size(), 0), std::memory_order_release);
  phase_.store(phase);  // seq_cst: ordered with the read of sleeping_ below
  if (sleeping_.load() > 0) {
    // Taking the lock orders this notification after a worker's check of
    // phase_ and before its wait.
    { std::lock_guard<std::mutex> lock(mutex_); }
    wake_.notify_all();
  }
  expected_ += items.size();
  take_part(0, phase);
  // Items other threads have begun: spin, then yield (with more threads than
  // free host cores, such a thread may be waiting for this very core).
  for (unsigned spins = 0;;) {
    uint64_t done = 0;
    for (const Done& d : done_) done += d.count.load(std::memory_order_acquire);
    if (done == expected_) return;
    if (++spins < kSpins)
      relax();
    else
      std::this_thread::yield();
  }
}

void PhaseWorkers::worker(unsigned thread) {
  uint32_t seen = 0;
  for (;;) {
    unsigned spins = 0;
    while (phase_.load(std::memory_order_acquire) == seen && ++spins < kSpins) relax();
    if (phase_.load(std::memory_order_acquire) == seen) {
      std::unique_lock<std::mutex> lock(mutex_);
      sleeping_.fetch_add(1);  // seq_cst: ordered with start()'s advance of phase_
      wake_.wait(lock, [&] { return phase_.load() != seen; });
      sleeping_.fetch_sub(1);
    }
    if (stop_.load()) return;
    seen = phase_.load(std::memory_order_acquire);
    take_part(thread, seen);
  }
}

}  // namespace warptlm
