// A stand-in SM for distributor tests: it accepts CTAs on a `dispatch`
// socket, records them, retires each after a fixed hold time (or never) and
// can report a kernel fault at a given time.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <systemc>
#include <tlm>
#include <vector>

#include "exec/functional_executor.h"
#include "sm/cta_dispatch.h"

namespace warptlm::testing {

class FakeSm : public sc_core::sc_module {
 public:
  struct Received {
    sc_core::sc_time when;
    uint64_t linear;
    Dim3 ctaid;
  };

  // hold: how long each CTA runs before it retires; zero: it never retires.
  FakeSm(sc_core::sc_module_name name, unsigned id, sc_core::sc_time hold)
      : sc_module(name), dispatch("dispatch"), report("report"), id_(id), hold_(hold) {
    dispatch.register_b_transport(this, &FakeSm::b_transport);
    SC_HAS_PROCESS(FakeSm);
    SC_METHOD(retire);
    sensitive << retire_event_;
    dont_initialize();
    SC_THREAD(fault_at);
  }

  tlm_utils::simple_target_socket<FakeSm> dispatch;
  sc_core::sc_port<SmReportIf> report;

  // Report a fault with message `what` at time `when` (set before sc_start).
  void schedule_fault(sc_core::sc_time when, std::string what) {
    fault_time_ = when;
    fault_what_ = std::move(what);
  }

  std::vector<Received> received;

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time&) {
    auto* ext = p.get_extension<CtaDispatch>();
    if (!ext || p.get_command() != tlm::TLM_WRITE_COMMAND) {
      p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
      return;
    }
    received.push_back({sc_core::sc_time_stamp(), ext->linear, ext->ctaid});
    if (hold_ != sc_core::SC_ZERO_TIME) {
      pending_.push_back({sc_core::sc_time_stamp() + hold_, ext->linear});
      retire_event_.notify(hold_);  // keeps the earlier notification if one is pending
    }
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  void retire() {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    for (size_t i = 0; i < pending_.size();) {
      if (pending_[i].first <= now) {
        uint64_t linear = pending_[i].second;
        pending_.erase(pending_.begin() + i);
        report->cta_retired(id_, linear);
      } else {
        ++i;
      }
    }
    if (!pending_.empty()) {
      sc_core::sc_time next = pending_.front().first;
      for (const auto& p : pending_) next = std::min(next, p.first);
      retire_event_.notify(next - now);
    }
  }

  void fault_at() {
    if (fault_what_.empty()) return;
    sc_core::wait(fault_time_);
    report->kernel_fault(id_, KernelFault(fault_what_));
  }

  unsigned id_;
  sc_core::sc_time hold_;
  std::vector<std::pair<sc_core::sc_time, uint64_t>> pending_;
  sc_core::sc_event retire_event_;
  sc_core::sc_time fault_time_;
  std::string fault_what_;
};

}  // namespace warptlm::testing
