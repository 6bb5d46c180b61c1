// Why an SM issue slot did not issue in a cycle (or that it did): the bins of
// the slot_* statistics, shared by the SM and its compaction part; and the
// cycle that never comes, which both use for "not scheduled".
#pragma once

#include <cstdint>

namespace warptlm {

constexpr uint64_t kNever = ~uint64_t(0);

enum class IssueStall : uint8_t {
  Issued,
  Idle,
  Scoreboard,
  Pipeline,
  Collector,
  Barrier,
  Control,
  Memory,
  Sleep  // the warp sleeps (nanosleep)
};

}  // namespace warptlm
