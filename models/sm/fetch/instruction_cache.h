// The per-SM instruction cache timing model: tags only, misses served by a
// fixed-latency backing store (see docs/sm-memory-units.md for why not the TLM
// memory path), with in-flight fills shared by later misses to the same line.
#pragma once

#include <cstdint>
#include <vector>

#include "cache/cache_tags.h"
#include "frontend/ir.h"

namespace warptlm {

class InstructionCache {
 public:
  // CacheTags geometry (size, assoc, line; line at least kInstrBytes) and the
  // cycles a miss takes to fill. std::invalid_argument naming the parameter.
  InstructionCache(uint64_t size, unsigned assoc, unsigned line, unsigned miss_latency);

  // The instruction at `pc` (kInstrBytes at pc) is requested at cycle `now`:
  // returns the cycle it is available. A hit returns now. A miss starts a fill
  // and returns now + miss_latency, the cycle the line is installed; a miss on
  // a line already being fetched waits for that fill (returns its cycle) and
  // starts none. `hit` says which. `now` must not decrease from call to call
  // (std::invalid_argument naming now), since fills are installed as time
  // passes them. Does not allocate once as many fills as ever before are in flight.
  // Inline: one call per issued instruction, nearly all hits on the line of the
  // previous one. That line is the most recently used of the whole cache while
  // no other line was accessed or installed since, so a repeated hit would only
  // renew a stamp that is already the newest: the LRU order, the counts and the
  // timing are the same without the lookup.
  uint64_t fetch(Pc pc, uint64_t now, bool& hit) {
    if (tags_.line_address(pc) == mru_line_ && now < next_arrival_ && now >= last_now_) {
      last_now_ = now;
      hit = true;
      ++hits_;
      return now;
    }
    return lookup(pc, now, hit);
  }

  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }  // every miss, merged ones included
  uint64_t fills() const { return fills_; }    // misses that started a fill
  unsigned line() const { return tags_.line(); }
  unsigned miss_latency() const { return miss_latency_; }

 private:
  struct Pending {
    uint64_t line_addr;
    uint64_t ready;  // the cycle the line is installed
  };
  static constexpr uint64_t kNone = ~uint64_t(0);   // no line address (lines are aligned)
  uint64_t lookup(Pc pc, uint64_t now, bool& hit);  // fetch() through the tags
  void install_arrived(uint64_t now);

  CacheTags tags_;
  unsigned miss_latency_;
  // Fills in flight in start order; with one fixed latency and non-decreasing
  // `now` that is also arrival order, so arrivals retire from the front.
  std::vector<Pending> pending_;
  uint64_t last_now_ = 0;
  // The line accessed or installed last (kNone before any), and the cycle the
  // first fill in flight arrives (kNone when none is): fetch()'s fast path.
  uint64_t mru_line_ = kNone;
  uint64_t next_arrival_ = kNone;
  uint64_t hits_ = 0;
  uint64_t misses_ = 0;
  uint64_t fills_ = 0;
};

}  // namespace warptlm
