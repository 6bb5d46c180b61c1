// One DRAM channel: its banks (each with an open row and the cycle it can take
// the next command), its data bus, and its request queue with the scheduler
// that picks what to start next (a DramScheduler: dram/scheduler/). Times are memory-clock cycles.
// Plain C++: the DramModel module feeds it and turns its answers into TLM responses.
//
// Starting a request at cycle `start` (its bank free):
//   row hit      column command at start
//   closed row   activate at start, column at start + t_rcd
//   other row    precharge at start, activate at + t_rp, column at + t_rp + t_rcd
// data leaves t_cas after the column command, once the bus is free, and holds
// the bus ceil(bytes / bus_width) cycles; the request is done when its data is.
// The bank takes its next command when this burst's column slot is over
// (column + burst cycles), so back-to-back row hits keep the bus busy. One
// request starts per cycle per channel (one command bus).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "dram/scheduler/dram_scheduler.h"

namespace warptlm {

struct DramTiming {
  unsigned t_cas = 0;
  unsigned t_rcd = 0;
  unsigned t_rp = 0;
  unsigned bus_width = 1;  // bytes per memory cycle
};

enum class RowOutcome : uint8_t { Hit, Miss, Conflict };  // Miss: the bank had no open row

struct DramService {
  uint64_t done = 0;  // cycle the last data beat leaves
  RowOutcome outcome = RowOutcome::Hit;
  unsigned data_cycles = 0;
};

class DramChannel {
 public:
  static constexpr uint64_t kNever = UINT64_MAX;

  // Throws std::invalid_argument naming the parameter (banks, queue_depth,
  // bus_width must be non-zero; a scheduler is required).
  DramChannel(unsigned banks, unsigned queue_depth, std::unique_ptr<DramScheduler> scheduler,
              const DramTiming& timing);

  bool full() const { return queue_.size() >= depth_; }
  bool empty() const { return queue_.empty(); }
  size_t queued() const { return queue_.size(); }
  // Precondition: !full().
  void push(const DramRequest& request);

  // The earliest cycle >= now at which start_next can start a queued request;
  // kNever when the queue is empty.
  uint64_t next_start(uint64_t now) const;
  // The scheduler picks among the queued requests whose bank is free at
  // `now`; removes it from the queue and starts it. Precondition:
  // next_start(now) == now. std::logic_error naming the scheduler when its
  // pick is not such a request.
  DramRequest start_next(uint64_t now, DramService* service);
  // Starts one access at the first cycle >= now its bank is free, bypassing
  // the queue (the loosely-timed path; start_next uses it too).
  DramService service(unsigned bank, uint64_t row, unsigned bytes, uint64_t now);

 private:
  std::vector<DramBankState> banks_;
  std::vector<DramRequest> queue_;  // oldest first; capacity reserved up front
  unsigned depth_;
  std::unique_ptr<DramScheduler> scheduler_;
  bool in_order_;  // scheduler_->in_order()
  DramTiming timing_;
  uint64_t bus_free_ = 0;      // first cycle the data bus is free
  uint64_t next_allowed_ = 0;  // one start per cycle
};

}  // namespace warptlm
