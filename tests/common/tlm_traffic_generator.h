// Test bench AT initiator: sends a list of requests (time, command, address, bytes) over the
// TLM-2.0 approximately-timed base protocol and records, per request, when its request was accepted
// and when its response arrived, with the response status and data. Handles every legal return of
// the callee and counts protocol violations it sees, so a test can assert the component under test
// obeys the base protocol. Payloads come from a PayloadPool (a test can check it for leaks).
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <systemc>
#include <tlm>
#include <vector>

#include "transaction/gpu_extension.h"
#include "transaction/payload_pool.h"

namespace warptlm::testing {

struct TrafficRequest {
  sc_core::sc_time at;  // earliest simulated time to send BEGIN_REQ (absolute)
  tlm::tlm_command command = tlm::TLM_READ_COMMAND;
  uint64_t address = 0;
  unsigned bytes = 4;
  std::vector<uint8_t> data;  // write data; shorter than `bytes`: the rest is zero
};

struct TrafficResult {
  bool done = false;           // the response arrived
  sc_core::sc_time sent;       // BEGIN_REQ
  sc_core::sc_time accepted;   // END_REQ (or the response, which implies it)
  sc_core::sc_time responded;  // BEGIN_RESP (or early completion)
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
  std::vector<uint8_t> data;  // the payload's bytes when the response arrived
};

// How the generator answers a BEGIN_RESP: return TLM_COMPLETED, return TLM_UPDATED with END_RESP,
// or return TLM_ACCEPTED and send END_RESP `end_resp_delay` later (back-pressure on responses).
enum class ResponseStyle { Complete, Update, Accept };

class TrafficGenerator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<TrafficGenerator> socket;

  SC_HAS_PROCESS(TrafficGenerator);
  TrafficGenerator(sc_core::sc_module_name name, std::vector<TrafficRequest> requests,
                   unsigned data_bytes = 64, uint32_t sm = 0)
      : sc_module(name),
        socket("socket"),
        requests_(std::move(requests)),
        results_(requests_.size()),
        pool_(data_bytes),
        sm_(sm) {
    socket.register_nb_transport_bw(this, &TrafficGenerator::nb_transport_bw);
    SC_THREAD(run);
    SC_METHOD(send_end_resp);
    sensitive << end_resp_event_;
    dont_initialize();
  }

  ResponseStyle style = ResponseStyle::Complete;
  sc_core::sc_time end_resp_delay;  // for ResponseStyle::Accept

  const std::vector<TrafficResult>& results() const { return results_; }
  const TrafficResult& result(size_t i) const { return results_.at(i); }
  size_t completed() const { return completed_; }
  unsigned protocol_errors() const { return protocol_errors_; }
  const PayloadPool& pool() const { return pool_; }

 private:
  void run() {
    for (size_t i = 0; i < requests_.size(); ++i) {
      const TrafficRequest& r = requests_[i];
      if (r.at > now()) wait(r.at - now());
      // The base protocol's request exclusion rule: one BEGIN_REQ at a time on a socket.
      while (req_busy_ || req_free_at_ > now()) {
        if (req_busy_)
          wait(end_req_event_);
        else
          wait(req_free_at_ - now());
      }
      if (r.bytes > pool_.data_bytes()) SC_REPORT_ERROR(name(), "request larger than the pool");
      tlm::tlm_generic_payload* t = pool_.allocate();
      t->set_command(r.command);
      t->set_address(r.address);
      t->set_data_length(r.bytes);
      t->set_streaming_width(r.bytes);
      std::memset(t->get_data_ptr(), 0, r.bytes);
      if (!r.data.empty())
        std::memcpy(t->get_data_ptr(), r.data.data(), std::min<size_t>(r.data.size(), r.bytes));
      GpuExtension* ext = t->get_extension<GpuExtension>();
      ext->kind = r.command == tlm::TLM_WRITE_COMMAND ? AccessKind::Store : AccessKind::Load;
      ext->sm = sm_;
      ext->tag = i;
      results_[i].sent = now();
      req_busy_ = t;
      tlm::tlm_phase phase = tlm::BEGIN_REQ;
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      tlm::tlm_sync_enum s = socket->nb_transport_fw(*t, phase, delay);
      if (s == tlm::TLM_UPDATED && phase == tlm::END_REQ) {
        end_request(*t, delay);
      } else if (s == tlm::TLM_UPDATED && phase == tlm::BEGIN_RESP) {
        end_request(*t, delay);
        response_on_return_path(*t, delay);
      } else if (s == tlm::TLM_COMPLETED) {
        end_request(*t, delay);
        record(*t, delay);
        t->release();
      } else if (s != tlm::TLM_ACCEPTED) {
        ++protocol_errors_;  // TLM_UPDATED with a phase that cannot follow BEGIN_REQ
      }
    }
  }

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) {
    if (phase == tlm::END_REQ) {
      if (&t != req_busy_) ++protocol_errors_;
      end_request(t, delay);
      return tlm::TLM_ACCEPTED;
    }
    if (phase == tlm::BEGIN_RESP) {
      if (&t == req_busy_) end_request(t, delay);  // BEGIN_RESP implies END_REQ
      if (resp_pending_) ++protocol_errors_;       // response exclusion rule broken by the callee
      record(t, delay);
      switch (style) {
        case ResponseStyle::Complete:
          t.release();
          return tlm::TLM_COMPLETED;
        case ResponseStyle::Update:
          t.release();
          phase = tlm::END_RESP;
          return tlm::TLM_UPDATED;
        case ResponseStyle::Accept:
          resp_pending_ = &t;
          end_resp_event_.notify(delay + end_resp_delay);
          return tlm::TLM_ACCEPTED;
      }
    }
    ++protocol_errors_;
    return tlm::TLM_ACCEPTED;
  }

  void end_request(tlm::tlm_generic_payload& t, const sc_core::sc_time& delay) {
    if (&t != req_busy_) return;
    results_[index_of(t)].accepted = now() + delay;
    req_busy_ = nullptr;
    req_free_at_ = now() + delay;
    end_req_event_.notify(delay);
  }

  // A response on the return path of BEGIN_REQ (TLM_UPDATED, BEGIN_RESP): END_RESP must follow
  // on the forward path, at once or (Accept) after end_resp_delay.
  void response_on_return_path(tlm::tlm_generic_payload& t, const sc_core::sc_time& delay) {
    if (resp_pending_) ++protocol_errors_;
    record(t, delay);
    resp_pending_ = &t;
    end_resp_event_.notify(
        delay + (style == ResponseStyle::Accept ? end_resp_delay : sc_core::SC_ZERO_TIME));
  }

  void send_end_resp() {
    tlm::tlm_generic_payload* t = resp_pending_;
    if (!t) return;
    resp_pending_ = nullptr;
    tlm::tlm_phase phase = tlm::END_RESP;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    if (socket->nb_transport_fw(*t, phase, delay) != tlm::TLM_COMPLETED) ++protocol_errors_;
    t->release();
  }

  void record(tlm::tlm_generic_payload& t, const sc_core::sc_time& delay) {
    TrafficResult& r = results_[index_of(t)];
    if (r.done) ++protocol_errors_;
    r.done = true;
    r.responded = now() + delay;
    r.status = t.get_response_status();
    r.data.assign(t.get_data_ptr(), t.get_data_ptr() + t.get_data_length());
    ++completed_;
  }

  size_t index_of(tlm::tlm_generic_payload& t) const {
    return static_cast<size_t>(t.get_extension<GpuExtension>()->tag);
  }
  static sc_core::sc_time now() { return sc_core::sc_time_stamp(); }

  std::vector<TrafficRequest> requests_;
  std::vector<TrafficResult> results_;
  PayloadPool pool_;
  uint32_t sm_;
  tlm::tlm_generic_payload* req_busy_ = nullptr;  // BEGIN_REQ sent, END_REQ not yet seen
  sc_core::sc_time req_free_at_;
  sc_core::sc_event end_req_event_;
  tlm::tlm_generic_payload* resp_pending_ = nullptr;  // BEGIN_RESP seen, END_RESP not yet sent
  sc_core::sc_event end_resp_event_;
  size_t completed_ = 0;
  unsigned protocol_errors_ = 0;
};

}  // namespace warptlm::testing
