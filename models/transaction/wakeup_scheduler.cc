#include "transaction/wakeup_scheduler.h"

#include <algorithm>

#include "transaction/sim_now.h"

namespace warptlm {

WakeupScheduler::WakeupScheduler(sc_core::sc_module_name name) : sc_module(name) {
  SC_HAS_PROCESS(WakeupScheduler);
  SC_METHOD(fire);
  sensitive << event_;
  dont_initialize();
}

unsigned WakeupScheduler::add(Client& client) {
  clients_.push_back(&client);
  pending_.push_back(kNone);
  const size_t words = (clients_.size() + 63) / 64;
  if (words > words_) {  // widen every bit set (only while elaborating, in practice)
    std::vector<uint64_t> wider(bits_.size() / words_ * words, 0);
    for (size_t slot = 0; slot < bits_.size() / words_; ++slot)
      std::copy_n(&bits_[slot * words_], words_, &wider[slot * words]);
    bits_.swap(wider);
    words_ = words;
  }
  return static_cast<unsigned>(clients_.size() - 1);
}

std::vector<WakeupScheduler::Bucket>::iterator WakeupScheduler::find(uint64_t at) {
  return std::lower_bound(buckets_.begin(), buckets_.end(), at,
                          [](const Bucket& b, uint64_t t) { return b.at > t; });
}

uint64_t* WakeupScheduler::bucket_for(uint64_t at) {
  auto it = find(at);
  if (it != buckets_.end() && it->at == at) return bits(it->slot);
  uint32_t slot;
  if (free_slots_.empty()) {
    slot = static_cast<uint32_t>(bits_.size() / words_);
    bits_.resize(bits_.size() + words_, 0);
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
  }
  buckets_.insert(it, Bucket{at, slot});
  return bits(slot);
}

void WakeupScheduler::drop(unsigned id) {
  auto it = find(pending_[id]);
  pending_[id] = kNone;
  bits(it->slot)[id / 64] &= ~(uint64_t(1) << (id % 64));
}

void WakeupScheduler::wake_at(unsigned id, uint64_t at) {
  const uint64_t now = sim_now_value();
  if (at < now) at = now;
  if (pending_[id] <= at) return;
  if (pending_[id] != kNone) drop(id);
  pending_[id] = at;
  bucket_for(at)[id / 64] |= uint64_t(1) << (id % 64);
  if (!firing_) arm(at);  // while firing, the loop in fire() takes it
}

void WakeupScheduler::arm(uint64_t at) {
  if (at >= armed_) return;
  armed_ = at;
  const uint64_t now = sim_now_value();
  event_.notify(at > now ? sc_core::sc_time::from_value(at - now) : sc_core::SC_ZERO_TIME);
}

void WakeupScheduler::fire() {
  const uint64_t now = sim_now_value();
  armed_ = kNone;
  firing_ = true;
  while (!buckets_.empty() && buckets_.back().at <= now) {
    // The lowest id due now; a client may add lower ones while woken, so look
    // again from the start each time.
    const uint32_t slot = buckets_.back().slot;
    uint64_t* b = bits(slot);
    size_t w = 0;
    while (w < words_ && b[w] == 0) ++w;
    if (w == words_) {
      free_slots_.push_back(slot);
      buckets_.pop_back();
      continue;
    }
    const unsigned id = static_cast<unsigned>(w * 64 + __builtin_ctzll(b[w]));
    b[w] &= b[w] - 1;
    pending_[id] = kNone;
    clients_[id]->wake();
  }
  firing_ = false;
  if (!buckets_.empty()) arm(buckets_.back().at);
}

}  // namespace warptlm
