#include "interconnect/interconnect.h"

#include <stdexcept>
#include <string>

#include "transaction/route_extension.h"
#include "transaction/sim_now.h"

namespace warptlm {

using sc_core::sc_time;

void InterconnectParams::validate() const {
  if (inputs == 0) throw std::invalid_argument("interconnect inputs must be at least 1");
  if (outputs == 0) throw std::invalid_argument("interconnect outputs must be at least 1");
  if (line == 0) throw std::invalid_argument("interconnect line must be positive");
  if (cycle == sc_core::SC_ZERO_TIME)
    throw std::invalid_argument("interconnect cycle must be positive");
}

nlohmann::json InterconnectStats::to_json() const {
  return {{"requests", requests},
          {"reads", reads},
          {"writes", writes},
          {"responses", responses},
          {"error_responses", error_responses},
          {"request_stall_cycles", request_stall_cycles},
          {"response_stall_cycles", response_stall_cycles},
          {"output_requests", output_requests},
          {"input_requests", input_requests}};
}

Interconnect::Interconnect(sc_core::sc_module_name name, const InterconnectParams& params)
    : sc_module(name), in("in"), out("out"), params_(params) {
  params_.validate();
  hop_ = params_.cycle * params_.latency;
  in.register_nb_transport_fw(this, &Interconnect::nb_transport_fw);
  in.register_b_transport(this, &Interconnect::b_transport);
  in.register_transport_dbg(this, &Interconnect::transport_dbg);
  in.register_get_direct_mem_ptr(this, &Interconnect::get_direct_mem_ptr);
  out.register_nb_transport_bw(this, &Interconnect::nb_transport_bw);
  out.register_invalidate_direct_mem_ptr(this, &Interconnect::invalidate_direct_mem_ptr);
  for (unsigned o = 0; o < params_.outputs; ++o)
    to_output_.push_back(std::make_unique<RequestSender>(
        "to_output_" + std::to_string(o), params_.cycle, RequestSender::Mode::NonBlocking,
        [this, o](tlm::tlm_generic_payload& p, const sc_time& d) { on_response(p, d, o); }));
  for (unsigned i = 0; i < params_.inputs; ++i)
    to_input_.push_back(
        std::make_unique<ResponseSender>("to_input_" + std::to_string(i), params_.cycle));
  stats_.output_requests.assign(params_.outputs, 0);
  stats_.input_requests.assign(params_.inputs, 0);
}

void Interconnect::start_of_simulation() {
  if (in.size() != params_.inputs || out.size() != params_.outputs) {
    std::string msg = "params say " + std::to_string(params_.inputs) + " inputs and " +
                      std::to_string(params_.outputs) + " outputs, but " +
                      std::to_string(in.size()) + " initiators are bound to `in` and " +
                      std::to_string(out.size()) + " targets to `out`";
    SC_REPORT_ERROR(name(), msg.c_str());
  }
  for (unsigned o = 0; o < params_.outputs; ++o) to_output_[o]->bind(out[o]);
  for (unsigned i = 0; i < params_.inputs; ++i) to_input_[i]->bind(in[i]);
}

tlm::tlm_sync_enum Interconnect::nb_transport_fw(int input, tlm::tlm_generic_payload& p,
                                                 tlm::tlm_phase& phase, sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) {
    const unsigned o = route(p);
    set_route<Interconnect>(p, static_cast<unsigned>(input));
    ++stats_.requests;
    stats_.reads += p.is_read();
    stats_.writes += p.is_write();
    ++stats_.output_requests[o];
    ++stats_.input_requests[input];
    // Same-cycle requests for one output leave in input order (PayloadQueue's source).
    to_output_[o]->push(&p, sim_now() + delay + hop_, static_cast<unsigned>(input));
    phase = tlm::END_REQ;  // inputs buffer without bound; the SMs' MSHRs bound the traffic
    return tlm::TLM_UPDATED;
  }
  if (phase == tlm::END_RESP) return to_input_[input]->end_response(p, delay);
  SC_REPORT_ERROR(name(), "invalid phase on the forward path");
  return tlm::TLM_COMPLETED;
}

tlm::tlm_sync_enum Interconnect::nb_transport_bw(int output, tlm::tlm_generic_payload& p,
                                                 tlm::tlm_phase& phase, sc_time& delay) {
  return to_output_[output]->nb_transport_bw(p, phase, delay);
}

void Interconnect::on_response(tlm::tlm_generic_payload& p, const sc_time& delay, unsigned output) {
  ++stats_.responses;
  stats_.error_responses += p.is_response_error();
  // Same-cycle responses for one input leave in output order.
  to_input_[route_of<Interconnect>(p)]->push(&p, sim_now() + delay + hop_, output);
}

void Interconnect::use_wakeups(WakeupScheduler& wakeups) {
  for (auto& s : to_output_) s->use_wakeups(wakeups);
  for (auto& s : to_input_) s->use_wakeups(wakeups);
}

// The loosely-timed and debug paths route the same way; b_transport adds the latency both ways but
// models no contention.
void Interconnect::b_transport(int, tlm::tlm_generic_payload& p, sc_time& delay) {
  delay += hop_;
  out[route(p)]->b_transport(p, delay);
  delay += hop_;
}

unsigned Interconnect::transport_dbg(int, tlm::tlm_generic_payload& p) {
  return out[route(p)]->transport_dbg(p);
}

// No DMI: a direct pointer would bypass the timing of every access through it.
bool Interconnect::get_direct_mem_ptr(int, tlm::tlm_generic_payload&, tlm::tlm_dmi&) {
  return false;
}

void Interconnect::invalidate_direct_mem_ptr(int, sc_dt::uint64, sc_dt::uint64) {}

const InterconnectStats& Interconnect::stats() const {
  stats_.request_stall_cycles = 0;
  for (const auto& s : to_output_) stats_.request_stall_cycles += s->wait_cycles();
  stats_.response_stall_cycles = 0;
  for (const auto& s : to_input_) stats_.response_stall_cycles += s->wait_cycles();
  return stats_;
}

const std::vector<StatInfo>& InterconnectStats::infos() {
  static const std::vector<StatInfo> infos = {
      {"requests", "requests", "requests routed to L2 slices"},
      {"reads", "requests", "read requests"},
      {"writes", "requests", "write requests"},
      {"responses", "responses", "responses routed back"},
      {"error_responses", "responses", "error responses passed back"},
      {"request_stall_cycles", "cycles", "cycles requests waited for an output"},
      {"response_stall_cycles", "cycles", "cycles responses waited for an input"},
      {"output_requests", "requests (list)", "requests per output (L2 slice), one list entry each"},
      {"input_requests", "requests (list)", "requests per input (SM), one list entry each"},
  };
  return infos;
}

}  // namespace warptlm
