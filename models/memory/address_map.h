// The generic address space: where the shared, local and const windows sit.
// Generic loads/stores (ld/st without a state space) and cvta use this map.
#pragma once

#include <cstdint>

#include "frontend/ir.h"

namespace warptlm::address_map {

// Each window is 4 GiB wide; a generic address inside it is
// window base + address within that space. Everything else is global.
constexpr uint64_t kWindowSize = 1ull << 32;
constexpr uint64_t kSharedBase = 0x0000'7E00'0000'0000ull;
constexpr uint64_t kLocalBase = 0x0000'7F00'0000'0000ull;
constexpr uint64_t kConstBase = 0x0000'7D00'0000'0000ull;
constexpr uint64_t kParamBase = 0x0000'7C00'0000'0000ull;
// Global allocations (buffers, module variables) start here; lower addresses,
// null included, never hold data.
constexpr uint64_t kGlobalHeapBase = 0x0000'0001'0000'0000ull;
// Where a host puts kernel parameter buffers in global memory (the timing
// model's host reads them from there at launch): far above the heap, so an
// overrun of a buffer faults as it does in functional runs instead of
// reaching the parameters. The heap ends below it.
constexpr uint64_t kHostParamBase = 0x0000'7B00'0000'0000ull;

inline uint64_t window_base(Space s) {
  switch (s) {
    case Space::Shared:
      return kSharedBase;
    case Space::Local:
      return kLocalBase;
    case Space::Const:
      return kConstBase;
    case Space::Param:
      return kParamBase;
    default:
      return 0;
  }
}

// Splits a generic address into its state space and the address within it.
inline Space classify(uint64_t generic, uint64_t* inner) {
  for (Space s : {Space::Shared, Space::Local, Space::Const, Space::Param}) {
    uint64_t base = window_base(s);
    if (generic >= base && generic - base < kWindowSize) {
      *inner = generic - base;
      return s;
    }
  }
  *inner = generic;
  return Space::Global;
}

}  // namespace warptlm::address_map
