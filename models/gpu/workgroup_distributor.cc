#include "gpu/workgroup_distributor.h"

#include <algorithm>
#include <stdexcept>

namespace warptlm {

WorkgroupDistributor::WorkgroupDistributor(sc_core::sc_module_name name,
                                           const PlatformConfig& config, sc_core::sc_time cycle)
    : sc_module(name),
      dispatch("dispatch"),
      sm_config_(config.sm),
      warp_size_(config.warp_size),
      cycle_(cycle),
      warp_slots_(0),
      sms_(config.num_sms),
      resident_signals_("resident_ctas", config.num_sms) {
  if (config.num_sms == 0) throw std::invalid_argument("config.num_sms: must be positive");
  if (config.warp_size == 0) throw std::invalid_argument("config.warp_size: must be positive");
  if (cycle == sc_core::SC_ZERO_TIME) throw std::invalid_argument("cycle: must be positive");
  // A CTA takes whole warps, so the thread limit is a warp-slot limit: the
  // SM's threads cap is enforced through warp_slots_ (no separate count).
  warp_slots_ = warp_slots(sm_config_.limits(), warp_size_);
  flush_l1_ = l1_is_write_back(config);
  dispatch_ext_ = new CtaDispatch;
  payload_.set_extension(dispatch_ext_);
  SC_HAS_PROCESS(WorkgroupDistributor);
  SC_THREAD(run);
  SC_METHOD(publish);
  sensitive << publish_;
  dont_initialize();
}

void WorkgroupDistributor::end_of_elaboration() {
  if (dispatch.size() != sms_.size())
    SC_REPORT_ERROR(name(), ("dispatch: bound to " + std::to_string(dispatch.size()) +
                             " SMs, the configuration has num_sms = " + std::to_string(sms_.size()))
                                .c_str());
}

std::optional<FitProblem> WorkgroupDistributor::check_fit(const KernelLaunch& launch) const {
  return cta_fit_problem(launch.per_cta, launch.dynamic_shared, sm_config_.limits(), warp_size_);
}

void WorkgroupDistributor::start(const KernelLaunch& launch) {
  if (running_) throw std::invalid_argument("launch: a launch is already running");
  for (size_t i = 0; i < sms_.size(); ++i)
    if (sms_[i].ctas)
      throw std::invalid_argument("launch: SM " + std::to_string(i) + " still holds " +
                                  std::to_string(sms_[i].ctas) +
                                  " CTAs of a launch that ended in a fault");
  if (auto problem = check_fit(launch)) throw std::invalid_argument("launch: " + problem->message);
  theoretical_ctas_ = ctas_per_sm(launch.per_cta, sm_config_.limits(), warp_size_);

  launch_ = &launch;
  total_ctas_ = launch.grid.count();
  next_cta_ = retired_ = 0;
  flush_requested_ = false;
  flushes_pending_ = 0;
  rr_ = 0;  // every launch starts at SM 0: a launch's placement does not depend on history
  fault_.reset();
  running_ = true;
  ++launches_;
  launch_start_ = sc_core::sc_time_stamp().value();
  for (SmState& s : sms_) s.last_change = launch_start_;
  wake_.notify(sc_core::SC_ZERO_TIME);
}

void WorkgroupDistributor::use_wakeups(WakeupScheduler& wakeups) {
  wakeups_ = &wakeups;
  wakeup_id_ = wakeups.add(*this);
}

bool WorkgroupDistributor::fits(const SmState& s) const {
  const CtaResources& r = launch_->per_cta;
  return s.ctas + 1 <= sm_config_.ctas && s.warps + r.warps <= warp_slots_ &&
         s.registers + r.registers <= sm_config_.registers &&
         s.shared + r.shared_memory <= sm_config_.shared_memory;
}

void WorkgroupDistributor::account(SmState& s, uint64_t now) {
  if (running_) {
    s.cta_area += uint64_t(s.ctas) * (now - s.last_change);
    s.warp_area += uint64_t(s.warps) * (now - s.last_change);
  }
  s.last_change = now;
}

void WorkgroupDistributor::run() {
  for (;;) {
    // One round per cycle while CTAs remain and some SM took one; when none
    // fits, sleep until a retirement (or the next launch) wakes us. Trying
    // before the first wait catches a launch started during elaboration.
    while (running_ && next_cta_ < total_ctas_ && dispatch_round()) {
      if (!running_ || next_cta_ >= total_ctas_) break;
      if (wakeups_) {
        wakeups_->wake_at(wakeup_id_, (sc_core::sc_time_stamp() + cycle_).value());
        sc_core::wait(round_);
      } else {
        sc_core::wait(cycle_);
      }
    }
    if (flush_requested_) request_flushes();
    sc_core::wait(wake_);
  }
}

// A round offers each SM at most one CTA, starting after the SM that got the
// last CTA of the previous round, so a grid smaller than the GPU spreads over
// the SMs and no SM is always served first.
bool WorkgroupDistributor::dispatch_round() {
  const unsigned n = static_cast<unsigned>(sms_.size());
  const unsigned first = rr_;
  bool any = false;
  for (unsigned k = 0; k < n && running_ && next_cta_ < total_ctas_; ++k) {
    unsigned i = (first + k) % n;
    if (!fits(sms_[i])) continue;
    dispatch_to(i);
    rr_ = (i + 1) % n;
    any = true;
  }
  return any;
}

void WorkgroupDistributor::dispatch_to(unsigned sm) {
  const KernelLaunch& l = *launch_;
  const CtaResources& r = l.per_cta;
  SmState& s = sms_[sm];
  account(s, sc_core::sc_time_stamp().value());
  // Charge before the call, so a CTA the SM retires at once cannot underflow.
  ++s.ctas;
  s.warps += r.warps;
  s.registers += r.registers;
  s.shared += r.shared_memory;
  s.ctas_max = std::max(s.ctas_max, s.ctas);
  s.warps_max = std::max(s.warps_max, s.warps);
  ++s.dispatched;
  publish_.notify(sc_core::SC_ZERO_TIME);

  const uint64_t linear = next_cta_++;
  const uint64_t gx = l.grid.x, gy = l.grid.y;
  dispatch_ext_->launch = &l;
  dispatch_ext_->linear = linear;
  dispatch_ext_->ctaid =
      Dim3{static_cast<uint32_t>(linear % gx), static_cast<uint32_t>(linear / gx % gy),
           static_cast<uint32_t>(linear / (gx * gy))};
  const sc_core::sc_time delay = send_dispatch(sm, linear, "CTA " + std::to_string(linear));
  if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
}

sc_core::sc_time WorkgroupDistributor::send_dispatch(unsigned sm, uint64_t address,
                                                     const std::string& what) {
  payload_.set_command(tlm::TLM_WRITE_COMMAND);
  payload_.set_address(address);
  payload_.set_data_ptr(nullptr);
  payload_.set_data_length(0);
  payload_.set_streaming_width(0);
  payload_.set_byte_enable_ptr(nullptr);
  payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  dispatch[sm]->b_transport(payload_, delay);
  if (payload_.is_response_error())
    SC_REPORT_ERROR(name(), ("SM " + std::to_string(sm) + " refused " + what + ": " +
                             payload_.get_response_string())
                                .c_str());
  return delay;
}

void WorkgroupDistributor::cta_retired(unsigned sm, uint64_t linear) {
  if (sm >= sms_.size() || sms_[sm].ctas == 0 || launch_ == nullptr)
    SC_REPORT_ERROR(name(), ("SM " + std::to_string(sm) + " retired CTA " + std::to_string(linear) +
                             " but holds none from this distributor")
                                .c_str());
  const CtaResources& r = launch_->per_cta;
  SmState& s = sms_[sm];
  account(s, sc_core::sc_time_stamp().value());
  --s.ctas;
  s.warps -= r.warps;
  s.registers -= r.registers;
  s.shared -= r.shared_memory;
  publish_.notify(sc_core::SC_ZERO_TIME);
  if (!running_) return;  // draining after a fault: only the resources come back
  if (++retired_ < total_ctas_) {
    wake_.notify(sc_core::SC_ZERO_TIME);
  } else if (flush_l1_) {
    // The dispatch process sends the flush requests (b_transport from a
    // thread, not from inside this SM's report call).
    flush_requested_ = true;
    flushes_pending_ = static_cast<unsigned>(sms_.size());
    wake_.notify(sc_core::SC_ZERO_TIME);
  } else {
    finish();
  }
}

void WorkgroupDistributor::request_flushes() {
  flush_requested_ = false;
  dispatch_ext_->launch = launch_;
  dispatch_ext_->flush_l1 = true;
  for (unsigned sm = 0; sm < sms_.size() && running_; ++sm)
    send_dispatch(sm, 0, "the L1 flush request");
  dispatch_ext_->flush_l1 = false;
}

void WorkgroupDistributor::l1_flushed(unsigned sm) {
  (void)sm;
  // After a fault the launch has already ended; a late flush adds nothing.
  if (running_ && flushes_pending_ > 0 && --flushes_pending_ == 0) finish();
}

void WorkgroupDistributor::kernel_fault(unsigned sm, const KernelFault& fault) {
  (void)sm;
  if (!running_ || fault_) return;  // the first fault ends the launch; later ones add nothing
  fault_ = fault;
  finish();
}

void WorkgroupDistributor::finish() {
  const uint64_t now = sc_core::sc_time_stamp().value();
  for (SmState& s : sms_) account(s, now);
  busy_time_ += now - launch_start_;
  running_ = false;
  finished_.notify(sc_core::SC_ZERO_TIME);
}

void WorkgroupDistributor::reset() {
  const uint64_t now = sc_core::sc_time_stamp().value();
  for (SmState& s : sms_) account(s, now);
  if (running_) busy_time_ += now - launch_start_;
  running_ = false;
  finished_.cancel();
  for (SmState& s : sms_) {
    s.ctas = s.warps = 0;
    s.registers = s.shared = 0;
  }
  launch_ = nullptr;
  next_cta_ = total_ctas_ = retired_ = 0;
  flush_requested_ = false;
  flushes_pending_ = 0;
  fault_.reset();
  publish_.notify(sc_core::SC_ZERO_TIME);
}

void WorkgroupDistributor::publish() {
  for (size_t i = 0; i < sms_.size(); ++i)
    if (resident_signals_[i].read() != sms_[i].ctas) resident_signals_[i].write(sms_[i].ctas);
}

DistributorStats WorkgroupDistributor::stats() const {
  DistributorStats st;
  st.launches = launches_;
  st.warp_slots = warp_slots_;
  st.theoretical_ctas = theoretical_ctas_;
  const uint64_t now = sc_core::sc_time_stamp().value();
  const uint64_t busy = busy_time_ + (running_ ? now - launch_start_ : 0);
  for (const SmState& s : sms_) {
    // Include the running launch up to now without changing the state.
    uint64_t pending = running_ ? now - s.last_change : 0;
    SmOccupancy o;
    o.ctas_mean = busy ? double(s.cta_area + uint64_t(s.ctas) * pending) / double(busy) : 0.0;
    o.warps_mean = busy ? double(s.warp_area + uint64_t(s.warps) * pending) / double(busy) : 0.0;
    o.ctas_max = s.ctas_max;
    o.warps_max = s.warps_max;
    o.ctas_dispatched = s.dispatched;
    st.ctas_dispatched += s.dispatched;
    st.per_sm.push_back(o);
  }
  return st;
}

nlohmann::json DistributorStats::to_json() const {
  nlohmann::json j;
  double ctas_mean = 0, warps_mean = 0;
  unsigned ctas_max = 0, warps_max = 0;
  for (const SmOccupancy& o : per_sm) {
    ctas_mean += o.ctas_mean;
    warps_mean += o.warps_mean;
    ctas_max = std::max(ctas_max, o.ctas_max);
    warps_max = std::max(warps_max, o.warps_max);
  }
  if (!per_sm.empty()) {
    ctas_mean /= double(per_sm.size());
    warps_mean /= double(per_sm.size());
  }
  j["launches"] = launches;
  j["ctas_dispatched"] = ctas_dispatched;
  j["ctas_mean"] = ctas_mean;
  j["ctas_max"] = ctas_max;
  j["warps_mean"] = warps_mean;
  j["warps_max"] = warps_max;
  j["warp_slots"] = warp_slots;
  j["warp_occupancy"] = warp_slots ? warps_mean / double(warp_slots) : 0.0;
  j["theoretical_ctas_per_sm"] = theoretical_ctas;
  for (size_t i = 0; i < per_sm.size(); ++i) {
    const std::string p = "sm" + std::to_string(i) + ".";
    j[p + "ctas_dispatched"] = per_sm[i].ctas_dispatched;
    j[p + "ctas_mean"] = per_sm[i].ctas_mean;
    j[p + "ctas_max"] = per_sm[i].ctas_max;
    j[p + "warps_mean"] = per_sm[i].warps_mean;
    j[p + "warps_max"] = per_sm[i].warps_max;
  }
  return j;
}

const std::vector<StatInfo>& DistributorStats::infos() {
  static const std::vector<StatInfo> infos = {
      {"launches", "launches", "launches the distributor ran"},
      {"ctas_dispatched", "CTAs", "CTAs dispatched"},
      {"ctas_mean", "CTAs", "time-weighted resident CTAs per SM, mean over SMs"},
      {"ctas_max", "CTAs", "most CTAs resident on one SM"},
      {"warps_mean", "warps", "time-weighted resident warps per SM, mean over SMs"},
      {"warps_max", "warps", "most warps resident on one SM"},
      {"warp_slots", "warps", "warp slots per SM: min(sm.warps, sm.threads / warp_size)"},
      {"warp_occupancy", "fraction", "warps_mean / warp_slots"},
      {"theoretical_ctas_per_sm", "CTAs", "CTAs one SM can hold, by its tightest resource"},
      {"sm<N>.ctas_dispatched", "CTAs", "CTAs dispatched to SM N"},
      {"sm<N>.ctas_mean", "CTAs", "time-weighted resident CTAs of SM N"},
      {"sm<N>.ctas_max", "CTAs", "most CTAs resident on SM N"},
      {"sm<N>.warps_mean", "warps", "time-weighted resident warps of SM N"},
      {"sm<N>.warps_max", "warps", "most warps resident on SM N"},
  };
  return infos;
}

}  // namespace warptlm
