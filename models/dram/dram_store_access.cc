#include "dram/dram_store_access.h"

#include <cstring>

namespace warptlm {
namespace {

// The allocation holding [addr, addr + len) under the rounded-up-to-lines
// rule, and how many leading bytes of the range are real allocation bytes.
DeviceMemory::Allocation* locate(DeviceMemory& store, unsigned line, uint64_t addr, uint64_t len,
                                 uint64_t* real) {
  if (len > UINT64_MAX - addr) return nullptr;
  if (DeviceMemory::Allocation* a = store.find(addr, len)) {
    *real = len;
    return a;
  }
  // The allocation whose last line holds the range's first byte: it holds the
  // start of that line.
  uint64_t line_start = addr - addr % line;
  DeviceMemory::Allocation* a = store.find(line_start, 1);
  if (!a) return nullptr;
  uint64_t size = a->bytes.size();
  uint64_t padded = (size + line - 1) / line * line;
  if (addr < a->base || addr + len - a->base > padded) return nullptr;
  uint64_t off = addr - a->base;
  *real = off < size ? size - off : 0;
  return a;
}

bool enabled(const tlm::tlm_generic_payload& trans, uint64_t i, bool debug) {
  const unsigned char* be = trans.get_byte_enable_ptr();
  if (debug || !be) return true;
  return be[i % trans.get_byte_enable_length()] == TLM_BYTE_ENABLED;
}

}  // namespace

tlm::tlm_response_status dram_transfer(DeviceMemory& store, unsigned line,
                                       tlm::tlm_generic_payload& trans, bool debug) {
  uint64_t addr = trans.get_address();
  uint64_t len = trans.get_data_length();
  if (!debug && trans.get_streaming_width() < len) return tlm::TLM_BURST_ERROR_RESPONSE;
  uint64_t real = 0;
  DeviceMemory::Allocation* a = locate(store, line, addr, len, &real);
  if (!a) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  uint8_t* mem = a->bytes.data() + (addr - a->base);
  unsigned char* data = trans.get_data_ptr();
  bool plain = debug || !trans.get_byte_enable_ptr();
  switch (trans.get_command()) {
    case tlm::TLM_READ_COMMAND:
      if (plain) {
        std::memcpy(data, mem, real);
        std::memset(data + real, 0, len - real);
      } else {
        for (uint64_t i = 0; i < len; ++i)
          if (enabled(trans, i, debug)) data[i] = i < real ? mem[i] : 0;
      }
      break;
    case tlm::TLM_WRITE_COMMAND:
      if (plain) {
        std::memcpy(mem, data, real);
      } else {
        for (uint64_t i = 0; i < real; ++i)
          if (enabled(trans, i, debug)) mem[i] = data[i];
      }
      break;
    case tlm::TLM_IGNORE_COMMAND:
      break;
  }
  return tlm::TLM_OK_RESPONSE;
}

}  // namespace warptlm
