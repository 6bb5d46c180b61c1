// The workgroup (CTA) distributor: hands a launch's CTAs, in linear order, to
// SMs as their resources free up (CTA slots, warp slots, registers, shared
// memory), over a TLM dispatch socket per SM, and learns of retired CTAs and
// faults through SmReportIf. Records each SM's occupancy over time.
#pragma once

#include <tlm_utils/multi_passthrough_initiator_socket.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "config/platform_config.h"
#include "exec/cta_fit.h"
#include "exec/functional_executor.h"
#include "sm/cta_dispatch.h"
#include "stats/stat_info.h"
#include "transaction/wakeup_scheduler.h"

namespace warptlm {

// Occupancy of one SM, time-weighted over the time launches ran.
struct SmOccupancy {
  double ctas_mean = 0, warps_mean = 0;
  unsigned ctas_max = 0, warps_max = 0;
  uint64_t ctas_dispatched = 0;
};

struct DistributorStats {
  uint64_t launches = 0;
  uint64_t ctas_dispatched = 0;
  unsigned warp_slots = 0;        // per SM: min(sm.warps, sm.threads / warp_size)
  unsigned theoretical_ctas = 0;  // CTAs of the last launch one SM can hold at once
  std::vector<SmOccupancy> per_sm;
  // Flat: "ctas_dispatched", "ctas_mean"/"warps_mean" (mean over SMs),
  // "ctas_max"/"warps_max" (max over SMs), "warp_occupancy" (warps_mean /
  // warp_slots), "theoretical_ctas_per_sm", "sm<N>.ctas_mean", ...
  nlohmann::json to_json() const;
  // The keys of its statistics, in order, with unit and meaning ("<N>" stands
  // for an index in per-part keys).
  static const std::vector<StatInfo>& infos();
};

class WorkgroupDistributor : public sc_core::sc_module,
                             public SmReportIf,
                             private WakeupScheduler::Client {
 public:
  // `cycle`: the core clock period; at most one CTA goes to each SM per cycle.
  WorkgroupDistributor(sc_core::sc_module_name name, const PlatformConfig& config,
                       sc_core::sc_time cycle);

  // Bind SM i's `dispatch` socket as the i-th binding (config.num_sms in all);
  // bind each SM's `report` port to this module.
  tlm_utils::multi_passthrough_initiator_socket<WorkgroupDistributor> dispatch;

  // Why a CTA of `launch` cannot fit on an empty SM; nullopt when it can.
  std::optional<FitProblem> check_fit(const KernelLaunch& launch) const;
  // Starts dispatching `launch` (which must outlive the launch). Throws
  // std::invalid_argument when a launch is running, an SM still holds CTAs
  // (of a launch that ended in a fault), or check_fit() objects.
  void start(const KernelLaunch& launch);

  bool running() const { return running_; }
  // The GPU's reset: a running launch is abandoned (finished_event() is not
  // notified for it), every SM's resources count as free (the SMs drop their
  // CTAs in the same reset), a pending flush is forgotten. Statistics stay.
  void reset();
  // Notified (delta) when the launch ends: every CTA retired (and, with a
  // write-back L1, every SM's flush answered), or a fault.
  const sc_core::sc_event& finished_event() const { return finished_; }
  // The first fault reported during the last launch, if any.
  const std::optional<KernelFault>& fault() const { return fault_; }
  unsigned resident_ctas(unsigned sm) const { return sms_.at(sm).ctas; }
  unsigned resident_warps(unsigned sm) const { return sms_.at(sm).warps; }
  DistributorStats stats() const;
  // Resident CTAs per SM as signals (for the VCD), updated on change.
  const sc_core::sc_signal<unsigned>& resident_signal(unsigned sm) const {
    return resident_signals_.at(sm);
  }

  // The wait for the next dispatch round goes through `wakeups` (call during
  // elaboration): a round then runs a delta cycle after everything `wakeups`
  // runs at that time, so it sees every CTA the SMs retired in that cycle.
  void use_wakeups(WakeupScheduler& wakeups);

  // SmReportIf, called from the SMs' processes.
  void cta_retired(unsigned sm, uint64_t linear) override;
  void kernel_fault(unsigned sm, const KernelFault& fault) override;
  void l1_flushed(unsigned sm) override;

 private:
  struct SmState {
    unsigned ctas = 0, warps = 0;
    uint64_t registers = 0, shared = 0;
    // Occupancy integrals in (count x time-resolution units) since the first launch.
    uint64_t cta_area = 0, warp_area = 0;
    uint64_t last_change = 0;  // sc_time value of the last update
    unsigned ctas_max = 0, warps_max = 0;
    uint64_t dispatched = 0;
  };

  void end_of_elaboration() override;
  void run();  // the dispatch process
  bool dispatch_round();
  void dispatch_to(unsigned sm);
  // One dispatch transaction (a CTA, or the L1 flush request) to `sm` with
  // dispatch_ext_ as set by the caller; an error response is reported naming
  // `what`. Returns the SM's annotated delay.
  sc_core::sc_time send_dispatch(unsigned sm, uint64_t address, const std::string& what);
  bool fits(const SmState& s) const;
  void account(SmState& s, uint64_t now);  // integrates occupancy up to `now`
  void finish();
  void request_flushes();  // asks every SM to write back its dirty L1 lines
  void publish();          // writes resident_signals_ from sms_
  void wake() override { round_.notify(sc_core::SC_ZERO_TIME); }

  SmConfig sm_config_;
  unsigned warp_size_;
  sc_core::sc_time cycle_;
  unsigned warp_slots_;
  std::vector<SmState> sms_;
  const KernelLaunch* launch_ = nullptr;
  bool running_ = false;
  uint64_t next_cta_ = 0, total_ctas_ = 0, retired_ = 0;
  unsigned rr_ = 0;  // the SM a dispatch round starts at
  uint64_t launches_ = 0;
  uint64_t busy_time_ = 0;  // sum over ended launches of their duration (time-resolution units)
  uint64_t launch_start_ = 0;
  unsigned theoretical_ctas_ = 0;
  std::optional<KernelFault> fault_;
  bool flush_l1_ = false;         // l1_is_write_back(config): a launch ends with flushes
  bool flush_requested_ = false;  // the last CTA retired; the dispatch process sends them
  unsigned flushes_pending_ = 0;  // SMs whose flush is not yet answered
  tlm::tlm_generic_payload payload_;
  CtaDispatch* dispatch_ext_;  // owned by payload_
  sc_core::sc_event wake_, finished_, publish_;
  sc_core::sc_event round_;  // the next round's cycle came (through wakeups_)
  WakeupScheduler* wakeups_ = nullptr;
  unsigned wakeup_id_ = 0;
  sc_core::sc_vector<sc_core::sc_signal<unsigned>> resident_signals_;
};

}  // namespace warptlm
