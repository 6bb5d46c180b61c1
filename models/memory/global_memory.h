// The functional view of global memory that instructions read and write at
// issue: the GPU's own DeviceMemory (allocations, bounds named in faults) or,
// in a virtual prototype, whatever memory the platform binds to the GPU's
// initiator socket, reached through debug transport.
#pragma once

#include <cstdint>
#include <string>

namespace warptlm {

class GlobalMemory {
 public:
  virtual ~GlobalMemory() = default;
  // false when [addr, addr + size) is not backed (the caller reports a fault).
  virtual bool read(uint64_t addr, void* dst, uint64_t size) const = 0;
  virtual bool write(uint64_t addr, const void* src, uint64_t size) = 0;
  // Words for a fault message about `addr` ("12 bytes past the end of 'out'");
  // empty when there is nothing to add.
  virtual std::string describe(uint64_t addr) const = 0;

  // Host bytes that back device addresses [base, base + size).
  struct Block {
    uint64_t base = 0, size = 0;
    uint8_t* data = nullptr;
  };
  // The block holding [addr, addr + size), for callers that reach many
  // nearby addresses (a warp's lanes) with one lookup; data is null when there
  // is none, or when this memory is only reached through read and write (the
  // default). Valid until the memory's layout changes.
  virtual Block block(uint64_t addr, uint64_t size) {
    (void)addr;
    (void)size;
    return {};
  }
};

}  // namespace warptlm
