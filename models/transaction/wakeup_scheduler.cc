#include "transaction/wakeup_scheduler.h"

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
  return static_cast<unsigned>(clients_.size() - 1);
}

WakeupScheduler::Bucket& WakeupScheduler::bucket_for(uint64_t at) {
  size_t i = buckets_.size();
  while (i > 0 && buckets_[i - 1].at < at) --i;
  if (i == 0 || buckets_[i - 1].at != at) {
    Bucket b;
    if (!spare_.empty()) {
      b = std::move(spare_.back());
      spare_.pop_back();
    }
    b.at = at;
    b.bits.assign((clients_.size() + 63) / 64, 0);
    buckets_.insert(buckets_.begin() + static_cast<std::ptrdiff_t>(i), std::move(b));
    return buckets_[i];
  }
  return buckets_[i - 1];
}

void WakeupScheduler::drop(unsigned id) {
  const uint64_t at = pending_[id];
  pending_[id] = kNone;
  for (size_t i = buckets_.size(); i > 0; --i) {
    if (buckets_[i - 1].at != at) continue;
    buckets_[i - 1].bits[id / 64] &= ~(uint64_t(1) << (id % 64));
    return;
  }
}

void WakeupScheduler::wake_at(unsigned id, uint64_t at) {
  const uint64_t now = sim_now_value();
  if (at < now) at = now;
  if (pending_[id] <= at) return;
  if (pending_[id] != kNone) drop(id);
  pending_[id] = at;
  bucket_for(at).bits[id / 64] |= uint64_t(1) << (id % 64);
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
    // again from the start each time (the bucket may also have moved).
    std::vector<uint64_t>& bits = buckets_.back().bits;
    size_t w = 0;
    while (w < bits.size() && bits[w] == 0) ++w;
    if (w == bits.size()) {
      spare_.push_back(std::move(buckets_.back()));
      buckets_.pop_back();
      continue;
    }
    const unsigned id = static_cast<unsigned>(w * 64 + __builtin_ctzll(bits[w]));
    bits[w] &= bits[w] - 1;
    pending_[id] = kNone;
    clients_[id]->wake();
  }
  firing_ = false;
  if (!buckets_.empty()) arm(buckets_.back().at);
}

}  // namespace warptlm
