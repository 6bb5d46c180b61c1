// The memory bound to the GPU's memory socket as the functional view of
// global memory (GlobalMemory), reached through the memory port: DMI when the
// target grants it, else debug transport (coding style at: zero time, at issue) or
// b_transport (coding style lt: from the loosely-timed runner's thread, with the
// target's latency counted for the runner's local time).
#pragma once

#include <cstdint>
#include <string>
#include <systemc>

#include "interconnect/memory_port.h"
#include "memory/global_memory.h"

namespace warptlm {

class BoundMemory : public GlobalMemory {
 public:
  // `blocking`: accesses without DMI use b_transport (call them from a thread).
  BoundMemory(MemoryPort& port, bool blocking) : port_(&port), blocking_(blocking) {}

  bool read(uint64_t addr, void* dst, uint64_t size) const override {
    if (!blocking_) return port_->read(addr, dst, size);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    const bool ok = port_->read(addr, dst, size, &d);
    latency_ += d;
    return ok;
  }
  bool write(uint64_t addr, const void* src, uint64_t size) override {
    if (!blocking_) return port_->write(addr, src, size);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    const bool ok = port_->write(addr, src, size, &d);
    latency_ += d;
    return ok;
  }
  // A DMI region the target granted (read and write), so that a warp's lanes
  // reach it with one lookup.
  Block block(uint64_t addr, uint64_t size) override {
    Block b;
    unsigned char* data = nullptr;
    if (port_->direct(addr, size, &b.base, &b.size, &data)) b.data = data;
    return b;
  }
  std::string describe(uint64_t) const override {
    if (blocking_) return "the memory bound to the GPU's memory socket refused the access";
    // What an approximately-timed GPU needs of the memory, said where it fails.
    return "the memory bound to the GPU's memory socket refused the access: coding style at "
           "reads and writes at issue through DMI or debug transport, and a memory that serves "
           "neither there needs coding_style=lt (b_transport)";
  }

  // The latency the target annotated (b_transport's delay) since the last
  // call; zero in non-blocking use.
  sc_core::sc_time take_latency() {
    const sc_core::sc_time t = latency_;
    latency_ = sc_core::SC_ZERO_TIME;
    return t;
  }

 private:
  MemoryPort* port_;
  bool blocking_;
  mutable sc_core::sc_time latency_;  // reads count too, and GlobalMemory::read is const
};

}  // namespace warptlm
