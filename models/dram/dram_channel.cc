#include "dram/dram_channel.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace warptlm {

DramChannel::DramChannel(unsigned banks, unsigned queue_depth,
                         std::unique_ptr<DramScheduler> scheduler, const DramTiming& timing)
    : banks_(banks),
      depth_(queue_depth),
      scheduler_(std::move(scheduler)),
      in_order_(scheduler_ && scheduler_->in_order()),
      timing_(timing) {
  if (!scheduler_) throw std::invalid_argument("dram scheduler: none given");
  if (banks == 0) throw std::invalid_argument("dram banks must be at least 1");
  if (queue_depth == 0) throw std::invalid_argument("dram queue_depth must be at least 1");
  if (timing.bus_width == 0) throw std::invalid_argument("dram bus_width must be at least 1");
  queue_.reserve(queue_depth);
}

void DramChannel::push(const DramRequest& request) { queue_.push_back(request); }

uint64_t DramChannel::next_start(uint64_t now) const {
  if (queue_.empty()) return kNever;
  uint64_t t0 = std::max(now, next_allowed_);
  if (in_order_) return std::max(t0, banks_[queue_.front().bank].ready);
  uint64_t best = kNever;
  for (const DramRequest& r : queue_) best = std::min(best, std::max(t0, banks_[r.bank].ready));
  return best;
}

DramRequest DramChannel::start_next(uint64_t now, DramService* service_out) {
  const size_t pick = scheduler_->pick(queue_, banks_, now);
  if (pick >= queue_.size() || banks_[queue_[pick].bank].ready > now)
    throw std::logic_error(
        std::string("dram scheduler '") + scheduler_->name() + "' picked " +
        (pick >= queue_.size() ? "past the end of the queue" : "a request whose bank is busy"));
  DramRequest r = queue_[pick];
  queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(pick));
  *service_out = service(r.bank, r.row, r.bytes, now);
  next_allowed_ = now + 1;
  return r;
}

DramService DramChannel::service(unsigned bank, uint64_t row, unsigned bytes, uint64_t now) {
  DramBankState& b = banks_[bank];
  uint64_t start = std::max(now, b.ready);
  uint64_t column;
  DramService s;
  if (b.open && b.row == row) {
    s.outcome = RowOutcome::Hit;
    column = start;
  } else if (!b.open) {
    s.outcome = RowOutcome::Miss;
    column = start + timing_.t_rcd;
  } else {
    s.outcome = RowOutcome::Conflict;
    column = start + timing_.t_rp + timing_.t_rcd;
  }
  uint64_t beats = (uint64_t{bytes} + timing_.bus_width - 1) / timing_.bus_width;
  s.data_cycles = static_cast<unsigned>(std::max<uint64_t>(1, beats));
  uint64_t data_start = std::max(column + timing_.t_cas, bus_free_);
  s.done = data_start + s.data_cycles;
  bus_free_ = s.done;
  b.open = true;
  b.row = row;
  b.ready = column + s.data_cycles;
  return s;
}

}  // namespace warptlm
