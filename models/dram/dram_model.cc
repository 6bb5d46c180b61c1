#include "dram/dram_model.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "dram/dram_store_access.h"
#include "transaction/sim_now.h"

namespace warptlm {
namespace {

constexpr const char* kReportId = "warptlm/dram";

sc_core::sc_time period_for(double mhz) {
  if (!(mhz > 0) || !std::isfinite(mhz))
    throw std::invalid_argument("dram clock_mhz must be positive");
  sc_core::sc_time period(1e3 / mhz, sc_core::SC_NS);
  if (period == sc_core::SC_ZERO_TIME)
    throw std::invalid_argument("dram clock_mhz is too high for the time resolution");
  return period;
}

// Min-heap order on (done, seq).
struct Later {
  template <typename T>
  bool operator()(const T& a, const T& b) const {
    return a.done != b.done ? a.done > b.done : a.seq > b.seq;
  }
};

}  // namespace

DramModel::DramModel(sc_core::sc_module_name name, const DramConfig& config, unsigned line,
                     DeviceMemory& store, unsigned queue_depth)
    : sc_module(name),
      in("in"),
      map_(config, line),
      store_(store),
      period_(period_for(config.clock_mhz)),
      peq_(this, &DramModel::peq_callback) {
  DramTiming timing{config.t_cas, config.t_rcd, config.t_rp, config.bus_width};
  channels_.reserve(config.channels);
  for (unsigned c = 0; c < config.channels; ++c)
    channels_.emplace_back(config.banks, queue_depth,
                           make_dram_scheduler(config.scheduler, config.banks), timing);
  next_start_.assign(config.channels, DramChannel::kNever);
  completions_.reserve(size_t{config.channels} * queue_depth * 2);
  stats_.channels.resize(config.channels);
  in.register_nb_transport_fw(this, &DramModel::nb_transport_fw);
  in.register_b_transport(this, &DramModel::b_transport);
  in.register_transport_dbg(this, &DramModel::transport_dbg);
  SC_HAS_PROCESS(DramModel);
  SC_METHOD(run);
  sensitive << wake_;
  dont_initialize();
}

uint64_t DramModel::cycle_at(const sc_core::sc_time& t) const {
  uint64_t p = period_.value();
  return (t.value() + p - 1) / p;
}

sc_core::sc_time DramModel::time_of(uint64_t cycle) const {
  return sc_core::sc_time::from_value(cycle * period_.value());
}

tlm::tlm_sync_enum DramModel::nb_transport_fw(tlm::tlm_generic_payload& trans,
                                              tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (phase == tlm::BEGIN_REQ || phase == tlm::END_RESP) {
    if (delay != sc_core::SC_ZERO_TIME) {
      peq_.notify(trans, phase, delay);
      return tlm::TLM_ACCEPTED;
    }
    if (phase == tlm::END_RESP) {
      end_response(trans);
      return tlm::TLM_COMPLETED;
    }
    if (!begin_request(trans)) return tlm::TLM_ACCEPTED;
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  SC_REPORT_ERROR(kReportId, "nb_transport_fw: unexpected phase");
  return tlm::TLM_COMPLETED;
}

void DramModel::peq_callback(tlm::tlm_generic_payload& trans, const tlm::tlm_phase& phase) {
  if (phase == tlm::END_RESP) {
    end_response(trans);
    return;
  }
  if (!begin_request(trans)) return;
  tlm::tlm_phase end = tlm::END_REQ;
  sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
  if (in->nb_transport_bw(trans, end, zero) != tlm::TLM_ACCEPTED)
    SC_REPORT_ERROR(kReportId, "END_REQ: the initiator must return TLM_ACCEPTED");
}

bool DramModel::begin_request(tlm::tlm_generic_payload& trans) {
  if (blocked_) SC_REPORT_ERROR(kReportId, "BEGIN_REQ before the previous request's END_REQ");
  if (trans.has_mm()) trans.acquire();  // held until its response is over
  DramAddress where = map_.map(trans.get_address());
  if (channels_[where.channel].full()) {
    blocked_ = &trans;
    blocked_channel_ = where.channel;
    ++stats_.queue_full;
    return false;
  }
  accept(trans, where);
  return true;
}

void DramModel::accept(tlm::tlm_generic_payload& trans, const DramAddress& where) {
  uint64_t now = cycle_at(sim_now());
  // Data moves on acceptance: instructions already executed at issue, so the
  // store holds the newest data and the timing below only decides when the
  // response leaves.
  tlm::tlm_response_status status = dram_transfer(store_, map_.line(), trans, false);
  trans.set_response_status(status);
  if (status != tlm::TLM_OK_RESPONSE || trans.get_command() == tlm::TLM_IGNORE_COMMAND) {
    if (status != tlm::TLM_OK_RESPONSE) ++stats_.errors;
    complete_at(now, trans);
  } else {
    DramChannel& ch = channels_[where.channel];
    ch.push(DramRequest{&trans, now, where.bank, where.row, trans.get_data_length()});
    next_start_[where.channel] = ch.next_start(now);
  }
  schedule_wake();
}

void DramModel::end_response(tlm::tlm_generic_payload& trans) {
  if (&trans != response_open_) SC_REPORT_ERROR(kReportId, "END_RESP for no open response");
  response_open_ = nullptr;
  if (trans.has_mm()) trans.release();
  wake_.notify(sc_core::SC_ZERO_TIME);
}

void DramModel::complete_at(uint64_t cycle, tlm::tlm_generic_payload& trans) {
  completions_.push_back(Completion{cycle, seq_++, &trans});
  std::push_heap(completions_.begin(), completions_.end(), Later());
}

void DramModel::count(unsigned channel, tlm::tlm_command command, unsigned bytes,
                      const DramService& s) {
  DramChannelStats& c = stats_.channels[channel];
  if (command == tlm::TLM_READ_COMMAND) {
    ++stats_.reads;
    ++c.reads;
  } else {
    ++stats_.writes;
    ++c.writes;
  }
  switch (s.outcome) {
    case RowOutcome::Hit:
      ++stats_.row_hits;
      ++c.row_hits;
      break;
    case RowOutcome::Miss:
      ++stats_.row_misses;
      ++c.row_misses;
      break;
    case RowOutcome::Conflict:
      ++stats_.row_conflicts;
      ++c.row_conflicts;
      break;
  }
  stats_.bytes += bytes;
  stats_.busy_cycles += s.data_cycles;
  c.busy_cycles += s.data_cycles;
}

void DramModel::use_wakeups(WakeupScheduler& wakeups) {
  wakeups_ = &wakeups;
  wakeup_id_ = wakeups.add(*this);
}

void DramModel::run() {
  if (wakeups_) wakeups_->cancel(wakeup_id_);  // a delta wake replaces a timed one
  const sc_core::sc_time t = sim_now();
  const uint64_t now = cycle_at(t);
  // Commands issue on clock edges; a wake between edges (an END_RESP from
  // another clock domain) only sends the responses already due.
  const bool on_edge = now * period_.value() == t.value();
  for (unsigned c = 0; c < channels_.size() && on_edge; ++c) {
    // The cached start is exact or early (a b_transport may have busied a
    // bank since), never late: skip the channels with nothing due.
    if (next_start_[c] > now) continue;
    DramChannel& ch = channels_[c];
    while (ch.next_start(now) == now) {
      DramService s;
      DramRequest r = ch.start_next(now, &s);
      count(c, r.trans->get_command(), r.bytes, s);
      stats_.latency_cycles += s.done - r.arrival;
      complete_at(s.done, *r.trans);
      if (blocked_ && blocked_channel_ == c) {
        // The slot just freed goes to the request held at the socket.
        tlm::tlm_generic_payload& held = *blocked_;
        blocked_ = nullptr;
        accept(held, map_.map(held.get_address()));
        tlm::tlm_phase end = tlm::END_REQ;
        sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
        if (in->nb_transport_bw(held, end, zero) != tlm::TLM_ACCEPTED)
          SC_REPORT_ERROR(kReportId, "END_REQ: the initiator must return TLM_ACCEPTED");
      }
    }
    next_start_[c] = ch.next_start(now);
  }
  send_responses();
  schedule_wake();
}

void DramModel::send_responses() {
  const sc_core::sc_time now = sim_now();
  const uint64_t p = period_.value();
  while (!response_open_ && !completions_.empty() && completions_.front().done * p <= now.value() &&
         now >= response_free_at_) {
    std::pop_heap(completions_.begin(), completions_.end(), Later());
    tlm::tlm_generic_payload& trans = *completions_.back().trans;
    completions_.pop_back();
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    switch (in->nb_transport_bw(trans, phase, delay)) {
      case tlm::TLM_ACCEPTED:
        response_open_ = &trans;
        break;
      case tlm::TLM_UPDATED:
        if (phase != tlm::END_RESP) SC_REPORT_ERROR(kReportId, "BEGIN_RESP: expected END_RESP");
        [[fallthrough]];
      case tlm::TLM_COMPLETED:
        // The response channel frees at the annotated time.
        response_free_at_ = sim_now() + delay;
        if (trans.has_mm()) trans.release();
        break;
    }
  }
}

void DramModel::schedule_wake() {
  // In time resolution units: exact, and without sc_time's out-of-line calls.
  uint64_t next = DramChannel::kNever;
  for (uint64_t n : next_start_) next = std::min(next, n);
  const uint64_t p = period_.value();
  const uint64_t now = sim_now_value();
  uint64_t at = 0;
  bool any = next != DramChannel::kNever;
  if (any) at = std::max(next, (now + p - 1) / p) * p;
  if (!response_open_ && !completions_.empty()) {
    const uint64_t due =
        std::max<uint64_t>(completions_.front().done * p, response_free_at_.value());
    at = any ? std::min(at, due) : due;
    any = true;
  }
  if (!any) return;
  if (at <= now)
    wake_.notify(sc_core::SC_ZERO_TIME);
  else if (wakeups_)
    wakeups_->wake_at(wakeup_id_, at);
  else
    wake_.notify(sc_core::sc_time::from_value(at - now));
}

void DramModel::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  uint64_t arrival = cycle_at(sim_now() + delay);
  tlm::tlm_response_status status = dram_transfer(store_, map_.line(), trans, false);
  trans.set_response_status(status);
  if (status != tlm::TLM_OK_RESPONSE) {
    ++stats_.errors;
    return;
  }
  if (trans.get_command() == tlm::TLM_IGNORE_COMMAND) return;
  DramAddress where = map_.map(trans.get_address());
  DramService s =
      channels_[where.channel].service(where.bank, where.row, trans.get_data_length(), arrival);
  count(where.channel, trans.get_command(), trans.get_data_length(), s);
  stats_.latency_cycles += s.done - arrival;
  delay = time_of(s.done) - sim_now();
}

unsigned int DramModel::transport_dbg(tlm::tlm_generic_payload& trans) {
  if (trans.get_command() == tlm::TLM_IGNORE_COMMAND) return 0;
  if (dram_transfer(store_, map_.line(), trans, true) != tlm::TLM_OK_RESPONSE) return 0;
  return trans.get_data_length();
}

const std::vector<StatInfo>& DramStats::infos() {
  static const std::vector<StatInfo> infos = {
      {"reads", "requests", "reads"},
      {"writes", "requests", "writes"},
      {"row_hits", "accesses", "accesses to the open row"},
      {"row_misses", "accesses", "accesses to a closed bank (activate)"},
      {"row_conflicts", "accesses", "accesses to another row (precharge + activate)"},
      {"bytes", "bytes", "bytes moved"},
      {"busy_cycles", "memory cycles", "memory cycles the channel buses transferred data"},
      {"latency_cycles", "memory cycles", "memory cycles from arrival to response, summed"},
      {"errors", "responses", "error responses"},
      {"queue_full", "requests", "requests held back by a full channel queue"},
      {"channel<N>.reads", "requests", "reads of channel N"},
      {"channel<N>.writes", "requests", "writes of channel N"},
      {"channel<N>.row_hits", "accesses", "open-row accesses of channel N"},
      {"channel<N>.row_misses", "accesses", "closed-bank accesses of channel N"},
      {"channel<N>.row_conflicts", "accesses", "other-row accesses of channel N"},
      {"channel<N>.busy_cycles", "memory cycles", "data-bus cycles of channel N"},
  };
  return infos;
}

}  // namespace warptlm
