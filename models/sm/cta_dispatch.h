// How the workgroup distributor and the SMs talk. A CTA is dispatched by a
// b_transport on the SM's `dispatch` target socket: a TLM_WRITE payload with
// no data that carries a CtaDispatch extension. The SM reports a retired CTA
// (every thread exited) or a fault through its `report` port.
#pragma once

#include <cstdint>
#include <systemc>
#include <tlm>

#include "sm/kernel_launch.h"

namespace warptlm {

struct CtaDispatch : tlm::tlm_extension<CtaDispatch> {
  const KernelLaunch* launch = nullptr;
  Dim3 ctaid;
  uint64_t linear = 0;  // ctaid.x + ctaid.y * grid.x + ctaid.z * grid.x * grid.y

  tlm::tlm_extension_base* clone() const override { return new CtaDispatch(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const CtaDispatch&>(other);
  }
};

class KernelFault;

// Implemented by the distributor; called by an SM's process when a CTA
// retires, so its resources can go to the next CTA, or when a thread faults,
// which ends the launch (the GPU reports the fault; no more CTAs start).
class SmReportIf : public virtual sc_core::sc_interface {
 public:
  virtual void cta_retired(unsigned sm, uint64_t linear) = 0;
  virtual void kernel_fault(unsigned sm, const KernelFault& fault) = 0;
};

}  // namespace warptlm
