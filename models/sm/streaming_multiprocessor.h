// One SM: a thin container around its parts (instruction fetch, warp
// schedulers, scoreboard, operand collectors, execution pipelines, LD/ST unit
// with shared memory and L1). Instructions execute at issue through the
// semantics; the parts only decide when results become visible. The SM's
// process sleeps while nothing can issue and wakes on the next event that can
// change that (a writeback, a memory response, a dispatched CTA).
#pragma once

#include <memory>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "config/platform_config.h"
#include "sm/cta_dispatch.h"
#include "sm/sm_stats.h"

namespace warptlm {

class TraceSink;
class SmCore;  // the cycle model behind the sockets (sm/sm_core.h)

class StreamingMultiprocessor : public sc_core::sc_module {
 public:
  // `config` must outlive the SM (the GPU top owns it).
  StreamingMultiprocessor(sc_core::sc_module_name name, unsigned id, const PlatformConfig& config);
  ~StreamingMultiprocessor() override;

  // CTA dispatch from the workgroup distributor (see cta_dispatch.h).
  tlm_utils::simple_target_socket<StreamingMultiprocessor> dispatch;
  // Every global-memory transaction of this SM, approximately-timed base
  // protocol (4 phases) with a GpuExtension (transaction/gpu_extension.h).
  tlm_utils::simple_initiator_socket<StreamingMultiprocessor> memory;
  // Where retired CTAs and kernel faults are reported.
  sc_core::sc_port<SmReportIf> report;

  unsigned id() const { return id_; }
  // Optional: every issued warp instruction with its cycle (sm = id()).
  void set_trace(TraceSink* trace);
  const SmStats& stats() const;
  // Whether the SM holds no CTA.
  bool idle() const;

 private:
  unsigned id_;
  std::unique_ptr<SmCore> core_;
};

}  // namespace warptlm
