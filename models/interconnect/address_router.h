// A system bus for platforms: any number of initiators on `in`, any number of
// targets on `out`, each target behind one address window. A transaction goes
// to the window holding its address, with the address made local to the
// window (address - base); one outside every window is answered with
// TLM_ADDRESS_ERROR_RESPONSE. Every interface passes through: b_transport,
// nb_transport both ways (the backward path found by the payload), debug
// transport, DMI (ranges translated back to bus addresses and clipped to the
// window) and DMI invalidations (to every initiator, translated). The bus
// itself adds `latency` to each b_transport and BEGIN_REQ.
#pragma once

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

namespace warptlm {

struct RouterWindow {
  std::string target;  // what answers there (a module or socket name), for messages and stats
  uint64_t base = 0, size = 0;
};

class AddressRouter : public sc_core::sc_module {
 public:
  explicit AddressRouter(sc_core::sc_module_name name,
                         sc_core::sc_time latency = sc_core::SC_ZERO_TIME);

  // Adds a window; the n-th window is served by the n-th binding of `out`.
  // Throws std::invalid_argument for an empty or wrapping window or one that
  // overlaps another (naming both). Call before the simulation starts.
  unsigned map(const std::string& target, uint64_t base, uint64_t size);
  const std::vector<RouterWindow>& windows() const { return windows_; }
  sc_core::sc_time latency() const { return latency_; }

  tlm_utils::multi_passthrough_target_socket<AddressRouter> in;
  tlm_utils::multi_passthrough_initiator_socket<AddressRouter> out;

  // Per window: transactions (b_transport and BEGIN_REQ) and bytes; and the
  // transactions that hit no window.
  nlohmann::json stats() const;
  // nb_transport transactions between BEGIN_REQ and their end (0 when idle).
  size_t open_transactions() const { return open_.size(); }

 private:
  struct Route {
    int initiator = 0, target = 0;
    uint64_t address = 0;  // the initiator's
  };
  struct WindowCount {
    uint64_t reads = 0, writes = 0, bytes = 0;
  };
  int decode(uint64_t address) const;  // the window of `address`, or -1
  // Makes the payload's address local and counts it; -1 and an address error
  // when no window holds it.
  int route(tlm::tlm_generic_payload& p, bool count);
  void end_of_elaboration() override;  // one binding of `out` per window

  void b_transport(int from, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(int from, tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_bw(int to, tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  unsigned transport_dbg(int from, tlm::tlm_generic_payload& p);
  bool get_direct_mem_ptr(int from, tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi);
  void invalidate_direct_mem_ptr(int target, sc_dt::uint64 start, sc_dt::uint64 end);

  sc_core::sc_time latency_;
  std::vector<RouterWindow> windows_;
  std::vector<WindowCount> counts_;
  uint64_t unmapped_ = 0, invalidations_ = 0;
  std::map<tlm::tlm_generic_payload*, Route> open_;  // nb transactions in flight
};

}  // namespace warptlm
