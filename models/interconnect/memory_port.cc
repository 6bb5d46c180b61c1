#include "interconnect/memory_port.h"

#include <cstring>
#include <stdexcept>

#include "transaction/route_extension.h"
#include "transaction/sim_now.h"

namespace warptlm {

using sc_core::sc_time;

nlohmann::json MemoryPortStats::to_json() const {
  return {{"reads", reads},
          {"writes", writes},
          {"responses", responses},
          {"error_responses", error_responses},
          {"writes_refreshed", writes_refreshed},
          {"refresh_failures", refresh_failures},
          {"writes_patched", writes_patched},
          {"request_stall_cycles", request_stall_cycles},
          {"response_stall_cycles", response_stall_cycles},
          {"debug_reads", functional.debug_reads},
          {"debug_writes", functional.debug_writes},
          {"dmi_reads", functional.dmi_reads},
          {"dmi_writes", functional.dmi_writes},
          {"blocking_reads", functional.blocking_reads},
          {"blocking_writes", functional.blocking_writes},
          {"dmi_grants", functional.dmi_grants},
          {"dmi_refusals", functional.dmi_refusals},
          {"dmi_invalidations", functional.dmi_invalidations}};
}

MemoryPort::MemoryPort(sc_core::sc_module_name name, unsigned inputs, const std::string& protocol,
                       sc_time cycle, bool dmi)
    : sc_module(name),
      in("in"),
      out("out"),
      inputs_(inputs),
      protocol_(protocol),
      functional_(out, dmi) {
  if (inputs == 0) throw std::invalid_argument("memory port inputs must be at least 1");
  if (protocol != "at" && protocol != "lt")
    throw std::invalid_argument("memory port protocol must be \"at\" or \"lt\", not \"" + protocol +
                                "\"");
  if (cycle == sc_core::SC_ZERO_TIME)
    throw std::invalid_argument("memory port cycle must be positive");
  in.register_nb_transport_fw(this, &MemoryPort::nb_transport_fw);
  in.register_b_transport(this, &MemoryPort::b_transport);
  in.register_transport_dbg(this, &MemoryPort::transport_dbg);
  in.register_get_direct_mem_ptr(this, &MemoryPort::get_direct_mem_ptr);
  out.bind(static_cast<tlm::tlm_bw_transport_if<>&>(*this));
  to_memory_ = std::make_unique<RequestSender>(
      "to_memory", cycle,
      protocol == "at" ? RequestSender::Mode::NonBlocking : RequestSender::Mode::Blocking,
      [this](tlm::tlm_generic_payload& p, const sc_time& d) { on_response(p, d); });
  to_memory_->set_before_send([this](tlm::tlm_generic_payload& p) { refresh(p); });
  for (unsigned i = 0; i < inputs; ++i)
    to_input_.push_back(std::make_unique<ResponseSender>("to_input_" + std::to_string(i), cycle));
}

void MemoryPort::start_of_simulation() {
  if (in.size() != inputs_) {
    std::string msg = std::to_string(inputs_) + " inputs declared, but " +
                      std::to_string(in.size()) + " initiators are bound to `in`";
    SC_REPORT_ERROR(name(), msg.c_str());
  }
  to_memory_->bind(out[0]);
  for (unsigned i = 0; i < inputs_; ++i) to_input_[i]->bind(in[i]);
}

tlm::tlm_sync_enum MemoryPort::nb_transport_fw(int input, tlm::tlm_generic_payload& p,
                                               tlm::tlm_phase& phase, sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) {
    set_route<MemoryPort>(p, static_cast<unsigned>(input));
    stats_.reads += p.is_read();
    stats_.writes += p.is_write();
    // Requests ready in the same cycle leave in input (slice) order.
    to_memory_->push(&p, sim_now() + delay, static_cast<unsigned>(input));
    phase = tlm::END_REQ;  // buffered here; the slices' own limits bound the traffic
    return tlm::TLM_UPDATED;
  }
  if (phase == tlm::END_RESP) return to_input_[input]->end_response(p, delay);
  SC_REPORT_ERROR(name(), "invalid phase on the forward path");
  return tlm::TLM_COMPLETED;
}

tlm::tlm_sync_enum MemoryPort::nb_transport_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                               sc_time& delay) {
  return to_memory_->nb_transport_bw(p, phase, delay);
}

void MemoryPort::on_response(tlm::tlm_generic_payload& p, const sc_time& delay) {
  forget(p);
  ++stats_.responses;
  stats_.error_responses += p.is_response_error();
  to_input_[route_of<MemoryPort>(p)]->push(&p, sim_now() + delay);
}

void MemoryPort::use_wakeups(WakeupScheduler& wakeups) {
  to_memory_->use_wakeups(wakeups);
  for (auto& s : to_input_) s->use_wakeups(wakeups);
}

// Memory already holds the newest bytes (execute at issue): make the write carry exactly them.
void MemoryPort::refresh(tlm::tlm_generic_payload& p) {
  if (!p.is_write()) return;
  const unsigned n = p.get_data_length();
  // DMI or debug transport: never b_transport, which would put a second
  // transaction on the socket for each write.
  if (functional_.peek(p.get_address(), p.get_data_ptr(), n))
    ++stats_.writes_refreshed;
  else
    ++stats_.refresh_failures;
  in_flight_writes_.push_back(&p);
}

void MemoryPort::forget(tlm::tlm_generic_payload& p) {
  if (!p.is_write()) return;
  for (auto& w : in_flight_writes_)
    if (w == &p) {
      w = in_flight_writes_.back();
      in_flight_writes_.pop_back();
      return;
    }
}

void MemoryPort::global_written(uint64_t lo, uint64_t hi) {
  // Writes in flight to one line come in crowds (a lock word's, under write-through): memory is
  // read once per range, the other writes of that range copy it.
  const tlm::tlm_generic_payload* read = nullptr;
  for (tlm::tlm_generic_payload* w : in_flight_writes_) {
    const uint64_t a = w->get_address();
    const uint64_t n = w->get_data_length();
    if (lo >= a + n || hi <= a) continue;
    // Memory holds the newest bytes of the whole range: take them all.
    if (read && read->get_address() == a && read->get_data_length() == n) {
      std::memcpy(w->get_data_ptr(), read->get_data_ptr(), n);
    } else {
      if (!functional_.peek(a, w->get_data_ptr(), n)) continue;
      read = w;
    }
    ++stats_.writes_patched;
  }
}

void MemoryPort::b_transport(int, tlm::tlm_generic_payload& p, sc_time& delay) {
  refresh(p);
  out->b_transport(p, delay);
  forget(p);
}

unsigned MemoryPort::transport_dbg(int, tlm::tlm_generic_payload& p) {
  return out->transport_dbg(p);
}

// No DMI: a direct pointer would bypass the timing of every access through it.
bool MemoryPort::get_direct_mem_ptr(int, tlm::tlm_generic_payload&, tlm::tlm_dmi&) { return false; }

void MemoryPort::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  functional_.invalidate(start, end);
}

const MemoryPortStats& MemoryPort::stats() const {
  stats_.request_stall_cycles = to_memory_->wait_cycles();
  stats_.response_stall_cycles = 0;
  for (const auto& s : to_input_) stats_.response_stall_cycles += s->wait_cycles();
  stats_.functional = functional_.stats();
  return stats_;
}

const std::vector<StatInfo>& MemoryPortStats::infos() {
  static const std::vector<StatInfo> infos = {
      {"reads", "requests", "reads sent to memory"},
      {"writes", "requests", "writes sent to memory"},
      {"responses", "responses", "responses from memory"},
      {"error_responses", "responses", "error responses from memory"},
      {"writes_refreshed", "requests",
       "writes whose data was refreshed from memory before leaving"},
      {"refresh_failures", "requests", "writes whose refresh read failed"},
      {"writes_patched", "requests",
       "writes in flight refreshed again because a newer store overlapped them"},
      {"request_stall_cycles", "cycles", "cycles requests waited for the memory socket"},
      {"response_stall_cycles", "cycles", "cycles responses waited to go back"},
      {"debug_reads", "requests", "functional reads by debug transport"},
      {"debug_writes", "requests", "functional writes by debug transport"},
      {"dmi_reads", "requests", "functional reads through a DMI pointer"},
      {"dmi_writes", "requests", "functional writes through a DMI pointer"},
      {"blocking_reads", "requests",
       "functional reads by b_transport (coding style lt without DMI)"},
      {"blocking_writes", "requests",
       "functional writes by b_transport (coding style lt without DMI)"},
      {"dmi_grants", "regions", "DMI regions the memory granted"},
      {"dmi_refusals", "requests", "DMI requests the memory refused"},
      {"dmi_invalidations", "calls", "invalidate_direct_mem_ptr calls from the memory"},
  };
  return infos;
}

}  // namespace warptlm
