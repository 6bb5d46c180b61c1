#include "memory/tlm/tlm_memory.h"

#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace warptlm {

namespace {

const TlmMemoryParams& checked(const TlmMemoryParams& p) {
  if (p.size == 0 || p.size > (uint64_t(16) << 30))
    throw std::invalid_argument("size: a TlmMemory holds 1 byte to 16 GiB, got " +
                                std::to_string(p.size));
  if (p.base + (p.size - 1) < p.base)
    throw std::invalid_argument("base: base + size wraps around the 64-bit address space");
  return p;
}

}  // namespace

TlmMemory::Ram::Ram(uint64_t n) : bytes(static_cast<unsigned char*>(std::calloc(n, 1))), count(n) {
  if (!bytes) throw std::bad_alloc();
}

TlmMemory::Ram::~Ram() { std::free(bytes); }

TlmMemory::TlmMemory(sc_core::sc_module_name name, const TlmMemoryParams& params)
    : sc_module(name), socket("socket"), params_(checked(params)), bytes_(params.size) {
  socket.register_b_transport(this, &TlmMemory::b_transport);
  socket.register_get_direct_mem_ptr(this, &TlmMemory::get_direct_mem_ptr);
  if (params.debug) socket.register_transport_dbg(this, &TlmMemory::transport_dbg);
}

uint64_t TlmMemory::allocate(uint64_t bytes, const std::string& what) {
  const uint64_t at = (next_ + 255) & ~uint64_t(255);
  if (at > bytes_.size() || bytes > bytes_.size() - at)
    throw std::invalid_argument(what + ": " + std::to_string(bytes) + " bytes do not fit in the " +
                                std::to_string(bytes_.size()) + "-byte memory '" + name() + "'");
  next_ = at + bytes;
  return params_.base + at;
}

bool TlmMemory::read(uint64_t address, void* dst, uint64_t bytes) const {
  if (!inside(address, bytes)) return false;
  std::memcpy(dst, bytes_.data() + (address - params_.base), bytes);
  return true;
}

bool TlmMemory::write(uint64_t address, const void* src, uint64_t bytes) {
  if (!inside(address, bytes)) return false;
  std::memcpy(bytes_.data() + (address - params_.base), src, bytes);
  return true;
}

void TlmMemory::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  delay += params_.latency;
  const uint64_t address = p.get_address();
  const unsigned n = p.get_data_length();
  const unsigned width = p.get_streaming_width();
  const unsigned char* enables = p.get_byte_enable_ptr();
  const unsigned enable_length = p.get_byte_enable_length();
  auto fail = [&](tlm::tlm_response_status status) {
    ++stats_.errors;
    p.set_response_status(status);
  };
  if (!p.is_read() && !p.is_write()) return p.set_response_status(tlm::TLM_OK_RESPONSE);
  if (width != 0 && width < n) return fail(tlm::TLM_BURST_ERROR_RESPONSE);
  if (enables && enable_length == 0) return fail(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
  if (!inside(address, n) || !p.get_data_ptr()) return fail(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  unsigned char* at = bytes_.data() + (address - params_.base);
  for (unsigned i = 0; i < n; ++i) {
    if (enables && enables[i % enable_length] != TLM_BYTE_ENABLED) continue;
    if (p.is_read())
      p.get_data_ptr()[i] = at[i];
    else
      at[i] = p.get_data_ptr()[i];
  }
  ++(p.is_read() ? stats_.reads : stats_.writes);
  p.set_dmi_allowed(params_.dmi);
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool TlmMemory::get_direct_mem_ptr(tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi) {
  if (!params_.dmi || !inside(p.get_address(), 1)) {
    ++stats_.dmi_refusals;
    dmi.set_start_address(p.get_address());  // no DMI here (nothing more to say)
    dmi.set_end_address(p.get_address());
    return false;
  }
  ++stats_.dmi_grants;
  dmi.set_dmi_ptr(bytes_.data());
  dmi.set_start_address(params_.base);
  dmi.set_end_address(params_.base + bytes_.size() - 1);
  dmi.allow_read_write();
  dmi.set_read_latency(params_.latency);
  dmi.set_write_latency(params_.latency);
  return true;
}

unsigned TlmMemory::transport_dbg(tlm::tlm_generic_payload& p) {
  ++stats_.debug_accesses;
  const unsigned n = p.get_data_length();
  if (!p.get_data_ptr() || !(p.is_read() || p.is_write())) return 0;
  if (!(p.is_read() ? read(p.get_address(), p.get_data_ptr(), n)
                    : write(p.get_address(), p.get_data_ptr(), n)))
    return 0;
  return n;
}

void TlmMemory::invalidate_dmi() {
  socket->invalidate_direct_mem_ptr(params_.base, params_.base + bytes_.size() - 1);
}

}  // namespace warptlm
