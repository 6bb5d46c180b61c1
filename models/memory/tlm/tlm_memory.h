// A plain loosely-timed TLM-2.0 memory, the kind a virtual prototype binds
// to a bus master: one contiguous RAM of `size` bytes at `base`, b_transport
// with a fixed latency per transaction, DMI to the whole RAM (when enabled),
// debug transport (when enabled). An access outside the RAM is an address
// error; inside it nothing is checked, as with real RAM (buffer overruns are
// not faults here, unlike in the GPU's own DeviceMemory). A
// simple_target_socket: AT initiators (nb_transport) are adapted by the
// socket. What run_timing binds when asked for a platform memory, and what
// the benchmarks and platforms use as "memory written by someone else".
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

namespace warptlm {

struct TlmMemoryParams {
  uint64_t base = 0;
  uint64_t size = 0;                                                 // bytes; 1 .. 16 GiB
  sc_core::sc_time latency = sc_core::sc_time(100, sc_core::SC_NS);  // per b_transport
  bool dmi = true;                                                   // grant DMI to the whole RAM
  bool debug = true;                                                 // implement transport_dbg
};

struct TlmMemoryStats {
  uint64_t reads = 0, writes = 0;  // b_transport
  uint64_t errors = 0;             // b_transport answered with an error
  uint64_t dmi_grants = 0, dmi_refusals = 0;
  uint64_t debug_accesses = 0;
};

class TlmMemory : public sc_core::sc_module {
 public:
  // Throws std::invalid_argument naming the parameter when size is 0, above
  // 16 GiB, or base + size wraps.
  TlmMemory(sc_core::sc_module_name name, const TlmMemoryParams& params);

  tlm_utils::simple_target_socket<TlmMemory> socket;

  // The host's side (a loader, a test, run_timing): a bump allocator over the
  // RAM (256-byte aligned; std::invalid_argument naming `what` when it is
  // full) and direct copies (false outside the RAM).
  uint64_t allocate(uint64_t bytes, const std::string& what);
  bool read(uint64_t address, void* dst, uint64_t bytes) const;
  bool write(uint64_t address, const void* src, uint64_t bytes);

  // Withdraws every DMI pointer granted so far (invalidate_direct_mem_ptr over
  // the RAM), as a memory does when its mapping changes.
  void invalidate_dmi();
  const TlmMemoryStats& stats() const { return stats_; }
  const TlmMemoryParams& params() const { return params_; }

 private:
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& payload, tlm::tlm_dmi& dmi);
  unsigned transport_dbg(tlm::tlm_generic_payload& payload);
  bool inside(uint64_t address, uint64_t bytes) const {
    return address >= params_.base && address - params_.base <= bytes_.size() &&
           bytes <= bytes_.size() - (address - params_.base);
  }

  TlmMemoryParams params_;
  // Zeroed RAM from calloc: the pages of a large memory are mapped on first
  // touch, so a 256 MiB system memory costs nothing until used.
  struct Ram {
    explicit Ram(uint64_t n);
    ~Ram();
    Ram(const Ram&) = delete;
    Ram& operator=(const Ram&) = delete;
    unsigned char* data() const { return bytes; }
    uint64_t size() const { return count; }
    unsigned char* bytes;
    uint64_t count;
  };
  Ram bytes_;
  uint64_t next_ = 0;  // allocate()'s next offset
  TlmMemoryStats stats_;
};

}  // namespace warptlm
