// GPU metadata riding on a memory transaction (tlm_generic_payload extension): what kind of access
// it is and who issued it. Only warptlm components read it; a foreign target may ignore it.
#pragma once

#include <cstdint>
#include <tlm>

#include "frontend/ir.h"

namespace warptlm {

enum class AccessKind : uint8_t { Load, Store, Atomic, Fetch, Writeback };

// "load", "store", "atomic", "fetch", "writeback".
const char* access_kind_name(AccessKind kind);

struct GpuExtension : tlm::tlm_extension<GpuExtension> {
  AccessKind kind = AccessKind::Load;
  uint32_t sm = 0;    // issuing SM (L2 writebacks: the slice index)
  uint32_t warp = 0;  // global warp id
  Pc pc = 0;          // issuing instruction
  uint64_t tag = 0;   // the originator's id for the request, untouched by everyone else
  // The originator's generation when it sent the request (an SM counts its
  // resets: an answer to a request sent before one is dropped); untouched by
  // everyone else.
  uint32_t epoch = 0;

  // Back to the defaults above (the payload pool reuses one extension per payload).
  void reset() { *this = GpuExtension(); }

  tlm::tlm_extension_base* clone() const override { return new GpuExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const GpuExtension&>(other);
  }
};

}  // namespace warptlm
