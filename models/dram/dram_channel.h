// One DRAM channel: its banks (each with an open row and the cycle it can take
// the next command), its data bus, and its request queue with the scheduler
// that picks what to start next ("fcfs": oldest first; "frfcfs": oldest row
// hit first, else oldest). Times are memory-clock cycles. Plain C++: the
// DramModel module feeds it and turns its answers into TLM responses.
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
#include <tlm>
#include <vector>

namespace warptlm {

struct DramTiming {
  unsigned t_cas = 0;
  unsigned t_rcd = 0;
  unsigned t_rp = 0;
  unsigned bus_width = 1;  // bytes per memory cycle
};

enum class RowOutcome : uint8_t { Hit, Miss, Conflict };  // Miss: the bank had no open row

struct DramRequest {
  tlm::tlm_generic_payload* trans = nullptr;
  uint64_t arrival = 0;  // cycle it entered the queue
  unsigned bank = 0;
  uint64_t row = 0;
  unsigned bytes = 0;
};

struct DramService {
  uint64_t done = 0;  // cycle the last data beat leaves
  RowOutcome outcome = RowOutcome::Hit;
  unsigned data_cycles = 0;
};

class DramChannel {
 public:
  enum class Policy : uint8_t { Fcfs, FrFcfs };
  static constexpr uint64_t kNever = UINT64_MAX;

  // Throws std::invalid_argument naming the parameter (banks, queue_depth,
  // bus_width must be non-zero).
  DramChannel(unsigned banks, unsigned queue_depth, Policy policy, const DramTiming& timing);

  bool full() const { return queue_.size() >= depth_; }
  bool empty() const { return queue_.empty(); }
  size_t queued() const { return queue_.size(); }
  // Precondition: !full().
  void push(const DramRequest& request);

  // The earliest cycle >= now at which start_next can start a queued request;
  // kNever when the queue is empty.
  uint64_t next_start(uint64_t now) const;
  // Picks by policy among the queued requests whose bank is free at `now`,
  // removes it from the queue and starts it. Precondition: next_start(now) == now.
  DramRequest start_next(uint64_t now, DramService* service);
  // Starts one access at the first cycle >= now its bank is free, bypassing
  // the queue (the loosely-timed path; start_next uses it too).
  DramService service(unsigned bank, uint64_t row, unsigned bytes, uint64_t now);

 private:
  struct Bank {
    bool open = false;
    uint64_t row = 0;
    uint64_t ready = 0;  // first cycle it takes a new command
  };

  std::vector<Bank> banks_;
  std::vector<DramRequest> queue_;  // oldest first; capacity reserved up front
  unsigned depth_;
  Policy policy_;
  DramTiming timing_;
  uint64_t bus_free_ = 0;      // first cycle the data bus is free
  uint64_t next_allowed_ = 0;  // one start per cycle
};

}  // namespace warptlm
