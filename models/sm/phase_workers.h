// Host threads for the parallel phase of a timing cycle (docs/parallel-sms.md):
// run() hands a list of SM indices to every thread, the caller's included, and
// returns when every SM of the list has been ticked. Made for very short
// phases, one per simulated cycle:
// - An SM falls to thread (index mod threads), so its state tends to stay in
//   one host core's caches from one cycle to the next.
// - A thread that is done with its own SMs takes those another thread has not
//   begun, so neither load imbalance nor a worker that is asleep or descheduled
//   holds the caller up.
// - Between phases a worker spins for a while (the next cycle usually comes
//   within microseconds) and then sleeps, so an idle simulation costs no core.
// Which thread ticks an SM never changes a result: the SMs' private parts
// touch disjoint state.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace warptlm {

class PhaseWorkers {
 public:
  // `threads` in all, the caller included (at least 2).
  explicit PhaseWorkers(unsigned threads);
  ~PhaseWorkers();
  PhaseWorkers(const PhaseWorkers&) = delete;
  PhaseWorkers& operator=(const PhaseWorkers&) = delete;

  unsigned threads() const { return threads_; }

  // Calls work(i) once for every i in `items` (SM indices below 65536, each at
  // most once), on any of the threads; returns when every call has returned.
  // The calls must not throw (the SMs keep what they throw for their serial
  // phase); one that does ends the process, as an exception leaving a thread does.
  template <class Work>
  void run(const std::vector<unsigned>& items, Work& work) {
    start(
        items, [](void* w, unsigned i) { (*static_cast<Work*>(w))(i); }, &work);
  }

 private:
  using Call = void (*)(void*, unsigned);
  // One thread's items of the current phase and how far they were taken:
  // `next` packs the phase (high 32 bits), the item count (16) and the next
  // index (16), so a claim (compare-exchange) fails once its phase is over.
  struct alignas(64) Share {
    std::atomic<uint64_t> next{0};
    std::vector<unsigned> items;
  };
  // Items completed by one thread, over all phases (its own cache line).
  struct alignas(64) Done {
    std::atomic<uint64_t> count{0};
  };
  void start(const std::vector<unsigned>& items, Call call, void* context);
  // Runs this thread's items of phase `phase`, then any other thread's not begun.
  void take_part(unsigned thread, uint32_t phase);
  bool claim(Share& share, uint32_t phase, unsigned& item);
  void worker(unsigned thread);

  unsigned threads_;
  std::vector<Share> shares_;
  std::vector<Done> done_;
  uint64_t expected_ = 0;  // items of all phases so far (the caller's count)
  // The current phase, written before `phase_` is advanced.
  Call call_ = nullptr;
  void* context_ = nullptr;
  alignas(64) std::atomic<uint32_t> phase_{0};
  alignas(64) std::atomic<unsigned> sleeping_{0};
  std::atomic<bool> stop_{false};
  std::mutex mutex_;  // for sleeping workers
  std::condition_variable wake_;
  std::vector<std::thread> workers_;
};

}  // namespace warptlm
