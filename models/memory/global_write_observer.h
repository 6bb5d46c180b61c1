// Told of the global-memory bytes an instruction wrote at issue. The timing
// model executes instructions when they issue, so memory always holds the
// newest bytes; the write transactions it still has in flight towards memory
// must carry those bytes too, or a target that takes a write's data after a
// newer store would put stale bytes back (interconnect/memory_port.h).
#pragma once

#include <cstdint>

namespace warptlm {

class GlobalWriteObserver {
 public:
  virtual ~GlobalWriteObserver() = default;
  // [lo, hi) holds every byte the instruction wrote (it may hold more).
  virtual void global_written(uint64_t lo, uint64_t hi) = 0;
};

}  // namespace warptlm
