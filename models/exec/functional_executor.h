// The functional executor: runs a whole grid exactly, warp by warp, with a
// reconvergence unit per warp. The ground truth the timing model must match.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "exec/launch.h"
#include "exec/run_stats.h"
#include "frontend/program.h"

namespace warptlm {

struct ExecConfig {
  unsigned warp_size = 32;                   // 4..64
  uint64_t instruction_budget = 1ull << 32;  // warp instructions before "runaway kernel"
  unsigned quantum = 64;  // warp instructions a warp runs before the next warp of its CTA
  std::string reconvergence = "ipdom";
  // Throws std::invalid_argument naming the field when a value is out of range.
  void validate() const;
};

// A fault inside a kernel: bad memory access, barrier deadlock, runaway
// kernel, unsupported operation. what() names kernel, PC, thread and address.
class KernelFault : public std::runtime_error {
 public:
  explicit KernelFault(const std::string& what) : std::runtime_error(what) {}
};

// Runs kernel `entry` of `program` over launch.grid x launch.block threads.
// Buffers are copied to device memory before the run and back into
// launch.buffers after it. Throws std::invalid_argument for a bad launch
// (unknown kernel, wrong argument count/types, bad geometry) and KernelFault
// for faults during the run.
RunStats run_functional(const Program& program, const std::string& entry, LaunchSpec& launch,
                        const ExecConfig& config = {});

}  // namespace warptlm
