// Runtime state of one warp in the functional executor.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "exec/launch.h"
#include "semantics/register_file.h"
#include "semantics/semantics.h"
#include "simt/reconvergence_unit.h"

namespace warptlm {

// One activation of a function: its registers, its per-thread .param frame
// and where its .local variables start in each thread's local memory. With the
// IPDOM stack a warp's paths are always in the same activation, so frames form
// a per-warp stack.
struct Frame {
  uint32_t function = 0;
  RegisterStorage regs;            // laid out by the function's RegisterLayout
  const RegSlot* slots = nullptr;  // that layout's slots
  std::vector<uint8_t> params;     // params[lane * param_frame_size + offset]
  uint64_t param_frame_size = 0;
  uint64_t local_base = 0;  // offset of this frame in each lane's local memory
  Pc call_pc = 0;           // the call instruction that created it (0 for the kernel)
};

struct Warp {
  uint32_t index = 0;  // warp id within the CTA
  unsigned size = 0;   // warp size (lanes)
  LaneMask valid = 0;  // lanes that hold a thread
  LaneMask exited = 0;
  std::vector<Dim3> tid;  // per lane
  std::vector<Frame> frames;
  std::vector<std::vector<uint8_t>> local;  // per lane local memory (grows with frames)
  std::unique_ptr<ReconvergenceUnit> simt;
  bool at_barrier = false;     // stopped: its next path would run lanes that wait
  LaneMask barrier_lanes = 0;  // lanes arrived at barrier_id, waiting for it to complete
  uint32_t barrier_id = 0;
  Pc barrier_pc = 0;
  uint64_t issued = 0;  // warp instructions issued (drives %clock)
  // `issued` at the warp's last progress (a store to global or shared
  // memory, an atomic, a barrier, an exit): the no-progress watchdog's mark.
  uint64_t progress_mark = 0;
  // WarpIssuer::issue() advanced `simt` since WarpIssuer::add_counters() last ran.
  bool counters_pending = false;
  bool finished() const { return simt->finished(); }
};

}  // namespace warptlm
