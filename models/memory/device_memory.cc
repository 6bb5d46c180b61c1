#include "memory/device_memory.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <stdexcept>

#include "memory/address_map.h"

namespace warptlm {
namespace {
constexpr uint64_t kAlign = 256;
constexpr uint64_t kGap = 256;  // unmapped bytes between allocations
}  // namespace

std::vector<uint8_t> DeviceMemory::make_bytes(uint64_t size, const std::string& name) const {
  if (size > kCapacity - bytes_allocated_)
    throw std::invalid_argument("device memory: '" + name + "' needs " + std::to_string(size) +
                                " bytes, " + std::to_string(kCapacity - bytes_allocated_) +
                                " of the device's " + std::to_string(kCapacity) +
                                " bytes (16 GiB) are free");
  try {
    return std::vector<uint8_t>(size, 0);
  } catch (const std::bad_alloc&) {
    throw std::invalid_argument("device memory: '" + name + "' needs " + std::to_string(size) +
                                " bytes, more than this host can allocate");
  }
}

uint64_t DeviceMemory::allocate(uint64_t size, const std::string& name) {
  if (next_ == 0) next_ = address_map::kGlobalHeapBase;
  Allocation a;
  a.bytes = make_bytes(size, name);  // within kCapacity, so the span below cannot wrap
  uint64_t base = next_;
  uint64_t span = (size + kAlign - 1) / kAlign * kAlign;
  if (base + span + kGap >= address_map::kHostParamBase)
    throw std::runtime_error("device memory exhausted allocating '" + name + "'");
  next_ = base + span + kGap;
  a.base = base;
  a.name = name;
  bytes_allocated_ += size;
  allocations_.emplace(base, std::move(a));
  return base;
}

uint64_t DeviceMemory::allocate_at(uint64_t base, uint64_t size, const std::string& name) {
  auto next = allocations_.lower_bound(base);
  bool overlaps = next != allocations_.end() && next->first < base + std::max<uint64_t>(size, 1);
  if (next != allocations_.begin()) {
    const Allocation& prev = std::prev(next)->second;
    overlaps = overlaps || prev.base + prev.bytes.size() > base;
  }
  if (base == 0 || overlaps)
    throw std::runtime_error("device memory: cannot place '" + name + "' at a used address");
  Allocation a;
  a.base = base;
  a.name = name;
  a.bytes = make_bytes(size, name);
  bytes_allocated_ += size;
  allocations_.emplace(base, std::move(a));
  return base;
}

bool DeviceMemory::release(uint64_t base) {
  auto it = allocations_.find(base);
  if (it == allocations_.end()) return false;
  last_.allocation = nullptr;
  bytes_allocated_ -= it->second.bytes.size();
  allocations_.erase(it);
  return true;
}

const DeviceMemory::Allocation* DeviceMemory::find(uint64_t addr, uint64_t size) const {
  auto inside = [&](const Allocation& a) {
    const uint64_t off = addr - a.base;  // huge below the base
    return off <= a.bytes.size() && size <= a.bytes.size() - off;
  };
  if (last_.allocation && inside(*last_.allocation)) return last_.allocation;
  auto it = allocations_.upper_bound(addr);
  if (it == allocations_.begin()) return nullptr;
  --it;
  if (!inside(it->second)) return nullptr;
  last_.allocation = &it->second;
  return &it->second;
}

DeviceMemory::Allocation* DeviceMemory::find(uint64_t addr, uint64_t size) {
  return const_cast<Allocation*>(static_cast<const DeviceMemory*>(this)->find(addr, size));
}

bool DeviceMemory::read(uint64_t addr, void* dst, uint64_t size) const {
  const Allocation* a = find(addr, size);
  if (!a) return false;
  std::memcpy(dst, a->bytes.data() + (addr - a->base), size);
  return true;
}

bool DeviceMemory::write(uint64_t addr, const void* src, uint64_t size) {
  Allocation* a = find(addr, size);
  if (!a) return false;
  std::memcpy(a->bytes.data() + (addr - a->base), src, size);
  return true;
}

GlobalMemory::Block DeviceMemory::block(uint64_t addr, uint64_t size) {
  Allocation* a = find(addr, size);
  if (!a) return {};
  return {a->base, a->bytes.size(), a->bytes.data()};
}

std::string DeviceMemory::describe(uint64_t addr) const {
  auto it = allocations_.upper_bound(addr);
  if (it != allocations_.begin()) {
    const Allocation& a = std::prev(it)->second;
    uint64_t end = a.base + a.bytes.size();
    if (addr >= end)
      return std::to_string(addr - end) + " bytes past the end of '" + a.name + "' (" +
             std::to_string(a.bytes.size()) + " bytes)";
    return "inside '" + a.name + "' but crossing its end";
  }
  if (it != allocations_.end())
    return std::to_string(it->second.base - addr) + " bytes before '" + it->second.name + "'";
  return "no allocation near it";
}

}  // namespace warptlm
