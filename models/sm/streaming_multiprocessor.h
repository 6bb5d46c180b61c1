// One SM: a thin container around its parts (instruction fetch, warp
// schedulers, scoreboard, operand collectors, execution pipelines, LD/ST unit
// with shared memory and L1). Instructions execute at issue through the
// semantics; the parts only decide when results become visible. The SM
// sleeps while nothing can issue and ticks again at the next cycle that can
// change that (a writeback, a memory response, a dispatched CTA). A memory
// response is applied at the first clock edge strictly after it arrives, so
// the statistics never depend on which of two same-time processes ran first.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <memory>
#include <systemc>
#include <tlm>

#include "config/platform_config.h"
#include "sm/cta_dispatch.h"
#include "sm/sm_clock.h"
#include "sm/sm_stats.h"

namespace warptlm {

class TraceSink;
struct RunStats;

class StreamingMultiprocessor : public sc_core::sc_module, private SmClock::Member {
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
  // Over the whole simulation, across resets.
  SmStats stats() const;
  // Instruction counts as the functional executor reports them (RunStats).
  RunStats run_stats() const;
  // The GPU's reset: the SM drops its CTAs, warps and cache contents (a
  // fresh core) and ignores the answers to the requests it sent before; a
  // request awaiting END_REQ still gets it (the base protocol's rules).
  // Statistics keep counting.
  void reset();
  // Issues a per-warp scoreboard would have blocked but lane masks allowed.
  uint64_t stalls_avoided_by_lane_masks() const;
  // Whether the SM holds no CTA.
  bool idle() const;
  // Timed ticks come from `clock` (call during elaboration; the GPU's clock
  // ticks its SMs in the order of these calls); without it the SM uses its
  // own event.
  void use_clock(SmClock& clock);

 private:
  SC_HAS_PROCESS(StreamingMultiprocessor);
  void dispatch_cta(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  tlm::tlm_sync_enum memory_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                               sc_core::sc_time& delay);
  void run();                          // the cycle process (woken by a CTA)
  void clocked() override { step(); }  // a requested tick's time came
  void clocked_private(uint64_t t) override { step_private(t, true); }
  void clocked_serial() override { step_serial(); }
  // Ticks if this is a due clock edge: step_private() then step_serial().
  void step();
  // What step() does to this SM alone, at time `t`: whether the edge is due,
  // the memory responses, and the core's cycle (SmCore::tick_private() when
  // `parallel`, else all of it); what it would do beyond the SM, and a
  // fault, wait for step_serial().
  void step_private(uint64_t t, bool parallel);
  void step_serial();
  void request_tick(uint64_t cycle);          // asks for a tick at `cycle`'s edge
  void apply_arrivals(uint64_t before);       // throws KernelFault for an error response
  void send();                                // the request sender
  void finish(tlm::tlm_generic_payload& gp);  // a response reached the SM

  struct Impl;  // the cycle model (SmCore) and the protocol state
  unsigned id_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace warptlm
