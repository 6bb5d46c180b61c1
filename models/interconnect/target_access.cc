#include "interconnect/target_access.h"

#include <algorithm>
#include <cstring>

namespace warptlm {

TargetAccess::TargetAccess(tlm::tlm_initiator_socket<>& socket, bool use_dmi)
    : socket_(&socket), use_dmi_(use_dmi) {}

bool TargetAccess::read(uint64_t address, void* dst, uint64_t bytes, sc_core::sc_time* delay) {
  return access(false, address, static_cast<unsigned char*>(dst), bytes, delay);
}

bool TargetAccess::write(uint64_t address, const void* src, uint64_t bytes,
                         sc_core::sc_time* delay) {
  // The payload's data pointer is not const; a write only reads it.
  return access(true, address, static_cast<unsigned char*>(const_cast<void*>(src)), bytes, delay);
}

bool TargetAccess::peek(uint64_t address, void* dst, uint64_t bytes) {
  counts_ = &uncounted_;
  const bool ok = access(false, address, static_cast<unsigned char*>(dst), bytes, nullptr);
  counts_ = &stats_;
  return ok;
}

bool TargetAccess::access(bool write, uint64_t address, unsigned char* data, uint64_t bytes,
                          sc_core::sc_time* delay) {
  if (bytes == 0) return true;
  if (address + (bytes - 1) < address) return false;  // wraps around the address space
  while (bytes) {
    uint64_t moved = use_dmi_ ? through_dmi(write, address, data, bytes) : 0;
    if (moved == 0) {
      // Up to the next granted region, or all of it: the rest goes by transport.
      uint64_t chunk = bytes;
      for (const Region& r : regions_)
        if (r.start > address && r.start - address < chunk) chunk = r.start - address;
      if (!transport(write, address, data, chunk, delay)) return false;
      moved = chunk;
    }
    address += moved;
    data += moved;
    bytes -= moved;
  }
  return true;
}

bool TargetAccess::refused(uint64_t address) const {
  for (const auto& r : refusals_)
    if (address >= r.first && address <= r.second) return true;
  return false;
}

const TargetAccess::Region* TargetAccess::region_for(bool write, uint64_t address) {
  for (size_t i = 0; i < regions_.size(); ++i) {
    const Region& r = regions_[i];
    if (address < r.start || address > r.end || !(write ? r.write : r.read)) continue;
    if (i) std::rotate(regions_.begin(), regions_.begin() + i, regions_.begin() + i + 1);
    return &regions_.front();
  }
  if (refused(address)) return nullptr;
  // A payload per call: a blocking access may be under way in another
  // process (the target waits inside b_transport) when this one runs.
  tlm::tlm_generic_payload p;
  p.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  p.set_address(address);
  p.set_data_ptr(nullptr);
  p.set_data_length(0);
  p.set_byte_enable_ptr(nullptr);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  tlm::tlm_dmi dmi;
  const bool granted = (*socket_)->get_direct_mem_ptr(p, dmi);
  const bool usable = granted && dmi.get_dmi_ptr() != nullptr &&
                      address >= dmi.get_start_address() && address <= dmi.get_end_address() &&
                      (write ? dmi.is_write_allowed() : dmi.is_read_allowed());
  if (!usable) {
    ++counts_->dmi_refusals;
    // The range the target says has no DMI (all of memory, if it says nothing
    // useful): not asked for again until an invalidation.
    uint64_t lo = dmi.get_start_address(), hi = dmi.get_end_address();
    if (granted || address < lo || address > hi) lo = hi = address;
    refusals_.emplace_back(lo, hi);
    return nullptr;
  }
  ++counts_->dmi_grants;
  Region r;
  r.start = dmi.get_start_address();
  r.end = dmi.get_end_address();
  r.pointer = dmi.get_dmi_ptr();
  r.read = dmi.is_read_allowed();
  r.write = dmi.is_write_allowed();
  regions_.insert(regions_.begin(), r);
  return &regions_.front();
}

bool TargetAccess::direct(uint64_t address, uint64_t bytes, uint64_t* base, uint64_t* span,
                          unsigned char** data) {
  if (!use_dmi_ || bytes == 0) return false;
  const Region* r = region_for(false, address);
  if (!r || !r->write || bytes - 1 > r->end - address) return false;
  *base = r->start;
  *span = r->end - r->start + 1;  // 0 for a region of the whole 64-bit space: refused below
  *data = r->pointer;
  return *span != 0;
}

uint64_t TargetAccess::through_dmi(bool write, uint64_t address, unsigned char* data,
                                   uint64_t bytes) {
  const Region* r = region_for(write, address);
  if (!r) return 0;
  const uint64_t n = std::min<uint64_t>(bytes, r->end - address + 1);
  unsigned char* at = r->pointer + (address - r->start);
  if (write) {
    std::memcpy(at, data, n);
    ++counts_->dmi_writes;
  } else {
    std::memcpy(data, at, n);
    ++counts_->dmi_reads;
  }
  return n;
}

namespace {
void set_plain(tlm::tlm_generic_payload& p, bool write, uint64_t address, unsigned char* data,
               unsigned n) {
  p.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  p.set_address(address);
  p.set_data_ptr(data);
  p.set_data_length(n);
  p.set_streaming_width(n);
  p.set_byte_enable_ptr(nullptr);
  p.set_byte_enable_length(0);
  p.set_dmi_allowed(false);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}
}  // namespace

bool TargetAccess::transport(bool write, uint64_t address, unsigned char* data, uint64_t bytes,
                             sc_core::sc_time* delay) {
  if (bytes > UINT32_MAX) return false;  // a payload's length is 32 bits
  const unsigned n = static_cast<unsigned>(bytes);
  if (!delay) {
    set_plain(debug_payload_, write, address, data, n);
    ++(write ? counts_->debug_writes : counts_->debug_reads);
    return (*socket_)->transport_dbg(debug_payload_) == n;
  }
  // A payload per call: a blocking access may be under way in another
  // process (the target waits inside b_transport) when this one runs.
  tlm::tlm_generic_payload p;
  set_plain(p, write, address, data, n);
  ++(write ? counts_->blocking_writes : counts_->blocking_reads);
  (*socket_)->b_transport(p, *delay);
  // The DMI hint: a refusal remembered for this address no longer holds.
  if (use_dmi_ && p.is_dmi_allowed())
    refusals_.erase(
        std::remove_if(refusals_.begin(), refusals_.end(),
                       [&](const auto& r) { return address >= r.first && address <= r.second; }),
        refusals_.end());
  return p.is_response_ok();
}

void TargetAccess::invalidate(uint64_t start, uint64_t end) {
  ++stats_.dmi_invalidations;
  regions_.erase(std::remove_if(regions_.begin(), regions_.end(),
                                [&](const Region& r) { return r.start <= end && start <= r.end; }),
                 regions_.end());
  refusals_.erase(
      std::remove_if(refusals_.begin(), refusals_.end(),
                     [&](const auto& r) { return r.first <= end && start <= r.second; }),
      refusals_.end());
}

}  // namespace warptlm
