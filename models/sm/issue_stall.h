// Why an SM issue slot did not issue in a cycle (or that it did): the bins of
// the slot_* statistics, shared by the SM and its compaction part.
#pragma once

#include <cstdint>

namespace warptlm {

enum class IssueStall : uint8_t {
  Issued,
  Idle,
  Scoreboard,
  Pipeline,
  Collector,
  Barrier,
  Control,
  Memory
};

}  // namespace warptlm
