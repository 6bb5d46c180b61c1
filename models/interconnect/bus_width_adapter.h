// Binds TLM-2.0 sockets of different bus widths: a target socket of IN bits
// and an initiator socket of OUT bits, every call forwarded unchanged in both
// directions (b_transport, nb_transport, DMI and its invalidation, debug
// transport). The generic payload counts bytes, so nothing is converted; the
// width only names the socket type. The GPU's sockets have the default
// 32-bit width: put one of these between the GPU and a 64-bit bus
// (BusWidthAdapter<32, 64> on `memory`, BusWidthAdapter<64, 32> in front of
// `control`).
#pragma once

#include <systemc>
#include <tlm>

namespace warptlm {

template <unsigned IN, unsigned OUT>
class BusWidthAdapter : public sc_core::sc_module,
                        private tlm::tlm_fw_transport_if<>,
                        private tlm::tlm_bw_transport_if<> {
 public:
  explicit BusWidthAdapter(sc_core::sc_module_name name) : sc_module(name), in("in"), out("out") {
    in.bind(static_cast<tlm::tlm_fw_transport_if<>&>(*this));
    out.bind(static_cast<tlm::tlm_bw_transport_if<>&>(*this));
  }

  tlm::tlm_target_socket<IN> in;
  tlm::tlm_initiator_socket<OUT> out;

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) override {
    out->b_transport(p, delay);
  }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override {
    return out->nb_transport_fw(p, phase, delay);
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi) override {
    return out->get_direct_mem_ptr(p, dmi);
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& p) override { return out->transport_dbg(p); }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override {
    return in->nb_transport_bw(p, phase, delay);
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) override {
    in->invalidate_direct_mem_ptr(start, end);
  }
};

}  // namespace warptlm
