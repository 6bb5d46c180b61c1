// The DRAM request-scheduler interface: which queued request a channel starts
// next (memory.dram.scheduler). A channel (dram/dram_channel.h) owns its
// queue, banks and timing; the scheduler only chooses. Built-ins: "frfcfs"
// (oldest row hit first, else oldest) and "fcfs" (oldest only). Plain C++:
// the TLM payload a request carries is opaque here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tlm {
class tlm_generic_payload;
}

namespace warptlm {

struct DramRequest {
  tlm::tlm_generic_payload* trans = nullptr;
  uint64_t arrival = 0;  // cycle it entered the queue
  unsigned bank = 0;
  uint64_t row = 0;
  unsigned bytes = 0;
};

struct DramBankState {
  bool open = false;   // a row is open
  uint64_t row = 0;    // ... this one
  uint64_t ready = 0;  // first cycle the bank takes a new command
};

class DramScheduler {
 public:
  virtual ~DramScheduler() = default;
  virtual const char* name() const = 0;
  // Whether only the oldest queued request may start: the channel then waits
  // for that request's bank instead of asking pick() about the others.
  virtual bool in_order() const { return false; }
  // The request to start at `now`: an index into `queue` (oldest first) whose
  // bank is free (banks[queue[i].bank].ready <= now); at least one is. An
  // in-order scheduler is asked only when the oldest one's bank is free.
  virtual size_t pick(const std::vector<DramRequest>& queue,
                      const std::vector<DramBankState>& banks, uint64_t now) = 0;
};

// `banks`: the channel's banks. One scheduler per channel.
using DramSchedulerFactory = std::unique_ptr<DramScheduler> (*)(unsigned banks);

// Adds scheduler `name` (registry/component_registry.h): std::invalid_argument
// for an empty name, a null factory or a name already registered.
void register_dram_scheduler(const std::string& name, DramSchedulerFactory factory,
                             const std::string& description = "");
std::vector<std::string> dram_scheduler_registry_names();  // registration order
std::vector<std::pair<std::string, std::string>> dram_scheduler_descriptions();
// std::invalid_argument naming memory.dram.scheduler and listing the known
// names for an unknown one.
std::unique_ptr<DramScheduler> make_dram_scheduler(const std::string& name, unsigned banks);

}  // namespace warptlm
