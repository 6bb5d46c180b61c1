// A warp timeline recorded during timing simulation and written as Chrome
// trace-event JSON, which Perfetto (ui.perfetto.dev) and chrome://tracing open:
// one process per SM, one thread (track) per warp, one slice per issued
// instruction or stall.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

namespace warptlm {

class ChromeTrace {
 public:
  // At most max_events slices are kept; later ones are dropped and counted.
  explicit ChromeTrace(uint64_t max_events = 5'000'000);

  // One slice on the track of warp `warp` (global id) of SM `sm`: an issued
  // instruction or a stall. name: e.g. the instruction text or
  // "stall: scoreboard"; begin and duration in cycles (duration below 2^32, else
  // std::invalid_argument naming it: no stall lasts seconds). Each distinct name is
  // stored once, so recording a name seen before does not allocate (beyond the
  // event vector's amortized growth).
  void slice(unsigned sm, unsigned warp, const std::string& name, uint64_t begin,
             uint64_t duration);
  // The same for an issued instruction, with its active lane mask: the slice's
  // args hold "mask" (hex) and "lanes" (its population count).
  void slice(unsigned sm, unsigned warp, const std::string& name, uint64_t begin,
             uint64_t duration, uint64_t mask);

  // Writes {"traceEvents":[...], "displayTimeUnit":"ns", "otherData":{...}}:
  // "X" (complete) events in recording order with ts/dur in microseconds from
  // cycles at `cycle_ns` ns per cycle, pid = sm, tid = warp, then "M" metadata
  // events naming processes "SM n" and threads "warp n" (with sort indexes so
  // tracks appear in numeric order). otherData holds {"dropped_events": N,
  // "cycle_ns": cycle_ns}. cycle_ns must be positive and finite
  // (std::invalid_argument naming it).
  void write(std::ostream& os, double cycle_ns) const;

  uint64_t events() const { return events_.size(); }  // slices kept
  uint64_t dropped() const { return dropped_; }       // slices past max_events
  uint64_t max_events() const { return max_events_; }

 private:
  static constexpr uint32_t kHasMask = 1u << 31;  // in Event::name: the mask is set
  struct Event {  // 32 bytes: a name index instead of the string
    uint64_t begin;
    uint32_t duration;
    uint32_t name;  // index into names_, | kHasMask for an instruction with its mask
    uint32_t sm;
    uint32_t warp;
    uint64_t mask;
  };
  uint32_t intern(const std::string& name);

  uint64_t max_events_;
  uint64_t dropped_ = 0;
  std::vector<Event> events_;
  std::vector<std::string> names_;                      // index -> name, in first-use order
  std::unordered_map<std::string, uint32_t> name_ids_;  // lookup only; never iterated
};

}  // namespace warptlm
