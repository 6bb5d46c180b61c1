// The clock of a GPU's SMs: one WakeupScheduler client that, at each cycle an
// SM asked for, ticks every SM due then in SM index order, and then sleeps
// until the earliest cycle any SM asks for. It replaces a timed wake-up per SM
// and per cycle (30 on a busy fermi GPU) by one, and makes the SMs' order
// within a cycle explicit. A dispatched CTA, a memory response or an SM's own
// tick requests a tick through it; each Gpu owns one (no global state).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <systemc>
#include <vector>

#include "sm/parallel_choice.h"
#include "sm/phase_workers.h"
#include "transaction/wakeup_scheduler.h"

namespace warptlm {

class SmClock : private WakeupScheduler::Client {
 public:
  // What the clock ticks (StreamingMultiprocessor).
  class Member {
   public:
    virtual void clocked() = 0;  // this SM's requested cycle came
    // clocked() in two parts, for several host threads (docs/parallel-sms.md):
    // clocked_private(t) touches this SM alone and may run on any thread
    // beside other members' (t: the time of the cycle); clocked_serial()
    // then does the rest, member by member in order.
    virtual void clocked_private(uint64_t t) = 0;
    virtual void clocked_serial() = 0;

   protected:
    ~Member() = default;
  };

  // Registers itself with `wakeups` (its rank is the order of this
  // construction among the GPU's components).
  explicit SmClock(WakeupScheduler& wakeups);
  SmClock(const SmClock&) = delete;
  SmClock& operator=(const SmClock&) = delete;

  // Adds an SM; members are ticked in the order they were added. Returns its index.
  unsigned add(Member& sm);
  // Ticks the members due in a cycle on `threads` host threads (1: this one
  // alone, the default); the simulation's results are the same for any number.
  void set_host_threads(unsigned threads);
  // Ticks member `sm` at absolute time `at` (sc_time::value(), a clock edge
  // of that SM); an earlier pending request wins and a later one is ignored.
  // Inline: every SM tick asks for its next one.
  void request(unsigned sm, uint64_t at) {
    if (due_[sm] <= at) return;
    due_[sm] = at;
    if (ticking_) {  // wake() arms the earliest after its pass
      late_ = std::min(late_, at);
      return;
    }
    if (at < armed_) arm(at);
  }
  // Drops member `sm`'s pending tick (it is being ticked some other way).
  void cancel(unsigned sm) { due_[sm] = kNone; }

 private:
  static constexpr uint64_t kNone = ~uint64_t(0);
  void wake() override;
  void arm(uint64_t at);  // asks wakeups_ for `at`
  // wake()'s ticks of the members due at `now` on the workers: the private
  // parts in parallel, then the serial parts in order.
  void tick_in_parallel(uint64_t now);

  WakeupScheduler& wakeups_;
  unsigned id_;
  std::vector<Member*> members_;
  std::vector<uint64_t> due_;  // per member: the time it asked for, kNone when none
  uint64_t armed_ = kNone;     // the time asked of wakeups_
  uint64_t late_ = kNone;      // the earliest request made while ticking
  bool ticking_ = false;
  std::unique_ptr<PhaseWorkers> workers_;  // with more than one host thread
  ParallelChoice choice_;                  // whether the workers tick this cycle
  std::vector<unsigned> due_now_;          // tick_in_parallel()'s members
};

}  // namespace warptlm
