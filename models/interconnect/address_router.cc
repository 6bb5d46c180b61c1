#include "interconnect/address_router.h"

#include <algorithm>
#include <stdexcept>

#include "frontend/hex_text.h"

namespace warptlm {
namespace {

std::string window_text(const RouterWindow& w) {
  return w.target + " [" + hex_string(w.base) + ", " + hex_string(w.base + w.size) + ")";
}

}  // namespace

AddressRouter::AddressRouter(sc_core::sc_module_name name, sc_core::sc_time latency)
    : sc_module(name), in("in"), out("out"), latency_(latency) {
  in.register_b_transport(this, &AddressRouter::b_transport);
  in.register_nb_transport_fw(this, &AddressRouter::nb_transport_fw);
  in.register_transport_dbg(this, &AddressRouter::transport_dbg);
  in.register_get_direct_mem_ptr(this, &AddressRouter::get_direct_mem_ptr);
  out.register_nb_transport_bw(this, &AddressRouter::nb_transport_bw);
  out.register_invalidate_direct_mem_ptr(this, &AddressRouter::invalidate_direct_mem_ptr);
}

unsigned AddressRouter::map(const std::string& target, uint64_t base, uint64_t size) {
  const RouterWindow w{target, base, size};
  if (size == 0 || base + size < base)
    throw std::invalid_argument(
        std::string(name()) + ": window " + window_text(w) +
        (size == 0 ? " is empty" : " wraps past the end of the address space"));
  for (const RouterWindow& o : windows_)
    if (base < o.base + o.size && o.base < base + size)
      throw std::invalid_argument(std::string(name()) + ": window " + window_text(w) +
                                  " overlaps " + window_text(o));
  windows_.push_back(w);
  counts_.emplace_back();
  return static_cast<unsigned>(windows_.size() - 1);
}

void AddressRouter::end_of_elaboration() {
  if (out.size() != windows_.size())
    SC_REPORT_ERROR(name(),
                    ("out is bound " + std::to_string(out.size()) + " times for " +
                     std::to_string(windows_.size()) + " windows: bind one target per map()")
                        .c_str());
}

int AddressRouter::decode(uint64_t address) const {
  for (size_t i = 0; i < windows_.size(); ++i)
    if (address >= windows_[i].base && address - windows_[i].base < windows_[i].size)
      return static_cast<int>(i);
  return -1;
}

int AddressRouter::route(tlm::tlm_generic_payload& p, bool count) {
  const int w = decode(p.get_address());
  if (w < 0) {
    if (count) ++unmapped_;
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return -1;
  }
  if (count) {
    WindowCount& c = counts_[w];
    ++(p.is_write() ? c.writes : c.reads);
    c.bytes += p.get_data_length();
  }
  p.set_address(p.get_address() - windows_[w].base);
  return w;
}

void AddressRouter::b_transport(int, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const uint64_t address = p.get_address();
  delay += latency_;
  const int w = route(p, true);
  if (w >= 0) out[w]->b_transport(p, delay);
  p.set_address(address);
}

tlm::tlm_sync_enum AddressRouter::nb_transport_fw(int from, tlm::tlm_generic_payload& p,
                                                  tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) {
    const uint64_t address = p.get_address();
    delay += latency_;
    const int w = route(p, true);
    if (w < 0) {  // answered here: the error response completes the transaction
      p.set_address(address);
      return tlm::TLM_COMPLETED;
    }
    open_[&p] = Route{from, w, address};
  }
  const auto it = open_.find(&p);
  if (it == open_.end()) {
    SC_REPORT_ERROR(name(),
                    "nb_transport_fw: a phase other than BEGIN_REQ for a transaction "
                    "the router does not know");
    return tlm::TLM_COMPLETED;
  }
  const Route r = it->second;
  const tlm::tlm_sync_enum s = out[r.target]->nb_transport_fw(p, phase, delay);
  if (s == tlm::TLM_COMPLETED || phase == tlm::BEGIN_RESP || phase == tlm::END_RESP) {
    p.set_address(r.address);  // the initiator sees its own address in the response
    if (s == tlm::TLM_COMPLETED || phase == tlm::END_RESP) open_.erase(&p);
  }
  return s;
}

tlm::tlm_sync_enum AddressRouter::nb_transport_bw(int, tlm::tlm_generic_payload& p,
                                                  tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  const auto it = open_.find(&p);
  if (it == open_.end()) {
    SC_REPORT_ERROR(name(), "nb_transport_bw: a transaction the router did not send");
    return tlm::TLM_COMPLETED;
  }
  const Route r = it->second;
  if (phase == tlm::BEGIN_RESP) p.set_address(r.address);
  const tlm::tlm_sync_enum s = in[r.initiator]->nb_transport_bw(p, phase, delay);
  if (s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && phase == tlm::END_RESP)) open_.erase(&p);
  return s;
}

unsigned AddressRouter::transport_dbg(int, tlm::tlm_generic_payload& p) {
  const uint64_t address = p.get_address();
  const int w = route(p, false);
  const uint64_t room = w >= 0 ? windows_[w].size - p.get_address() : 0;
  unsigned n = 0;
  if (w >= 0 && p.get_data_length() <= room) n = out[w]->transport_dbg(p);
  p.set_address(address);
  return n;
}

bool AddressRouter::get_direct_mem_ptr(int, tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi) {
  const uint64_t address = p.get_address();
  const int w = route(p, false);
  if (w < 0) {
    // No window: the refusal covers the gap around the address.
    uint64_t lo = 0, hi = ~uint64_t(0);
    for (const RouterWindow& o : windows_) {
      if (o.base + o.size <= address) lo = std::max(lo, o.base + o.size);
      if (o.base > address) hi = std::min(hi, o.base - 1);
    }
    dmi.set_start_address(lo);
    dmi.set_end_address(hi);
    p.set_address(address);
    return false;
  }
  const bool granted = out[w]->get_direct_mem_ptr(p, dmi);
  p.set_address(address);
  const RouterWindow& win = windows_[w];
  const uint64_t start = dmi.get_start_address(), end = dmi.get_end_address();
  // Local addresses start at the window's base; what lies past the window is not on the bus.
  dmi.set_start_address(win.base + start);
  dmi.set_end_address(win.base + std::min<uint64_t>(end, win.size - 1));
  return granted;
}

void AddressRouter::invalidate_direct_mem_ptr(int target, sc_dt::uint64 start, sc_dt::uint64 end) {
  ++invalidations_;
  const RouterWindow& w = windows_.at(target);
  if (start >= w.size) return;  // outside what the bus shows of the target
  const uint64_t lo = w.base + start, hi = w.base + std::min<uint64_t>(end, w.size - 1);
  for (unsigned i = 0; i < in.size(); ++i) in[i]->invalidate_direct_mem_ptr(lo, hi);
}

nlohmann::json AddressRouter::stats() const {
  nlohmann::json s = nlohmann::json::object();
  for (size_t i = 0; i < windows_.size(); ++i)
    s["windows"][windows_[i].target] = {{"base", windows_[i].base},
                                        {"size", windows_[i].size},
                                        {"reads", counts_[i].reads},
                                        {"writes", counts_[i].writes},
                                        {"bytes", counts_[i].bytes}};
  s["unmapped"] = unmapped_;
  s["dmi_invalidations"] = invalidations_;
  return s;
}

}  // namespace warptlm
