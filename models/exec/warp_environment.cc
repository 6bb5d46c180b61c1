#include "exec/warp_environment.h"

#include <cstring>
#include <stdexcept>

#include "frontend/hex_text.h"
#include "memory/address_map.h"

namespace warptlm {
namespace {

uint32_t component(const Dim3& d, unsigned comp) { return comp == 0 ? d.x : comp == 1 ? d.y : d.z; }

// out[lane] = f(lane) for the lanes of m.
template <class F>
void fill_lanes(LaneMask m, uint64_t* out, F&& f) {
  for (; m; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(__builtin_ctzll(m));
    out[lane] = f(lane);
  }
}

}  // namespace

uint64_t FunctionalWarpEnvironment::symbol_address(uint32_t symbol) {
  const Symbol& s = module_.symbols[symbol];
  switch (s.space) {
    case Space::Global:
      return mem_.globals_base + s.offset;
    case Space::Const:
    case Space::Shared:
      return s.offset;
    case Space::Local:
      return warp_->frames.back().local_base + s.offset;
    case Space::Param:
      if (s.function >= 0 && module_.functions[s.function].is_entry) {
        // Kernel parameters live in the parameter buffer; call-site and
        // formal .params of device functions in the current frame.
        bool kernel_param = false;
        for (uint32_t p : module_.functions[s.function].params) kernel_param |= (p == symbol);
        if (kernel_param) return s.offset;
      }
      return kFrameParamTag + s.offset;
    case Space::Generic:
      break;
  }
  return s.offset;
}

void FunctionalWarpEnvironment::special_lanes(SpecialReg sreg, unsigned comp, LaneMask lanes,
                                              uint64_t* out) {
  switch (sreg) {
    case SpecialReg::Tid: {
      const Dim3* tid = warp_->tid.data();
      return fill_lanes(lanes, out, [&](unsigned lane) { return component(tid[lane], comp); });
    }
    case SpecialReg::Laneid:
      return fill_lanes(lanes, out, [](unsigned lane) { return lane; });
    case SpecialReg::LanemaskEq:
    case SpecialReg::LanemaskLe:
    case SpecialReg::LanemaskLt:
    case SpecialReg::LanemaskGe:
    case SpecialReg::LanemaskGt:
      return WarpEnvironment::special_lanes(sreg, comp, lanes, out);
    default: {
      if (!lanes) return;
      const uint64_t v = special(sreg, comp, static_cast<unsigned>(__builtin_ctzll(lanes)));
      return fill_lanes(lanes, out, [v](unsigned) { return v; });
    }
  }
}

uint64_t FunctionalWarpEnvironment::special(SpecialReg sreg, unsigned comp, unsigned lane) {
  const unsigned ws = warp_->size;
  LaneMask bit = LaneMask(1) << lane;
  switch (sreg) {
    case SpecialReg::Tid:
      return component(warp_->tid[lane], comp);
    case SpecialReg::Ntid:
      return component(cta_.ntid, comp);
    case SpecialReg::Ctaid:
      return component(cta_.ctaid, comp);
    case SpecialReg::Nctaid:
      return component(cta_.nctaid, comp);
    case SpecialReg::Laneid:
      return lane;
    case SpecialReg::Warpid:
      return warp_->index;
    case SpecialReg::Nwarpid:
      return cta_.warps;
    case SpecialReg::Smid:
      return 0;
    case SpecialReg::Nsmid:
      return 1;
    case SpecialReg::Gridid:
      return 0;
    // The functional executor has no cycles: the clock is the warp's issue count,
    // which keeps runs deterministic.
    case SpecialReg::Clock:
      return warp_->issued & 0xffffffffu;
    case SpecialReg::Clock64:
    case SpecialReg::GlobalTimer:  // as the clock: a nanosecond per instruction
      return warp_->issued;
    case SpecialReg::GlobalTimerLo:
      return warp_->issued & 0xffffffffu;
    case SpecialReg::GlobalTimerHi:
      return warp_->issued >> 32;
    case SpecialReg::WarpSize:
      return ws;
    // The CUDA driver's launch environment: cooperative groups read the grid
    // workspace from %envreg1 (high half) and %envreg2 (low half); the
    // others are 0 (docs/cooperative-launch.md).
    case SpecialReg::EnvReg:
      return comp == 1   ? cta_.grid_workspace >> 32
             : comp == 2 ? cta_.grid_workspace & 0xffffffffu
                         : 0;
    case SpecialReg::LanemaskEq:
      return bit;
    case SpecialReg::LanemaskLe:
      return (bit | (bit - 1)) & full_mask(ws);
    case SpecialReg::LanemaskLt:
      return bit - 1;
    case SpecialReg::LanemaskGe:
      return full_mask(ws) & ~(bit - 1);
    case SpecialReg::LanemaskGt:
      return full_mask(ws) & ~(bit | (bit - 1));
    // Shared memory is static (module) plus the launch's dynamic bytes, exactly:
    // the functional model has no allocation granularity to round up to.
    case SpecialReg::DynamicSmemSize:
      return cta_.shared.size() - module_.shared_static_size;
    case SpecialReg::TotalSmemSize:
      return cta_.shared.size();
  }
  return 0;
}

uint8_t* FunctionalWarpEnvironment::locate(Space space, unsigned lane, uint64_t addr, unsigned size,
                                           bool writing) {
  uint64_t inner = addr;
  if (space == Space::Generic) space = address_map::classify(addr, &inner);
  auto fault = [&](MemoryFault::Reason reason, const std::string& why) -> MemoryFault {
    return MemoryFault(reason, space, addr, size, lane,
                       std::string(writing ? "write" : "read") + " of " + std::to_string(size) +
                           " bytes at " + space_name(space) + " address " + hex_string(addr) +
                           ": " + why);
  };
  auto in_range = [&](uint64_t off, uint64_t limit) { return off <= limit && size <= limit - off; };
  switch (space) {
    case Space::Global:
      break;  // load() and store() go through the GlobalMemory
    case Space::Shared:
      if (!in_range(inner, cta_.shared.size()))
        throw fault(
            MemoryFault::Reason::OutOfBounds,
            "outside the CTA's " + std::to_string(cta_.shared.size()) + " bytes of shared memory");
      return cta_.shared.data() + inner;
    case Space::Const:
      if (writing) throw fault(MemoryFault::Reason::ReadOnly, "constant memory is read-only");
      if (!in_range(inner, mem_.constants.size()))
        throw fault(MemoryFault::Reason::OutOfBounds, "outside the module's " +
                                                          std::to_string(mem_.constants.size()) +
                                                          " bytes of constant memory");
      return mem_.constants.data() + inner;
    case Space::Local: {
      auto& local = warp_->local[lane];
      if (!in_range(inner, local.size()))
        throw fault(
            MemoryFault::Reason::OutOfBounds,
            "outside the thread's " + std::to_string(local.size()) + " bytes of local memory");
      return local.data() + inner;
    }
    case Space::Param: {
      if (inner >= kFrameParamTag) {
        Frame& f = warp_->frames.back();
        uint64_t off = inner - kFrameParamTag;
        if (!in_range(off, f.param_frame_size))
          throw fault(MemoryFault::Reason::OutOfBounds, "outside the call's parameter frame");
        return f.params.data() + lane * f.param_frame_size + off;
      }
      if (writing) throw fault(MemoryFault::Reason::ReadOnly, "kernel parameters are read-only");
      if (!in_range(inner, mem_.params.size()))
        throw fault(MemoryFault::Reason::OutOfBounds, "outside the kernel's parameter buffer");
      return mem_.params.data() + inner;
    }
    case Space::Generic:
      break;
  }
  throw fault(MemoryFault::Reason::OutOfBounds, "unmapped");
}

void FunctionalWarpEnvironment::load(Space space, unsigned lane, uint64_t addr, void* dst,
                                     unsigned size) {
  if (is_global(space, addr)) {
    check_shared_access();
    if (!mem_.global->read(addr, dst, size)) throw global_fault(lane, addr, size, false);
    return;
  }
  std::memcpy(dst, locate(space, lane, addr, size, false), size);
}

void FunctionalWarpEnvironment::store(Space space, unsigned lane, uint64_t addr, const void* src,
                                      unsigned size) {
  if (is_global(space, addr)) {
    check_shared_access();
    if (!mem_.global->write(addr, src, size)) throw global_fault(lane, addr, size, true);
    return;
  }
  std::memcpy(locate(space, lane, addr, size, true), src, size);
}

inline uint8_t* FunctionalWarpEnvironment::global_bytes(GlobalMemory::Block* block, uint64_t addr,
                                                        unsigned size) {
  uint64_t off = addr - block->base;  // huge below the base
  if (off > block->size || size > block->size - off) {
    *block = mem_.global->block(addr, size);
    if (!block->data) return nullptr;
    off = addr - block->base;
  }
  return block->data + off;
}

template <class Access>
void FunctionalWarpEnvironment::each_access(Space space, LaneMask lanes, const uint64_t* addrs,
                                            unsigned size, bool writing, Access&& access) {
  // The state space is decided once; the usual cases (global memory within
  // the block of the previous lane, shared and local memory, kernel
  // parameters) are checked inline, and everything else, faults included, goes to locate().
  auto in_range = [size](uint64_t off, uint64_t limit) {
    return off <= limit && size <= limit - off;
  };
  auto each = [&](auto&& f) {
    for (LaneMask m = lanes; m; m &= m - 1) {
      const unsigned lane = static_cast<unsigned>(__builtin_ctzll(m));
      f(lane, addrs[lane]);
    }
  };
  auto elsewhere = [&](unsigned lane, uint64_t addr) {
    access(lane, locate(space, lane, addr, size, writing));
  };
  GlobalMemory::Block block;
  switch (space) {
    case Space::Global:
      check_shared_access();
      return each([&](unsigned lane, uint64_t addr) {
        uint8_t* bytes = global_bytes(&block, addr, size);
        access(lane, bytes);
        // The lane went through read()/write(), which may have waited (a
        // loosely-timed b_transport) while the memory withdrew its blocks.
        if (!bytes) block = GlobalMemory::Block{};
      });
    case Space::Shared:
      return each([&](unsigned lane, uint64_t addr) {
        if (in_range(addr, cta_.shared.size()))
          access(lane, cta_.shared.data() + addr);
        else
          elsewhere(lane, addr);
      });
    case Space::Param:
      return each([&](unsigned lane, uint64_t addr) {
        if (!writing && addr < kFrameParamTag && in_range(addr, mem_.params.size()))
          access(lane, mem_.params.data() + addr);
        else
          elsewhere(lane, addr);
      });
    case Space::Local:  // each lane its own bytes
      return each([&](unsigned lane, uint64_t addr) {
        std::vector<uint8_t>& local = warp_->local[lane];
        if (in_range(addr, local.size()))
          access(lane, local.data() + addr);
        else
          elsewhere(lane, addr);
      });
    case Space::Generic:
      check_shared_access();
      return each([&](unsigned lane, uint64_t addr) {
        if (is_global(space, addr))
          access(lane, global_bytes(&block, addr, size));
        else
          elsewhere(lane, addr);
      });
    default:
      return each(elsewhere);
  }
}

namespace {

// One element or vector access: a fixed-size copy for the common sizes.
inline void copy(uint8_t* dst, const uint8_t* src, unsigned size) {
  switch (size) {
    case 4:
      return static_cast<void>(std::memcpy(dst, src, 4));
    case 8:
      return static_cast<void>(std::memcpy(dst, src, 8));
    default:
      std::memcpy(dst, src, size);
  }
}

// Lanes `lanes`' elements of kSize bytes from (kStore: to) the block of host
// bytes `bytes` holding the `span` addresses from `base` on, lane by lane in
// increasing order. Stops at the first lane outside the block and returns
// false: each_access() then does every lane again, the faulting one included,
// which for a store rewrites the same bytes in the same order.
template <unsigned kSize, bool kStore>
bool copy_block(uint8_t* bytes, uint64_t base, uint64_t span, LaneMask lanes, const uint64_t* addrs,
                uint8_t* data) {
  const uint64_t last = span - kSize;  // the block holds one access, so span >= kSize
  if (lanes == full_mask(32)) {
    // A whole 32-lane warp (every preset's). Lanes at consecutive addresses
    // (a coalesced access, the common one) are one copy: the lanes touch
    // disjoint bytes, so their order does not matter.
    // The first, second and last lanes reject most other patterns cheaply.
    const uint64_t first = addrs[0];
    constexpr uint64_t kWarpBytes = 32 * kSize;
    uint64_t apart = (addrs[1] - (first + kSize)) | (addrs[31] - (first + 31 * kSize));
    if (apart == 0)
      for (unsigned lane = 2; lane < 31; ++lane) apart |= addrs[lane] - (first + lane * kSize);
    if (apart == 0 && span >= kWarpBytes && first - base <= span - kWarpBytes) {
      if (kStore)
        std::memcpy(bytes + (first - base), data, kWarpBytes);
      else
        std::memcpy(data, bytes + (first - base), kWarpBytes);
      return true;
    }
    // A load of one address for every lane (a kernel parameter, a shared
    // variable) reads it once.
    if (!kStore && addrs[1] == first && addrs[31] == first && first - base <= last) {
      uint64_t other = 0;
      for (unsigned lane = 2; lane < 31; ++lane) other |= addrs[lane] ^ first;
      if (other == 0) {
        uint8_t v[kSize];
        std::memcpy(v, bytes + (first - base), kSize);
        for (unsigned lane = 0; lane < 32; ++lane) std::memcpy(data + lane * kSize, v, kSize);
        return true;
      }
    }
    // Otherwise a counted loop, no mask scan.
    for (unsigned lane = 0; lane < 32; ++lane) {
      const uint64_t off = addrs[lane] - base;
      if (off > last) return false;
      if (kStore)
        std::memcpy(bytes + off, data + size_t(lane) * kSize, kSize);
      else
        std::memcpy(data + size_t(lane) * kSize, bytes + off, kSize);
    }
    return true;
  }
  for (LaneMask m = lanes; m; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(__builtin_ctzll(m));
    const uint64_t off = addrs[lane] - base;  // huge below the base
    if (off > last) return false;
    if (kStore)
      std::memcpy(bytes + off, data + size_t(lane) * kSize, kSize);
    else
      std::memcpy(data + size_t(lane) * kSize, bytes + off, kSize);
  }
  return true;
}

}  // namespace

uint8_t* FunctionalWarpEnvironment::block_at(Space space, uint64_t addr, unsigned size,
                                             uint64_t* base, uint64_t* span) {
  if (space == Space::Shared) {
    *base = 0;
    *span = cta_.shared.size();
    return *span >= size ? cta_.shared.data() : nullptr;
  }
  if (space != Space::Global) return nullptr;
  check_shared_access();
  const GlobalMemory::Block b = mem_.global->block(addr, size);
  *base = b.base;
  *span = b.size;
  return b.data;
}

void FunctionalWarpEnvironment::load_lanes(Space space, LaneMask lanes, const uint64_t* addrs,
                                           uint8_t* data, unsigned size) {
  if (lanes && (size == 4 || size == 8)) {
    uint64_t base = 0, span = 0;
    const uint64_t first = addrs[__builtin_ctzll(lanes)];
    uint8_t* bytes = nullptr;
    if (space == Space::Param) {
      // The kernel's parameter buffer, read by every warp at its start (a
      // call frame's parameters lie at kFrameParamTag and up, outside it).
      span = mem_.params.size();
      if (span >= size) bytes = mem_.params.data();
    } else {
      bytes = block_at(space, first, size, &base, &span);
    }
    if (bytes) {
      // `data` is the caller's scratch: lanes copied before a lane outside
      // the block are copied again below.
      if (size == 4 ? copy_block<4, false>(bytes, base, span, lanes, addrs, data)
                    : copy_block<8, false>(bytes, base, span, lanes, addrs, data))
        return;
    }
  }
  each_access(space, lanes, addrs, size, false, [&](unsigned lane, const uint8_t* src) {
    uint8_t* dst = data + size_t(lane) * size;
    if (src)
      copy(dst, src, size);
    else  // global memory without a block: read, or fault
      FunctionalWarpEnvironment::load(space, lane, addrs[lane], dst, size);
  });
}

void FunctionalWarpEnvironment::update_lanes(Space space, LaneMask lanes, const uint64_t* addrs,
                                             unsigned size, LaneUpdate update, void* ctx) {
  uint64_t base = 0, span = 0;
  uint8_t* bytes =
      lanes ? block_at(space, addrs[__builtin_ctzll(lanes)], size, &base, &span) : nullptr;
  if (bytes) {
    // An atomic is never done twice: the lanes done here are not done again.
    for (; lanes; lanes &= lanes - 1) {
      const unsigned lane = static_cast<unsigned>(__builtin_ctzll(lanes));
      const uint64_t off = addrs[lane] - base;  // huge below the base
      if (off > span - size) break;             // the block holds one access: span >= size
      update(ctx, lane, bytes + off);
    }
  }
  uint8_t buf[8];
  for (; lanes; lanes &= lanes - 1) {
    const unsigned lane = static_cast<unsigned>(__builtin_ctzll(lanes));
    FunctionalWarpEnvironment::load(space, lane, addrs[lane], buf, size);
    update(ctx, lane, buf);
    FunctionalWarpEnvironment::store(space, lane, addrs[lane], buf, size);
  }
}

void FunctionalWarpEnvironment::store_lanes(Space space, LaneMask lanes, const uint64_t* addrs,
                                            const uint8_t* data, unsigned size) {
  if (lanes && (size == 4 || size == 8)) {
    uint64_t base = 0, span = 0;
    const uint64_t first = addrs[__builtin_ctzll(lanes)];
    if (uint8_t* bytes = block_at(space, first, size, &base, &span)) {
      uint8_t* src = const_cast<uint8_t*>(data);  // only read (kStore)
      if (size == 4 ? copy_block<4, true>(bytes, base, span, lanes, addrs, src)
                    : copy_block<8, true>(bytes, base, span, lanes, addrs, src))
        return;
    }
  }
  each_access(space, lanes, addrs, size, true, [&](unsigned lane, uint8_t* dst) {
    const uint8_t* src = data + size_t(lane) * size;
    if (dst)
      copy(dst, src, size);
    else
      FunctionalWarpEnvironment::store(space, lane, addrs[lane], src, size);
  });
}

void FunctionalWarpEnvironment::shared_access_in_private_phase() {
  throw std::logic_error(
      "an instruction reached global memory in the private phase of a parallel timing cycle "
      "(it should have been issued in the serial phase: reaches_beyond_sm)");
}

bool FunctionalWarpEnvironment::is_global(Space space, uint64_t addr) {
  uint64_t inner = 0;
  return space == Space::Global ||
         (space == Space::Generic && address_map::classify(addr, &inner) == Space::Global);
}

MemoryFault FunctionalWarpEnvironment::global_fault(unsigned lane, uint64_t addr, unsigned size,
                                                    bool writing) const {
  const std::string near = mem_.global->describe(addr);
  return MemoryFault(MemoryFault::Reason::OutOfBounds, Space::Global, addr, size, lane,
                     std::string(writing ? "write" : "read") + " of " + std::to_string(size) +
                         " bytes at global address " + hex_string(addr) + ": out of bounds" +
                         (near.empty() ? "" : " (" + near + ")"));
}

}  // namespace warptlm
