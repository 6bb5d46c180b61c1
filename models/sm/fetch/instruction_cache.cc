// Instruction cache lookups. Lines are installed when their fill arrives, not
// when it starts, so a line being fetched can neither hit early nor evict a
// line that is still being used in the meantime.
#include "sm/fetch/instruction_cache.h"

#include <stdexcept>

namespace warptlm {
namespace {

unsigned checked_line(unsigned line) {
  if (line < kInstrBytes)
    throw std::invalid_argument("line: must be at least 8 bytes (one instruction)");
  return line;
}

}  // namespace

InstructionCache::InstructionCache(uint64_t size, unsigned assoc, unsigned line,
                                   unsigned miss_latency)
    : tags_(size, assoc, checked_line(line)), miss_latency_(miss_latency) {
  pending_.reserve(16);
}

void InstructionCache::install_arrived(uint64_t now) {
  size_t done = 0;
  while (done < pending_.size() && pending_[done].ready <= now) {
    tags_.fill(pending_[done].line_addr);
    mru_line_ = pending_[done].line_addr;
    ++done;
  }
  if (done != 0) pending_.erase(pending_.begin(), pending_.begin() + done);
  next_arrival_ = pending_.empty() ? kNone : pending_.front().ready;
}

uint64_t InstructionCache::lookup(Pc pc, uint64_t now, bool& hit) {
  if (now < last_now_) throw std::invalid_argument("now: earlier than a previous fetch");
  last_now_ = now;
  install_arrived(now);
  const uint64_t line_addr = tags_.line_address(pc);
  if (tags_.access(line_addr)) {
    mru_line_ = line_addr;
    hit = true;
    ++hits_;
    return now;
  }
  hit = false;
  ++misses_;
  for (const Pending& p : pending_) {
    if (p.line_addr == line_addr) return p.ready;
  }
  const uint64_t ready = now + miss_latency_;
  if (ready == now) {  // zero latency: the line is there at once
    tags_.fill(line_addr);
    mru_line_ = line_addr;
  } else {
    pending_.push_back(Pending{line_addr, ready});
    next_arrival_ = pending_.front().ready;
  }
  ++fills_;
  return ready;
}

}  // namespace warptlm
