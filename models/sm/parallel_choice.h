// Whether the SM clock ticks the next cycles' SMs on its host threads or on
// one: chosen by measuring both while the simulation runs. A short stretch of
// wake-ups on one thread, one on all, then a long stretch with the faster, and
// again: a compute-bound phase of a kernel gains from the threads, a
// memory-bound one (few SMs due, most of their issues reaching global memory)
// can lose from the hand-overs. The results are the same either way
// (docs/parallel-sms.md), so the choice may follow the host's clock.
#pragma once

#include <chrono>
#include <cstdint>

namespace warptlm {

class ParallelChoice {
 public:
  static constexpr unsigned kProbe = 512;  // wake-ups per measurement
  static constexpr unsigned kRun = 8192;   // wake-ups with the faster
  using Clock = double (*)();              // host seconds (tests drive their own)
  static double host_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }

  explicit ParallelChoice(Clock clock = host_seconds) : clock_(clock) {}
  // Asked at each wake-up, with its simulated time: whether to use the threads.
  bool parallel(uint64_t sim_time) {
    if (left_ == 0) next_stretch(sim_time);
    --left_;
    return parallel_;
  }

 private:
  enum class Stretch { OneThread, AllThreads, Faster };

  void next_stretch(uint64_t sim_time) {
    const double wall = clock_();
    // Host time per unit of simulated time over the stretch that ends.
    const double rate = (wall - wall_start_) /
                        static_cast<double>(sim_time > sim_start_ ? sim_time - sim_start_ : 1);
    switch (stretch_) {
      case Stretch::OneThread:
        one_thread_ = rate;
        stretch_ = Stretch::AllThreads;
        parallel_ = true;
        left_ = kProbe;
        break;
      case Stretch::AllThreads:
        stretch_ = Stretch::Faster;
        parallel_ = rate < one_thread_;
        left_ = kRun;
        break;
      case Stretch::Faster:
        stretch_ = Stretch::OneThread;
        parallel_ = false;
        left_ = kProbe;
        break;
    }
    wall_start_ = wall;
    sim_start_ = sim_time;
  }

  // The first stretch is a long one on all threads, started without a clock reading.
  Stretch stretch_ = Stretch::Faster;
  bool parallel_ = true;
  unsigned left_ = kRun;
  double one_thread_ = 0;
  Clock clock_;
  double wall_start_ = 0;
  uint64_t sim_start_ = 0;
};

}  // namespace warptlm
