// L2Slice: construction, the upstream (interconnect) side of the protocol and
// the process that moves requests and responses along.
#include "l2/l2_slice.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "transaction/sim_now.h"

namespace warptlm {
namespace {

constexpr const char* kReportId = "warptlm/l2";

const L2Params& checked(const L2Params& p) {
  if (p.cycle == sc_core::SC_ZERO_TIME)
    throw std::invalid_argument("l2 cycle (the core clock period) must be positive");
  if (p.cache.line == 0 || (p.cache.line & (p.cache.line - 1)) != 0)
    throw std::invalid_argument("l2 line must be a power of two, got " +
                                std::to_string(p.cache.line));
  if (p.cache.write_policy != "write_back" && p.cache.write_policy != "write_through")
    throw std::invalid_argument(
        "l2 write_policy must be \"write_back\" or \"write_through\", got \"" +
        p.cache.write_policy + "\"");
  return p;
}

struct Later {  // min-heap order on (ready, seq)
  template <typename T>
  bool operator()(const T& a, const T& b) const {
    return a.ready != b.ready ? a.ready > b.ready : a.seq > b.seq;
  }
};

}  // namespace

L2Slice::L2Slice(sc_core::sc_module_name name, const L2Params& params)
    : sc_module(name),
      in("in"),
      out("out"),
      params_(checked(params)),
      latency_(params.cycle * static_cast<double>(params.cache.latency)),
      write_through_(params.cache.write_policy == "write_through"),
      pool_(params.cache.line),
      out_queue_(2 * std::max(1u, params.cache.mshrs) + 4),
      out_limit_(std::max(1u, params.cache.mshrs)),
      in_peq_(this, &L2Slice::in_peq_callback),
      out_peq_(this, &L2Slice::out_peq_callback) {
  if (params.cache.size > 0) {
    tags_.emplace(params.cache.size, params.cache.assoc, params.cache.line);
    mshrs_.emplace(params.cache.mshrs, params.mshr_max_merged);
    waiters_.reserve(params.mshr_max_merged);
  }
  // Own requests in flight: fills (one per MSHR) plus their writebacks and forwards.
  slots_.reserve(2 * size_t{params.cache.mshrs} + 16);
  free_slots_.reserve(slots_.capacity());
  responses_.reserve(64);
  in.register_nb_transport_fw(this, &L2Slice::in_fw);
  out.register_nb_transport_bw(this, &L2Slice::out_bw);
  SC_HAS_PROCESS(L2Slice);
  SC_METHOD(run);
  sensitive << wake_;
  dont_initialize();
}

tlm::tlm_sync_enum L2Slice::in_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase,
                                  sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ && phase != tlm::END_RESP) {
    SC_REPORT_ERROR(kReportId, "nb_transport_fw: unexpected phase");
    return tlm::TLM_COMPLETED;
  }
  if (delay != sc_core::SC_ZERO_TIME) {
    in_peq_.notify(t, phase, delay);
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::END_RESP) {
    end_response(t);
    return tlm::TLM_COMPLETED;
  }
  if (!begin_request(t)) return tlm::TLM_ACCEPTED;
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void L2Slice::in_peq_callback(tlm::tlm_generic_payload& t, const tlm::tlm_phase& phase) {
  if (phase == tlm::END_RESP) {
    end_response(t);
    return;
  }
  if (!begin_request(t)) return;
  tlm::tlm_phase end = tlm::END_REQ;
  sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
  if (in->nb_transport_bw(t, end, zero) != tlm::TLM_ACCEPTED)
    SC_REPORT_ERROR(kReportId, "END_REQ: the initiator must return TLM_ACCEPTED");
}

bool L2Slice::begin_request(tlm::tlm_generic_payload& t) {
  if (pending_) SC_REPORT_ERROR(kReportId, "BEGIN_REQ before the previous request's END_REQ");
  if (t.has_mm()) t.acquire();  // held until its response is over
  if (try_lookup(t)) return true;
  pending_ = &t;
  wake_.notify(sc_core::SC_ZERO_TIME);
  return false;
}

bool L2Slice::try_lookup(tlm::tlm_generic_payload& t) {
  const sc_core::sc_time now = sim_now();
  if (now < next_lookup_) return false;
  if (!lookup(t)) {
    if (&t != pending_ || !pending_stalled_) ++stats_.stalls;
    pending_stalled_ = true;
    return false;
  }
  pending_stalled_ = false;
  next_lookup_ = now + params_.cycle;
  wake_.notify(sc_core::SC_ZERO_TIME);  // the lookup may have queued requests or responses
  return true;
}

void L2Slice::respond(tlm::tlm_generic_payload& t, const sc_core::sc_time& ready,
                      tlm::tlm_response_status status) {
  t.set_response_status(status);
  if (status != tlm::TLM_OK_RESPONSE) ++stats_.errors;
  responses_.push_back(Response{ready.value(), response_seq_++, &t});
  std::push_heap(responses_.begin(), responses_.end(), Later());
}

void L2Slice::end_response(tlm::tlm_generic_payload& t) {
  if (&t != response_open_) SC_REPORT_ERROR(kReportId, "END_RESP for no open response");
  response_open_ = nullptr;
  if (t.has_mm()) t.release();
  wake_.notify(sc_core::SC_ZERO_TIME);
}

void L2Slice::send_responses() {
  const sc_core::sc_time now = sim_now();
  while (!response_open_ && !responses_.empty() && responses_.front().ready <= now.value() &&
         now >= response_free_at_) {
    std::pop_heap(responses_.begin(), responses_.end(), Later());
    tlm::tlm_generic_payload& t = *responses_.back().trans;
    responses_.pop_back();
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    switch (in->nb_transport_bw(t, phase, delay)) {
      case tlm::TLM_ACCEPTED:
        response_open_ = &t;
        break;
      case tlm::TLM_UPDATED:
        if (phase != tlm::END_RESP) SC_REPORT_ERROR(kReportId, "BEGIN_RESP: expected END_RESP");
        [[fallthrough]];
      case tlm::TLM_COMPLETED:
        response_free_at_ = now + delay;  // the response channel frees at the annotated time
        if (t.has_mm()) t.release();
        break;
    }
  }
}

void L2Slice::use_wakeups(WakeupScheduler& wakeups) {
  wakeups_ = &wakeups;
  wakeup_id_ = wakeups.add(*this);
}

void L2Slice::run() {
  if (wakeups_) wakeups_->cancel(wakeup_id_);  // a delta wake replaces a timed one
  send_requests();
  if (pending_ && try_lookup(*pending_)) {
    tlm::tlm_generic_payload& t = *pending_;
    pending_ = nullptr;
    tlm::tlm_phase end = tlm::END_REQ;
    sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
    if (in->nb_transport_bw(t, end, zero) != tlm::TLM_ACCEPTED)
      SC_REPORT_ERROR(kReportId, "END_REQ: the initiator must return TLM_ACCEPTED");
    send_requests();
  }
  send_responses();
  schedule_wake();
}

void L2Slice::schedule_wake() {
  // In time resolution units: exact, and without sc_time's out-of-line calls.
  const uint64_t now = sim_now_value();
  uint64_t at = ~uint64_t(0);
  // A stalled request waits for a resource, whose release wakes us.
  if (pending_ && !pending_stalled_) at = std::min<uint64_t>(at, next_lookup_.value());
  if (!out_open_ && !out_queue_.empty()) at = std::min<uint64_t>(at, out_free_at_.value());
  if (!response_open_ && !responses_.empty())
    at = std::min<uint64_t>(
        at, std::max<uint64_t>(responses_.front().ready, response_free_at_.value()));
  if (at == ~uint64_t(0)) return;
  if (at <= now)
    wake_.notify(sc_core::SC_ZERO_TIME);
  else if (wakeups_)
    wakeups_->wake_at(wakeup_id_, at);
  else
    wake_.notify(sc_core::sc_time::from_value(at - now));
}

const std::vector<StatInfo>& L2Stats::infos() {
  static const std::vector<StatInfo> infos = {
      {"reads", "requests", "reads (loads and fetches), all slices"},
      {"writes", "requests", "writes (stores and L1 writebacks), all slices"},
      {"atomics", "requests", "atomics, all slices"},
      {"hits", "requests", "hits, all slices"},
      {"misses", "requests", "misses (merged ones included), all slices"},
      {"mshr_merges", "requests", "misses merged into an MSHR, all slices"},
      {"fills", "lines", "line fills read from memory, all slices"},
      {"writebacks", "lines", "dirty lines written back, all slices"},
      {"write_throughs", "requests", "writes forwarded (write-through), all slices"},
      {"passthrough", "requests", "requests passed through uncached, all slices"},
      {"stalls", "requests", "requests held back (MSHRs or memory queue full), all slices"},
      {"errors", "responses", "error responses, all slices"},
      {"writeback_errors", "lines", "writebacks answered with an error, all slices"},
  };
  return infos;
}

}  // namespace warptlm
