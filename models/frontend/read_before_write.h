// Which registers of a function a thread may read before it has written
// them: what a new register frame must give a defined value (zero), and all
// a frame needs zeroed (docs/timing-performance.md). PTX from nvcc and clang
// writes nearly every register before its first read, so a frame of such a
// function needs almost nothing zeroed.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/ir.h"

namespace warptlm {

// Per register of `module.functions[function]`: true when some path from
// the function's entry reads it (as a source, an address base or a guard)
// before an unguarded instruction has written it, or when a
// warp-collective instruction reads it (a shfl reads other lanes, whose
// paths may never have written it). Backward liveness over the function's
// CFG; a guarded write does not count as a write, and neither does any
// write in code the exec-mask lowering produced (it runs with lanes masked).
std::vector<bool> registers_read_before_written(const Module& module, uint32_t function);

}  // namespace warptlm
