// One timed event for all of a GPU's components. SystemC breaks ties between
// timed notifications due at the same time by the shape of its event heap, so
// the order in which same-time processes ran (and with it the statistics)
// depended on the history of the whole simulation. Components that register
// here ask for their timed wake-ups through this scheduler instead of their own
// sc_event: at each time it calls every client due then, in registration order
// (its rank), from its one SC_METHOD. Delta (same-time) notifications stay the
// components' own business; they follow deterministically from this order.
#pragma once

#include <cstdint>
#include <systemc>
#include <vector>

namespace warptlm {

class WakeupScheduler : public sc_core::sc_module {
 public:
  class Client {
   public:
    // Called from the scheduler's process at the requested time.
    virtual void wake() = 0;

   protected:
    ~Client() = default;
  };

  explicit WakeupScheduler(sc_core::sc_module_name name);

  // Registers `client` (it must outlive the simulation); returns its id. Ids
  // are ranks: same-time wake-ups run in increasing id order.
  unsigned add(Client& client);
  // Wakes client `id` at the absolute time `at` (sc_time::value(); earlier
  // times mean now). Like sc_event::notify, an earlier pending wake-up wins
  // and a later request is ignored.
  void wake_at(unsigned id, uint64_t at);
  // Drops client `id`'s pending wake-up, as a delta notification cancels an
  // sc_event's timed one: a client woken through its own event calls this.
  void cancel(unsigned id) {
    if (pending_[id] != kNone) drop(id);
  }
  size_t clients() const { return clients_.size(); }

 private:
  static constexpr uint64_t kNone = ~uint64_t(0);
  // The clients due at one time, as a bit set by id in the arena bits_ (most
  // wake-ups fall on a few dozen times, so a set per time beats a heap of
  // (time, id) entries; the buckets are plain values, cheap to shift).
  struct Bucket {
    uint64_t at;
    uint32_t slot;  // its bit set: bits_[slot * words_, (slot + 1) * words_)
  };
  void fire();
  void arm(uint64_t at);
  std::vector<Bucket>::iterator find(uint64_t at);  // the first bucket due no later than `at`
  uint64_t* bucket_for(uint64_t at);                // its bit set, made when there is none
  void drop(unsigned id);                           // clears id's bit in its pending bucket
  uint64_t* bits(uint32_t slot) { return &bits_[size_t{slot} * words_]; }

  std::vector<Client*> clients_;
  std::vector<uint64_t> pending_;  // per client: the time it is due, kNone when none
  std::vector<Bucket> buckets_;    // by time, latest first: the earliest is at the back
  std::vector<uint64_t> bits_;     // the buckets' bit sets, words_ words each
  std::vector<uint32_t> free_slots_;
  size_t words_ = 1;  // 64-bit words per bit set
  sc_core::sc_event event_;
  uint64_t armed_ = kNone;  // the time event_ is notified for
  bool firing_ = false;
};

}  // namespace warptlm
