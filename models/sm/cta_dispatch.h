// How the workgroup distributor and the SMs talk. A CTA is dispatched by a
// b_transport on the SM's `dispatch` target socket: a TLM_WRITE payload with
// no data that carries a CtaDispatch extension. The SM reports a retired CTA
// (every thread exited) or a fault through its `report` port. With a
// write-back L1, the end of a launch is a flush request on the same socket
// (CtaDispatch::flush_l1), answered by SmReportIf::l1_flushed.
#pragma once

#include <cstdint>
#include <systemc>
#include <tlm>

#include "config/platform_config.h"
#include "sm/kernel_launch.h"

namespace warptlm {

struct CtaDispatch : tlm::tlm_extension<CtaDispatch> {
  const KernelLaunch* launch = nullptr;
  Dim3 ctaid;
  uint64_t linear = 0;  // ctaid.x + ctaid.y * grid.x + ctaid.z * grid.x * grid.y
  // Not a CTA: the launch's last CTA retired; write back every dirty L1 line
  // and report l1_flushed once the L2 has answered all of the SM's writes.
  bool flush_l1 = false;

  tlm::tlm_extension_base* clone() const override { return new CtaDispatch(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const CtaDispatch&>(other);
  }
};

class KernelFault;

// Whether the SMs' L1 keeps dirty lines (a write-back L1 caching global
// accesses), so that a launch ends only after a flush of every SM.
inline bool l1_is_write_back(const PlatformConfig& config) {
  return config.memory.l1.size != 0 && config.memory.l1.cache_global &&
         config.memory.l1.write_policy == "write_back";
}

// Implemented by the distributor; called by an SM's process when a CTA
// retires, so its resources can go to the next CTA, or when a thread faults,
// which ends the launch (the GPU reports the fault; no more CTAs start).
class SmReportIf : public virtual sc_core::sc_interface {
 public:
  virtual void cta_retired(unsigned sm, uint64_t linear) = 0;
  virtual void kernel_fault(unsigned sm, const KernelFault& fault) = 0;
  // The flush requested by CtaDispatch::flush_l1 is complete (may be called
  // from within that request's b_transport).
  virtual void l1_flushed(unsigned sm) = 0;
};

}  // namespace warptlm
