// The GPU's functional access to the memory bound to its socket: the bytes an
// instruction reads or writes at issue (coding style at), or when the loosely-timed
// runner executes it (coding style lt), and the registers' LOAD and parameter reads.
// Direct memory interface first: a region the target granted is read and
// written with memcpy, and regions are asked for once and remembered (as are
// the ranges a target refused) until the target invalidates them. Without
// DMI, a non-blocking access uses debug transport (zero time, callable from a
// method) and a blocking one b_transport (from a thread, with the target's
// annotated delay), so a target that offers neither DMI nor debug transport
// still serves a loosely-timed GPU.
#pragma once

#include <cstdint>
#include <systemc>
#include <tlm>
#include <vector>

namespace warptlm {

struct TargetAccessStats {
  uint64_t dmi_grants = 0;         // regions a target granted
  uint64_t dmi_refusals = 0;       // get_direct_mem_ptr calls answered false
  uint64_t dmi_invalidations = 0;  // invalidate_direct_mem_ptr calls received
  uint64_t dmi_reads = 0, dmi_writes = 0;
  uint64_t debug_reads = 0, debug_writes = 0;
  uint64_t blocking_reads = 0, blocking_writes = 0;  // b_transport
};

class TargetAccess {
 public:
  // `socket` must be bound before the first access; `use_dmi` false never
  // asks for DMI.
  TargetAccess(tlm::tlm_initiator_socket<>& socket, bool use_dmi);

  // `bytes` at `address`. `delay` null: DMI or debug transport, no time.
  // `delay` set: DMI or b_transport with *delay as the annotated time
  // (updated as the target returns it); call it from a thread. (The latency
  // a DMI grant states is not added: DMI accesses take no modelled time.) False when the target
  // refused any part: a DMI-less range its debug transport moved fewer bytes for, or an error
  // response.
  bool read(uint64_t address, void* dst, uint64_t bytes, sc_core::sc_time* delay = nullptr);
  bool write(uint64_t address, const void* src, uint64_t bytes, sc_core::sc_time* delay = nullptr);

  // A read for the memory port itself (refreshing a timing write's data):
  // DMI or debug transport like read(), but not counted in stats().
  bool peek(uint64_t address, void* dst, uint64_t bytes);

  // A granted region that can be read and written and holds [address,
  // address + bytes): its first address, length and host pointer through
  // *base, *span and *data; false when there is none (asking the target
  // once). Valid until the next invalidate() or blocking access.
  bool direct(uint64_t address, uint64_t bytes, uint64_t* base, uint64_t* span,
              unsigned char** data);

  // The target's invalidate_direct_mem_ptr: forget every granted region and
  // every remembered refusal that overlaps [start, end].
  void invalidate(uint64_t start, uint64_t end);

  const TargetAccessStats& stats() const { return stats_; }

 private:
  struct Region {
    uint64_t start = 0, end = 0;  // inclusive, as tlm_dmi
    unsigned char* pointer = nullptr;
    bool read = false, write = false;
  };
  // Moves up to `bytes` through a granted region covering `address`; returns
  // the bytes moved (0: none covers it and none could be obtained).
  uint64_t through_dmi(bool write, uint64_t address, unsigned char* data, uint64_t bytes);
  const Region* region_for(bool write, uint64_t address);
  bool refused(uint64_t address) const;
  bool transport(bool write, uint64_t address, unsigned char* data, uint64_t bytes,
                 sc_core::sc_time* delay);
  bool access(bool write, uint64_t address, unsigned char* data, uint64_t bytes,
              sc_core::sc_time* delay);

  tlm::tlm_initiator_socket<>* socket_;
  bool use_dmi_;
  std::vector<Region> regions_;                          // most recently used first
  std::vector<std::pair<uint64_t, uint64_t>> refusals_;  // inclusive ranges without DMI
  TargetAccessStats stats_;
  TargetAccessStats uncounted_;  // where peek()'s counts go
  TargetAccessStats* counts_ = &stats_;
  // Debug transport returns before anything else runs, so one payload serves every call (a
  // payload's construction allocates its extension array).
  tlm::tlm_generic_payload debug_payload_;
};

}  // namespace warptlm
