// Global device memory as a set of allocations. An access must lie entirely
// inside one allocation; anything else (null, the gaps between allocations,
// past the end) is an out-of-bounds fault, as compute-sanitizer's memcheck
// reports it, never a silent read of neighbouring memory.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "memory/global_memory.h"

namespace warptlm {

class DeviceMemory : public GlobalMemory {
 public:
  // The simulated device's memory: 16 GiB, a V100's. An allocation past it is
  // refused with std::invalid_argument naming it, before host memory is used.
  static constexpr uint64_t kCapacity = uint64_t(16) << 30;

  struct Allocation {
    uint64_t base = 0;
    std::string name;
    std::vector<uint8_t> bytes;
  };

  // Returns the base address (256-byte aligned, with an unmapped gap after
  // the previous allocation so off-by-one accesses fault).
  uint64_t allocate(uint64_t size, const std::string& name);
  // An allocation at a chosen address (outside the heap, e.g. a host's
  // parameter buffers at address_map::kHostParamBase); throws when it would
  // overlap an existing one.
  uint64_t allocate_at(uint64_t base, uint64_t size, const std::string& name);
  // Frees the allocation at `base` (cudaFree); false when none starts there.
  // Its addresses are not handed out again. Only between launches: a running
  // kernel's blocks point into allocations.
  bool release(uint64_t base);
  // nullptr when [addr, addr + size) is not inside one allocation.
  const Allocation* find(uint64_t addr, uint64_t size) const;
  Allocation* find(uint64_t addr, uint64_t size);
  // Return false when the range is not inside one allocation.
  bool read(uint64_t addr, void* dst, uint64_t size) const override;
  bool write(uint64_t addr, const void* src, uint64_t size) override;
  // The allocation nearest to `addr`, for fault messages ("12 bytes past the
  // end of 'out'"); empty when there is none.
  std::string describe(uint64_t addr) const override;
  // The allocation holding the range (allocations never move).
  Block block(uint64_t addr, uint64_t size) override;
  uint64_t bytes_allocated() const { return bytes_allocated_; }

 private:
  // Makes the bytes of an allocation of `size` named `name`, refusing what
  // would pass kCapacity or what the host cannot hold.
  std::vector<uint8_t> make_bytes(uint64_t size, const std::string& name) const;
  std::map<uint64_t, Allocation> allocations_;  // by base address
  // The allocation find() answered last: a warp's lanes, and an atomic's
  // read and write, mostly reach the same one. Forgotten by release() and
  // not carried by a copy or move (it points into this object's map). Like
  // the rest of the object, for one thread at a time.
  struct LastFound {
    const Allocation* allocation = nullptr;
    LastFound() = default;
    LastFound(const LastFound&) {}
    LastFound& operator=(const LastFound&) {
      allocation = nullptr;
      return *this;
    }
  };
  mutable LastFound last_;
  uint64_t next_ = 0;
  uint64_t bytes_allocated_ = 0;
};

}  // namespace warptlm
